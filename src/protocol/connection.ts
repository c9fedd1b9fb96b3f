import * as z from 'zod/mini';
import { LIMITS } from './limits.js';
import { MESSAGES } from './codes.js';
import { WIRE_MODULES, type ModuleName, type WireModuleName } from './events.js';

/** A user id on the wire: string or number (the reference sends strings). */
export const userIdSchema = z.union([
  z.string().check(z.maxLength(LIMITS.userIdMaxLength, MESSAGES.idTooLong)),
  z.number(),
]);

/** Mini-program identity: both fields required. */
export const wxmpIdSchema = z.object({
  appid: z.string({ error: MESSAGES.wxmpIdAppidMissing }).check(z.minLength(1, MESSAGES.wxmpIdAppidMissing)),
  openid: z.string({ error: MESSAGES.wxmpIdOpenidMissing }).check(z.minLength(1, MESSAGES.wxmpIdOpenidMissing)),
});

/**
 * `authorize` request (reference §2). Sent after every (re)connect. Unknown fields are kept so that newer
 * reference clients are not refused.
 */
export const authorizeRequestSchema = z.looseObject({
  appkey: z.string({ error: MESSAGES.appkeyEmpty }).check(z.minLength(1, MESSAGES.appkeyEmpty)),
  userId: z.nullish(userIdSchema),
  /** User data as a JSON string of an object. */
  userData: z.nullish(z.string()),
  otp: z.nullish(z.string()),
  artifactVersion: z.nullish(z.string()),
  /** The session id of the previous connection, null at first. */
  sid: z.nullish(z.string()),
  wxmpId: z.nullish(wxmpIdSchema),
  /** Module params, one key per registered module (`GIM`, `GWS`, ...). */
  mP: z.nullish(z.record(z.string(), z.unknown())),
  /** Anonymous connection. */
  a: z.nullish(z.boolean()),
  z: z.optional(z.unknown()),
  sm: z.optional(z.unknown()),
  c: z.optional(z.unknown()),
});

/** An `authorize` request as sent on the wire. */
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;

/** `authorize` reply: fields beside `code`, not inside `content`, as the reference reads them. */
export const authorizeReplySchema = z.looseObject({
  code: z.union([z.number(), z.string()]),
  sid: z.string(),
  enablePublish: z.boolean(),
  enableSubscribe: z.boolean(),
  mD: z.optional(z.record(z.string(), z.unknown())),
});

/** An `authorize` reply as sent on the wire. */
export type AuthorizeReply = z.infer<typeof authorizeReplySchema>;

/** What a client may do on a connection. `write` allows publishing and sending; `read` allows subscribing. */
export interface Permissions {
  read: boolean;
  write: boolean;
}

/** The readable form of a successful `authorize` reply. */
export interface Authorization {
  sid: string;
  permissions: Permissions;
  moduleData: Partial<Record<WireModuleName, unknown>>;
}

/** Maps an `authorize` reply to its domain form. */
export function toAuthorization(reply: AuthorizeReply): Authorization {
  return {
    sid: reply.sid,
    permissions: { read: reply.enableSubscribe, write: reply.enablePublish },
    moduleData: reply.mD ?? {},
  };
}

/** What a client connects with, in domain terms. */
export interface AuthorizeInput {
  appkey: string;
  userId?: string | number | undefined;
  userData?: Record<string, unknown> | undefined;
  otp?: string | undefined;
  sid: string | null;
  wxmpId?: { appid: string; openid: string } | undefined;
  modules: readonly ModuleName[];
  sdk: { name: string; version: string };
}

/** Maps connect input to the `authorize` request the reference's server expects. */
export function toAuthorizeRequest(input: AuthorizeInput): AuthorizeRequest {
  const anonymous = input.userId === undefined || input.userId === '';
  const mP: Record<string, unknown> = {};
  // This client sends no imAck and re-reads its conversations after a reconnect (IM-23, IMC-8): the server need not
  // follow what it acknowledges (IM-24).
  for (const m of input.modules) mP[WIRE_MODULES[m]] = m === 'im' ? { imAck: false } : null;
  return {
    appkey: input.appkey,
    userId: anonymous ? null : String(input.userId),
    userData: JSON.stringify(input.userData ?? {}),
    otp: input.otp ?? null,
    artifactVersion: input.sdk.version,
    sid: input.sid,
    wxmpId: input.wxmpId ?? null,
    mP,
    a: anonymous,
    c: { n: input.sdk.name, v: input.sdk.version },
  };
}

/** Size in bytes of a value's JSON encoding (UTF-8), the measure of the user-data limit. */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? '');
}

/**
 * Size in bytes of `text` in UTF-8, as `TextEncoder` would encode it (a lone surrogate as U+FFFD), counted without
 * encoding: every message sent is measured against the 3 KB limit.
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** `manualDisconnect` request: empty. */
export const manualDisconnectSchema = z.optional(z.looseObject({}));
