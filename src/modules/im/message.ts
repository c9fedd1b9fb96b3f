import {
  LIMITS,
  utf8ByteLength,
  type PublishImRequest,
  type Recaller,
  type WireImMessage,
  type WireNotification,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import { timeOrderedHexId } from '../../core/ids.js';
import { csFields, csFromWire, type CsWireFields } from './cs-message.js';
import type { Message, MessageTarget, PrivateMessage } from './types.js';

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
  // Product spec §5: the target's id is never the sender's own, whatever the scene (IMC-1).
  if (String(id) === me) throw ParleyError.badRequest('toSelf');
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
  const { type, payload, to, me, now } = params;
  // Chat messages in one literal each, in copyMessage's order (one layout per scene), with no spread of shared fields
  // and no intermediate objects: a few microseconds less per message sent over a thousand clients (sdk-cost).
  if (to.type === 'group') {
    return {
      messageId: timeOrderedHexId(now),
      type,
      timestamp: now,
      senderId: me.id,
      payload,
      status: 'new',
      recalled: false,
      scene: 'group',
      groupId: String(to.id),
      senderData: me.data,
    };
  }
  if (to.type === 'private') {
    return {
      messageId: timeOrderedHexId(now),
      type,
      timestamp: now,
      senderId: me.id,
      payload,
      status: 'new',
      recalled: false,
      scene: 'private',
      receiverId: String(to.id),
      read: false,
    };
  }
  const base = {
    messageId: timeOrderedHexId(now),
    type,
    timestamp: now,
    senderId: me.id,
    payload,
    status: 'new' as const,
    recalled: false,
  };
  return { ...base, ...csFields(to, me.data) };
}

/**
 * A copy of a chat message in the one layout its scene has throughout the SDK: the properties {@link fromWire} gives
 * a pushed message, in the same order. A busy client holds thousands of messages (pushed, sent, copied into the
 * cache); when all of one scene share one hidden class, the code that sorts, finds and reads them stays monomorphic.
 * Each scene's fields are written out in one literal, as in `fromWire`: a spread of shared fields would make another
 * hidden class. Customer-service messages are copied as they are. Properties an app added to the object are not
 * copied.
 */
export function copyMessage(m: Message): Message {
  let copy: Message;
  if (m.scene === 'group') {
    copy = {
      messageId: m.messageId,
      type: m.type,
      timestamp: m.timestamp,
      senderId: m.senderId,
      payload: m.payload,
      status: m.status,
      recalled: m.recalled,
      scene: 'group',
      groupId: m.groupId,
      senderData: m.senderData,
    };
  } else if (m.scene === 'private') {
    copy = {
      messageId: m.messageId,
      type: m.type,
      timestamp: m.timestamp,
      senderId: m.senderId,
      payload: m.payload,
      status: m.status,
      recalled: m.recalled,
      scene: 'private',
      receiverId: m.receiverId,
      read: m.read,
    };
  } else return { ...m };
  if (m.recaller !== undefined) copy.recaller = m.recaller;
  return copy;
}

/** A private message of mine that the other user has read, in its layout. */
export function readByOther(m: PrivateMessage): PrivateMessage {
  const copy = copyMessage(m) as PrivateMessage;
  copy.read = true;
  return copy;
}

/** A message recalled by `recaller`, in its layout. */
export function recalledBy(m: Message, recaller: Recaller): Message {
  const copy = copyMessage(m);
  copy.recalled = true;
  copy.recaller = recaller;
  return copy;
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

/** The `publishIM` params of a message; throws 400 when its type and payload are over the 3 KB wire limit. */
export function toPublishRequest(
  message: Message,
  to: MessageTarget,
  accessToken?: string,
  notification?: WireNotification,
): PublishImRequest {
  const p = JSON.stringify(message.payload);
  // IM-27: the type travels and is stored with the payload, so the 3 KB counts both.
  if (utf8ByteLength(message.type) + utf8ByteLength(p) > LIMITS.messageMaxBytes) {
    throw ParleyError.badRequest('messageTooLong');
  }
  const request: PublishImRequest = {
    mt: message.type,
    to: String(to.id),
    d: JSON.stringify(to.data ?? {}),
    p,
    t: message.scene,
    guid: message.messageId,
  };
  if (message.scene === 'cs') request.tid = message.teamId;
  if (notification) request.nt = notification;
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
  // Built in one literal each: every member of a group turns every message of it into one of these. The same
  // properties in the same order as copyMessage, so that pushed, sent and copied messages share one layout.
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
