import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, defaultBackoff } from '../src/index.js';
import { HostRotation } from '../src/core/hosts.js';
import { REQUEST_TIMEOUTS, RECONNECT } from '../src/protocol/index.js';

describe('backoff (CONN-6)', () => {
  it('uses the spec schedule: 1000 ms growing to 5000 ms, jitter 0.5', () => {
    expect(defaultBackoff).toEqual({ initialDelay: 1000, maxDelay: 5000, factor: 2, jitter: 0.5 });
    expect(RECONNECT.connectTimeout).toBe(20_000);
  });

  it('every delay lies within [base*2^n*(1-0.5), min(cap, base*2^n*(1+0.5))]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const delay = backoffDelay(n, () => r);
          const base = 1000 * 2 ** n;
          expect(delay).toBeGreaterThanOrEqual(Math.min(Math.floor(base * 0.5), 5000));
          expect(delay).toBeLessThanOrEqual(Math.min(5000, base * 1.5));
        },
      ),
    );
  });

  it('spreads delays across the jitter range', () => {
    const delays = new Set(Array.from({ length: 50 }, (_, i) => backoffDelay(0, () => i / 50)));
    expect(Math.min(...delays)).toBe(500);
    expect(Math.max(...delays)).toBeGreaterThan(1400);
  });
});

describe('hosts (CONN-7)', () => {
  it('starts at random() * n and wraps around', () => {
    const rotation = new HostRotation(['a', 'b', 'c', 'd', 'e'], () => 0.99);
    expect(rotation.current()).toBe('e');
    expect([rotation.next(), rotation.next(), rotation.next()]).toEqual(['a', 'b', 'c']);
  });

  it('visits every host within n errors from any start', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const hosts = Array.from({ length: n }, (_, i) => `h${i}`);
          const rotation = new HostRotation(hosts, () => r);
          const seen = new Set([rotation.current()]);
          for (let i = 1; i < n; i++) seen.add(rotation.next());
          expect(seen.size).toBe(n);
        },
      ),
    );
  });
});

describe('request timeouts (REQ-3)', () => {
  it('match the reference', () => {
    expect(REQUEST_TIMEOUTS).toEqual({
      query: { single: 2500, total: 12_000 },
      request: { single: 1700, total: 12_000 },
      authorize: { single: 1700, total: 86_400_000 },
    });
  });
});
