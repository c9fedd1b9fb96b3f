import { describe, expect, it } from 'vitest';
import { AddressLimiter } from '../src/api/product/limits.js';

describe('AddressLimiter', () => {
  it('MEM-3: gives each address its own burst, refilled per minute', () => {
    const limiter = new AddressLimiter({ perMinute: 6, burst: 2 });
    expect([limiter.take('a', 0), limiter.take('a', 0), limiter.take('a', 0)]).toEqual([true, true, false]);
    expect(limiter.take('b', 0)).toBe(true);
    expect(limiter.take('a', 9_999)).toBe(false);
    expect(limiter.take('a', 10_000)).toBe(true);
  });

  it('MEM-3: remembers a bounded number of addresses, forgetting the least recently seen', () => {
    const limiter = new AddressLimiter({ perMinute: 1, burst: 1 }, 2);
    expect(limiter.take('a', 0)).toBe(true);
    expect(limiter.take('b', 0)).toBe(true);
    // `a` is seen again, so `b` is the one forgotten when `c` arrives.
    expect(limiter.take('a', 0)).toBe(false);
    expect(limiter.take('c', 0)).toBe(true);
    expect(limiter.take('a', 0)).toBe(false);
    expect(limiter.take('b', 0)).toBe(true);
  });
});
