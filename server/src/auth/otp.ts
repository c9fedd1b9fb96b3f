import { randomBytes } from 'node:crypto';
import { signToken, verifyToken } from './token.js';

/** How long an otp is valid when no ttl is given: 24 hours. */
export const DEFAULT_OTP_TTL_MS = 86_400_000;

/** An issued otp and the time it stops being valid, in ms since the epoch. */
export interface IssuedOtp {
  otp: string;
  expiresAt: number;
}

/** Why an otp was refused. */
export type OtpFailure = 'missing' | 'forged' | 'expired' | 'wrong-user';

/** The outcome of {@link verifyOtp}. */
export type OtpCheck = { ok: true } | { ok: false; reason: OtpFailure };

/**
 * Issues an otp naming `userId`, signed with the app's secret. App servers call this (through the HTTP API or the
 * CLI) at login and hand the otp to their client, which presents it at authorize.
 */
export function issueOtp(params: {
  secretKey: string;
  userId: string | number;
  ttlMs?: number | undefined;
  now?: number | undefined;
}): IssuedOtp {
  const expiresAt = (params.now ?? Date.now()) + (params.ttlMs ?? DEFAULT_OTP_TTL_MS);
  // The nonce makes two otps issued in the same millisecond differ, so one leaked otp says nothing of another.
  const otp = signToken(params.secretKey, {
    u: String(params.userId),
    e: expiresAt,
    n: randomBytes(9).toString('base64url'),
  });
  return { otp, expiresAt };
}

/** Checks that `token` is an unexpired otp signed with `secretKey` for `userId`. Never throws. */
export function verifyOtp(params: {
  secretKey: string;
  token: unknown;
  userId: string | number;
  now?: number | undefined;
}): OtpCheck {
  const { token } = params;
  if (token === undefined || token === null || token === '') return { ok: false, reason: 'missing' };
  const verified = verifyToken(params.secretKey, token);
  if (!verified.ok) return { ok: false, reason: 'forged' };
  const { u, e } = verified.payload;
  // A validly signed payload of the wrong shape came from our own signer misused; refuse it like a forgery.
  if (typeof u !== 'string' || typeof e !== 'number') return { ok: false, reason: 'forged' };
  if (u !== String(params.userId)) return { ok: false, reason: 'wrong-user' };
  if (e <= (params.now ?? Date.now())) return { ok: false, reason: 'expired' };
  return { ok: true };
}
