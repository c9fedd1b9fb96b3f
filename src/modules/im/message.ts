import {
  LIMITS,
  utf8ByteLength,
  type PublishImRequest,
  type Recaller,
  type WireImMessage,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import { randomHexId } from '../../core/ids.js';
import { csFields, csFromWire, type CsWireFields } from './cs-message.js';
import type { Message, MessageTarget } from './types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks `to` with the spec's rules (product spec §5 Messaging rules). */
export function validateTarget(to: unknown, me: string): MessageTarget {
  if (!isPlainObject(to)) throw ParleyError.badRequest('toRequired');
  const { type, id, data } = to;
  if (type !== 'private' && type !== 'group' && type !== 'cs') throw ParleyError.badRequest('sceneNotSupported');
  if (typeof id === 'number' ? !Number.isFinite(id) : typeof id !== 'string' || id.trim() === '') {
    throw ParleyError.badRequest('idEmpty');
  }
  if (data !== undefined && !isPlainObject(data)) throw ParleyError.badRequest('dataNotObject');
  if (type === 'private' && String(id) === me) throw ParleyError.badRequest('toSelf');
  const target: MessageTarget = { type, id: id as string | number, data: data ?? {} };
  if (type === 'cs' && typeof to.teamId === 'string') target.teamId = to.teamId;
  return target;
}

/** Builds a new, unsent message. */
export function buildMessage(params: {
  type: string;
  payload: unknown;
  to: MessageTarget;
  me: { id: string; data: Record<string, unknown> };
  now: number;
}): Message {
  const base = {
    messageId: randomHexId(),
    type: params.type,
    timestamp: params.now,
    senderId: params.me.id,
    payload: params.payload,
    status: 'new' as const,
    recalled: false,
  };
  if (params.to.type === 'group') {
    return { ...base, scene: 'group', groupId: String(params.to.id), senderData: params.me.data };
  }
  if (params.to.type === 'cs') return { ...base, ...csFields(params.to, params.me.data) };
  return { ...base, scene: 'private', receiverId: String(params.to.id), read: false };
}

/** Checks a text message's text. */
export function validateText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw ParleyError.badRequest('textEmpty');
  if (text.length > LIMITS.textMaxLength) throw ParleyError.badRequest('textTooLong');
  return text;
}

/** Checks a custom message's type and payload: a non-empty string type; an object, string or number payload. */
export function validateCustom(type: unknown, payload: unknown): { type: string; payload: unknown } {
  if (typeof type !== 'string' || type.trim() === '') throw ParleyError.badRequest('typeEmpty');
  const empty =
    payload === undefined ||
    payload === null ||
    (typeof payload === 'string' && payload.trim() === '') ||
    (typeof payload === 'number' && !Number.isFinite(payload)) ||
    (isPlainObject(payload) && Object.keys(payload).length === 0) ||
    (typeof payload !== 'string' && typeof payload !== 'number' && !isPlainObject(payload));
  if (empty) throw ParleyError.badRequest('payloadEmpty');
  return { type, payload };
}

/** The `publishIM` params of a message; throws 400 when its payload is over the 3 KB wire limit. */
export function toPublishRequest(message: Message, to: MessageTarget, accessToken?: string): PublishImRequest {
  const p = JSON.stringify(message.payload);
  if (utf8ByteLength(p) > LIMITS.messageMaxBytes) throw ParleyError.badRequest('messageTooLong');
  const request: PublishImRequest = {
    mt: message.type,
    to: String(to.id),
    d: JSON.stringify(to.data ?? {}),
    p,
    t: message.scene,
    guid: message.messageId,
  };
  if (message.scene === 'cs') request.tid = message.teamId;
  if (accessToken) request.at = accessToken;
  return request;
}

function parseJson(text: string | null | undefined, fallback: unknown): unknown {
  if (text === undefined || text === null || text === '') return fallback;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Parses a JSON object; anything else (missing, invalid, not an object) is an empty object. */
export function parseObject(text: string | null | undefined): Record<string, unknown> {
  const value = parseJson(text, {});
  return isPlainObject(value) ? value : {};
}

/** A message in wire form as pushed, listed or checked by the schema (nullable optional fields). */
export type WireLike = Pick<WireImMessage, 's' | 'i' | 'ts' | 'mt'> &
  CsWireFields & {
    t?: WireImMessage['t'];
    r?: string;
    p?: string | null;
    d?: string | null;
    rc?: boolean;
    recaller?: { id: string; data?: unknown } | null;
  };

/** The scene (`t`) of a pushed message before it is parsed, or undefined when the push has none. */
export function sceneOf(payload: unknown): unknown {
  return isPlainObject(payload) ? payload.t : undefined;
}

/** Parses a sender's user data (`d`); {@link ImState.senderData} answers the same object again while it is unchanged. */
export type SenderDataReader = (senderId: string, raw: string | null | undefined) => Record<string, unknown>;

const parseSenderData: SenderDataReader = (_senderId, raw) => parseObject(raw);

/**
 * Builds a domain message from its wire form (a push, a history item or a conversation's last message).
 * `senderData` reads the group sender's data: by default, parsed for this message alone.
 */
export function fromWire(wire: WireLike, senderData: SenderDataReader = parseSenderData): Message {
  const recalled = wire.rc === true;
  const recaller: Recaller | undefined =
    recalled && wire.recaller
      ? { id: String(wire.recaller.id), data: (wire.recaller.data ?? {}) as Record<string, unknown> }
      : undefined;
  if (wire.t === 'cs') {
    const base = {
      messageId: wire.i,
      type: wire.mt,
      timestamp: wire.ts,
      senderId: String(wire.s),
      payload: parseJson(wire.p, null),
      status: 'success' as const,
      recalled,
    };
    return csFromWire(recaller ? { ...base, recaller } : base, wire);
  }
  // Built in one literal each: every member of a group turns every message of it into one of these.
  const message: Message =
    wire.t === 'group'
      ? {
          messageId: wire.i,
          type: wire.mt,
          timestamp: wire.ts,
          senderId: String(wire.s),
          payload: parseJson(wire.p, null),
          status: 'success',
          recalled,
          scene: 'group',
          groupId: String(wire.r),
          senderData: senderData(String(wire.s), wire.d),
        }
      : {
          messageId: wire.i,
          type: wire.mt,
          timestamp: wire.ts,
          senderId: String(wire.s),
          payload: parseJson(wire.p, null),
          status: 'success',
          recalled,
          scene: 'private',
          receiverId: String(wire.r),
          read: false,
        };
  if (recaller) message.recaller = recaller;
  return message;
}

/** A copy of `message` with `changes`, keeping its kind. */
export function withChanges<M extends Message>(message: M, changes: Partial<M>): M {
  return { ...message, ...changes };
}
