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

/**
 * An access token's grant (IM-21, PUB-15, CS-15): its payload when `token` is signed with `secret`, names `userId` in
 * `u`, has not expired at `now` (`e`, ms since the epoch) and names every one of `ids` in `field`, one id or a list;
 * else undefined. What else the payload must say (a channel token's permission) is the caller's to check.
 */
export function accessGrant(params: {
  secret: string;
  token: unknown;
  userId: string | null;
  now: number;
  field: string;
  ids: readonly string[];
}): Record<string, unknown> | undefined {
  const verified = verifyToken(params.secret, params.token);
  if (!verified.ok || params.userId === null) return undefined;
  const { payload } = verified;
  const { u, e } = payload;
  const named = payload[params.field];
  if (u !== params.userId || typeof e !== 'number' || e <= params.now || named === undefined || named === null) {
    return undefined;
  }
  const granted = new Set((Array.isArray(named) ? named : [named]).map(String));
  return params.ids.every((id) => granted.has(id)) ? payload : undefined;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body, 'utf8').digest();
}
