import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens: `base64url(JSON payload) + '.' + base64url(HMAC-SHA256(secret, payload part))`. The same format
 * carries otps and the access tokens of private channels and groups; what the payload means is up to the caller.
 */

/** The outcome of {@link verifyToken}. */
export type VerifiedToken =
  { ok: true; payload: Record<string, unknown> } | { ok: false; reason: 'malformed' | 'forged' };

/** Signs `payload` with `secret`. */
export function signToken(secret: string, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/**
 * Checks `token`'s signature and returns its payload. Never throws: a token is untrusted input, so anything that
 * is not exactly two base64url parts with a JSON object inside is `malformed`.
 */
export function verifyToken(secret: string, token: unknown): VerifiedToken {
  if (typeof token !== 'string' || token.length > 4096) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 2) return { ok: false, reason: 'malformed' };
  const [body, signature] = parts as [string, string];
  if (!BASE64URL.test(body) || !BASE64URL.test(signature)) return { ok: false, reason: 'malformed' };
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  // timingSafeEqual throws on different lengths; the length of a MAC is public, so checking it first leaks nothing.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, reason: 'malformed' };
  }
  return { ok: true, payload: payload as Record<string, unknown> };
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body, 'utf8').digest();
}
