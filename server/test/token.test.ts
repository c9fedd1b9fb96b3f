import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueOtp, verifyOtp } from '../src/auth/otp.js';
import { accessGrant, signToken, verifyToken } from '../src/auth/token.js';

const secretKey = 'test-secret';
const now = 1_700_000_000_000;

describe('signed tokens', () => {
  it('round-trips a payload', () => {
    const token = signToken(secretKey, { c: 'room-1', x: [1, 2] });
    expect(verifyToken(secretKey, token)).toEqual({ ok: true, payload: { c: 'room-1', x: [1, 2] } });
  });

  it('refuses another secret and a tampered payload as forged', () => {
    const token = signToken(secretKey, { u: 'alice' });
    expect(verifyToken('other-secret', token)).toEqual({ ok: false, reason: 'forged' });
    const [, signature] = token.split('.');
    const tampered = `${Buffer.from(JSON.stringify({ u: 'mallory' })).toString('base64url')}.${signature}`;
    expect(verifyToken(secretKey, tampered)).toEqual({ ok: false, reason: 'forged' });
  });

  it('refuses malformed input without throwing', () => {
    const body = Buffer.from('not json').toString('base64url');
    const notJson = `${body}.${signToken(secretKey, {}).split('.')[1]}`;
    for (const bad of [
      '',
      '.',
      'a.b.c',
      'abc',
      '!!.??',
      'a.',
      '.b',
      'x'.repeat(10_000),
      notJson,
      42,
      null,
      {},
      undefined,
    ]) {
      const result = verifyToken(secretKey, bad);
      expect(result.ok).toBe(false);
    }
  });

  it('refuses a correctly signed payload that is not an object', () => {
    // Sign an array by hand, the way a broken issuer might.
    const body = Buffer.from('[1]').toString('base64url');
    const mac = createHmac('sha256', secretKey).update(body).digest('base64url');
    expect(verifyToken(secretKey, `${body}.${mac}`)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('access grants', () => {
  const grant = (
    payload: Record<string, unknown>,
    ids: string[],
    userId: string | null = 'alice',
    secret = secretKey,
  ) => accessGrant({ secret: secretKey, token: signToken(secret, payload), userId, now, field: 'g', ids });
  const e = now + 1;

  it('grants the named user every id the field lists, or the one id it holds, until it expires', () => {
    expect(grant({ u: 'alice', g: ['g1', 'g2'], e }, ['g2', 'g1'])).toEqual({ u: 'alice', g: ['g1', 'g2'], e });
    expect(grant({ u: 'alice', g: 'g1', e }, ['g1'])).toBeDefined();
    expect(grant({ u: 'alice', g: [7], e }, ['7'])).toBeDefined();
    expect(grant({ u: 'alice', g: ['g1'], e }, ['g1', 'g2'])).toBeUndefined();
    expect(grant({ u: 'alice', g: ['g1'], e: now }, ['g1'])).toBeUndefined();
    expect(grant({ u: 'alice', g: ['g1'] }, ['g1'])).toBeUndefined();
    expect(grant({ u: 'bob', g: ['g1'], e }, ['g1'])).toBeUndefined();
    expect(grant({ u: 'alice', g: ['g1'], e }, ['g1'], null)).toBeUndefined();
    expect(grant({ u: 'alice', g: ['g1'], e }, ['g1'], 'alice', 'other-secret')).toBeUndefined();
  });

  it('grants nothing when the field is missing, not even an id spelled "undefined"', () => {
    expect(grant({ u: 'alice', e }, ['undefined'])).toBeUndefined();
    expect(grant({ u: 'alice', g: null, e }, ['null'])).toBeUndefined();
  });
});

describe('otp', () => {
  it('round-trips for the same user before expiry', () => {
    const { otp, expiresAt } = issueOtp({ secretKey, userId: 'alice', ttlMs: 60_000, now });
    expect(expiresAt).toBe(now + 60_000);
    expect(verifyOtp({ secretKey, token: otp, userId: 'alice', now: now + 59_999 })).toEqual({ ok: true });
  });

  it('defaults to 24 hours and matches numeric user ids as strings', () => {
    const { otp, expiresAt } = issueOtp({ secretKey, userId: 42, now });
    expect(expiresAt).toBe(now + 86_400_000);
    expect(verifyOtp({ secretKey, token: otp, userId: '42', now })).toEqual({ ok: true });
  });

  it('issues distinct tokens for the same user and time', () => {
    const a = issueOtp({ secretKey, userId: 'alice', now }).otp;
    const b = issueOtp({ secretKey, userId: 'alice', now }).otp;
    expect(a).not.toBe(b);
  });

  it('reports missing, forged, expired and wrong-user', () => {
    const { otp } = issueOtp({ secretKey, userId: 'alice', ttlMs: 1000, now });
    expect(verifyOtp({ secretKey, token: undefined, userId: 'alice', now })).toEqual({ ok: false, reason: 'missing' });
    expect(verifyOtp({ secretKey, token: '', userId: 'alice', now })).toEqual({ ok: false, reason: 'missing' });
    expect(verifyOtp({ secretKey: 'other', token: otp, userId: 'alice', now })).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(verifyOtp({ secretKey, token: 'garbage', userId: 'alice', now })).toEqual({ ok: false, reason: 'forged' });
    expect(verifyOtp({ secretKey, token: otp, userId: 'alice', now: now + 1000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyOtp({ secretKey, token: otp, userId: 'bob', now })).toEqual({ ok: false, reason: 'wrong-user' });
  });

  it('refuses a signed token that is not an otp', () => {
    const token = signToken(secretKey, { channel: 'x' });
    expect(verifyOtp({ secretKey, token, userId: 'alice', now })).toEqual({ ok: false, reason: 'forged' });
  });
});
