import { LIMITS, jsonByteLength, type ModuleName } from '../protocol/index.js';
import { ParleyError } from './errors.js';

/**
 * Fetches a fresh otp from your app server, for {@link ConnectInput.otp}: asked at connect and again whenever the
 * server refuses the one it gave (an otp expires, 24 hours after it was issued by default), so that a reconnect after
 * a long connection authorizes again instead of failing. What it throws or rejects with ends a first connect in
 * `connect_failed`; while reconnecting, the SDK tries again after its backoff.
 */
export type OtpProvider = () => string | Promise<string>;

/** Who connects. Without `id` the connection is anonymous. */
export interface ConnectInput {
  /** The user id: a string of at most 60 characters, or a number. Required when the IM module is on. */
  id?: string | number;
  /** Data about the user others see (name, avatar): an object of at most 300 bytes as JSON. */
  data?: Record<string, unknown>;
  /**
   * A token from your app server proving the user id; required unless the app allows anonymous ids. A string is
   * sent as it is at every (re)connect; an {@link OtpProvider} is asked for one at connect and for a fresh one when
   * the server refuses it, as token callbacks do in other realtime SDKs.
   */
  otp?: string | OtpProvider;
  /** Mini-program identity. */
  wxmpId?: { appid: string; openid: string };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Checks connect input with the reference's rules and messages (reference §1 `connect`). Throws a 400
 * {@link ParleyError}; returns a copy holding only the known fields.
 */
export function validateConnectInput(input: unknown, modules: readonly ModuleName[]): ConnectInput {
  const options: Record<string, unknown> = isPlainObject(input) ? input : {};
  const { id, data, otp, wxmpId } = options;
  if (modules.includes('im')) {
    if (typeof id !== 'string' && typeof id !== 'number') throw ParleyError.badRequest('idNotStringOrNumber');
    if (data !== undefined && !isPlainObject(data)) throw ParleyError.badRequest('dataNotObjectIm');
  }
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    throw ParleyError.badRequest('idNotStringOrNumber');
  }
  if (typeof id === 'number' && !Number.isFinite(id)) throw ParleyError.badRequest('idNotStringOrNumber');
  if (typeof id === 'string' && id.length > LIMITS.userIdMaxLength) throw ParleyError.badRequest('idTooLong');
  if (data !== undefined && !isPlainObject(data)) throw ParleyError.badRequest('dataNotObject');
  if (data !== undefined && jsonByteLength(data) > LIMITS.userDataMaxBytes) {
    throw ParleyError.badRequest('dataTooLong');
  }
  if (otp !== undefined && otp !== null && typeof otp !== 'string' && typeof otp !== 'function') {
    throw ParleyError.badRequest('otpNotString');
  }
  if (wxmpId !== undefined && wxmpId !== null) {
    if (!isPlainObject(wxmpId)) throw ParleyError.badRequest('wxmpIdNotObject');
    if (isBlank(wxmpId.appid) || typeof wxmpId.appid !== 'string') throw ParleyError.badRequest('wxmpIdAppidMissing');
    if (isBlank(wxmpId.openid) || typeof wxmpId.openid !== 'string') {
      throw ParleyError.badRequest('wxmpIdOpenidMissing');
    }
  }
  const result: ConnectInput = {};
  if (typeof id === 'string' || typeof id === 'number') result.id = id;
  if (isPlainObject(data)) result.data = data;
  if (typeof otp === 'string') result.otp = otp;
  if (typeof otp === 'function') result.otp = otp as OtpProvider;
  if (isPlainObject(wxmpId)) result.wxmpId = { appid: String(wxmpId.appid), openid: String(wxmpId.openid) };
  return result;
}
