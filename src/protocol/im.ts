import * as z from 'zod/mini';
import { MESSAGES } from './codes.js';
import { LIMITS } from './limits.js';
import { notificationSchema, type PushedNotification } from './pubsub.js';

/**
 * IM on the wire (reference §2, and the reference client's exact reading of each field). Message fields are
 * abbreviated on the wire: `t` scene, `r` receiver (user, group or team), `s` sender, `i` messageId, `ts` server
 * timestamp, `mt` type, `p` payload as a JSON string, `d` sender data as a JSON string (group and cs).
 */

/** Conversation kinds: private chat, group chat, customer service. */
export const SCENES = ['private', 'group', 'cs'] as const;
/** A conversation kind. */
export type Scene = (typeof SCENES)[number];

/** A user, group or team id: the wire carries strings; numbers are accepted and turned into strings. */
export const wireIdSchema = z.pipe(
  z.union([z.string().check(z.trim(), z.minLength(1, MESSAGES.idEmpty)), z.number()], { error: MESSAGES.idEmpty }),
  z.transform((v) => String(v)),
);

const sceneSchema = z.enum(SCENES, { error: MESSAGES.sceneNotSupported });
const timestampSchema = z.number().check(z.nonnegative(), z.int());
const optionalTeamId = z.optional(z.nullable(wireIdSchema));

/** Who recalled a message. */
export interface Recaller {
  id: string;
  data: Record<string, unknown>;
}

/** A message as pushed in `imMessage` and listed by `IM_HISTORY` and `imLastConversations`. */
export interface WireImMessage {
  t: Scene;
  r: string;
  s: string;
  i: string;
  ts: number;
  mt: string;
  p: string;
  d?: string;
  tid?: string;
  accepted?: boolean;
  sessionId?: number;
  rc?: boolean;
  recaller?: Recaller;
  /** IM-26: the sender's notification, for native clients; live pushes only, history does not keep it. */
  nt?: PushedNotification;
}

/** Checks pushed messages on the client; the server is trusted but a bad push must not break the SDK. */
export const wireImMessageSchema = z.looseObject({
  t: sceneSchema,
  r: wireIdSchema,
  s: wireIdSchema,
  i: z.string().check(z.minLength(1)),
  ts: timestampSchema,
  mt: z.string().check(z.minLength(1)),
  p: z.optional(z.string()),
  d: z.optional(z.nullable(z.string())),
  tid: optionalTeamId,
  accepted: z.optional(z.boolean()),
  sessionId: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  rc: z.optional(z.boolean()),
  recaller: z.optional(z.nullable(z.looseObject({ id: wireIdSchema, data: z.optional(z.unknown()) }))),
});

/**
 * A pushed message as {@link wireImMessageSchema} reads it, its own fields only: {@link WireImMessage}, with the
 * fields a server may leave out or send as null.
 */
export type ReadWireImMessage = Omit<
  WireImMessage,
  'p' | 'd' | 'tid' | 'accepted' | 'sessionId' | 'rc' | 'recaller'
> & {
  p?: string | undefined;
  d?: string | null | undefined;
  tid?: string | null | undefined;
  accepted?: boolean | undefined;
  sessionId?: string | number | null | undefined;
  rc?: boolean | undefined;
  recaller?: { id: string; data?: unknown; [key: string]: unknown } | null | undefined;
};

/**
 * {@link wireImMessageSchema} written out by hand for the SDK's hottest path, every pushed message (each member
 * of a busy group gets every message of it): the same inputs accepted, the same output on the schema's fields
 * (unknown ones are left out), without the schema's allocations. A property test holds the two equal.
 */
export function readWireImMessage(value: unknown): ReadWireImMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const { t, i, ts, mt, p, d, accepted, sessionId, rc } = v;
  if (t !== 'private' && t !== 'group' && t !== 'cs') return undefined;
  const r = readWireId(v.r);
  const s = readWireId(v.s);
  if (r === undefined || s === undefined) return undefined;
  if (typeof i !== 'string' || i.length === 0 || typeof mt !== 'string' || mt.length === 0) return undefined;
  if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) return undefined;
  if (p !== undefined && typeof p !== 'string') return undefined;
  if (d !== undefined && d !== null && typeof d !== 'string') return undefined;
  if (accepted !== undefined && typeof accepted !== 'boolean') return undefined;
  if (rc !== undefined && typeof rc !== 'boolean') return undefined;
  if (
    sessionId !== undefined &&
    sessionId !== null &&
    typeof sessionId !== 'string' &&
    !(typeof sessionId === 'number' && Number.isFinite(sessionId))
  ) {
    return undefined;
  }
  const hasP = 'p' in v;
  const hasD = 'd' in v;
  // A pushed chat message has both: one literal then, not two properties added after it (each a new hidden class,
  // and room for them allocated apart from the object).
  const message: ReadWireImMessage = hasP && hasD ? { t, r, s, i, ts, mt, p, d } : { t, r, s, i, ts, mt };
  if (hasP && !hasD) message.p = p;
  if (hasD && !hasP) message.d = d;
  if ('accepted' in v) message.accepted = accepted;
  if ('sessionId' in v) message.sessionId = sessionId;
  if ('rc' in v) message.rc = rc;
  if ('tid' in v) {
    const tid = v.tid === undefined || v.tid === null ? v.tid : readWireId(v.tid);
    if (tid === undefined && v.tid !== undefined) return undefined;
    message.tid = tid;
  }
  if ('recaller' in v) {
    const recaller = v.recaller;
    if (recaller === undefined || recaller === null) message.recaller = recaller;
    else {
      if (typeof recaller !== 'object' || Array.isArray(recaller)) return undefined;
      const id = readWireId((recaller as { id?: unknown }).id);
      if (id === undefined) return undefined;
      message.recaller = { ...(recaller as Record<string, unknown>), id };
    }
  }
  return message;
}

/** {@link wireIdSchema} by hand: a non-blank string (trimmed) or a finite number, as a string. */
function readWireId(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed.length > 0 ? trimmed : undefined;
  }
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** `publishIM`: send a message. The ack's content is {@link PublishImAck}. */
export const publishImSchema = z.looseObject({
  mt: z.string({ error: MESSAGES.typeEmpty }).check(z.trim(), z.minLength(1, MESSAGES.typeEmpty)),
  to: wireIdSchema,
  /** The receiver's or conversation's data, JSON. */
  d: z.optional(z.nullable(z.string())),
  /** The payload, JSON. */
  p: z
    .string({ error: MESSAGES.payloadEmpty })
    .check(z.minLength(1, MESSAGES.payloadEmpty), z.maxLength(LIMITS.messageMaxBytes, MESSAGES.messageTooLong)),
  t: sceneSchema,
  tid: optionalTeamId,
  /** The client's messageId: the idempotency key. */
  guid: z.string().check(z.minLength(1), z.maxLength(64)),
  /** IM-26: a notification for native clients, the rules of a pub/sub publish's (title 32, body 50). */
  nt: z.optional(z.nullable(notificationSchema)),
  at: z.optional(z.nullable(z.string())),
  retried: z.optional(z.number()),
});
/** A `publishIM` request. */
export type PublishImRequest = z.infer<typeof publishImSchema>;

/**
 * {@link publishImSchema} by hand, for the requests every client sends: what the schema makes of `value` when it
 * is a plain object whose fields are all of the usual kinds, or undefined when it is not (then the schema decides,
 * and words the error). Every send goes through it; the schema costs about a microsecond more a request.
 */
export function readPublishIm(value: unknown): PublishImRequest | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return;
  const v = value as Record<string, unknown>;
  const { mt, to, d, p, t, tid, guid, nt, at, retried } = v;
  if (typeof mt !== 'string' || typeof p !== 'string' || typeof guid !== 'string') return;
  const type = mt.trim();
  if (type.length === 0 || p.length === 0 || p.length > LIMITS.messageMaxBytes) return;
  if (guid.length === 0 || guid.length > 64) return;
  if (t !== 'private' && t !== 'group' && t !== 'cs') return;
  const target = readWireId(to);
  if (target === undefined) return;
  if (d !== undefined && d !== null && typeof d !== 'string') return;
  if (at !== undefined && at !== null && typeof at !== 'string') return;
  if (nt !== undefined && nt !== null) return;
  if (retried !== undefined && !(typeof retried === 'number' && Number.isFinite(retried))) return;
  if (Object.hasOwn(v, '__proto__')) return;
  const request = { ...v, mt: type, to: target } as PublishImRequest;
  if (tid !== undefined && tid !== null) {
    const team = readWireId(tid);
    if (team === undefined) return;
    request.tid = team;
  }
  return request;
}
/** What a successful `publishIM` acks with. */
export interface PublishImAck {
  timestamp: number;
  sessionId?: number;
  /**
   * `false` when the sender of a group message is not one of the group's members (IM-22): the message reached the
   * members, and the group is not the sender's to list or read. Absent otherwise.
   */
  member?: false;
}

/** `IM_HISTORY`: the newest `limit` messages older than `lastTimestamp` (exclusive), oldest first. */
export const imHistorySchema = z.looseObject({
  id: wireIdSchema,
  scene: sceneSchema,
  lastTimestamp: z.optional(z.nullable(timestampSchema)),
  limit: z.optional(z.nullable(z.int().check(z.gte(1)))),
  teamId: optionalTeamId,
});
/** A read offset: everything up to `offset` (a message timestamp) has been read by `userId`. */
export interface UserOffset {
  userId: string;
  offset: number;
}
/** What `IM_HISTORY` acks with. */
export interface ImHistoryAck {
  messages: WireImMessage[];
  userOffsets: UserOffset[];
}

/** `IM_HISTORY_CHANGE`: what changed in `[min, after]` while the client was away. */
export const imHistoryChangeSchema = z.looseObject({
  scene: sceneSchema,
  id: wireIdSchema,
  after: timestampSchema,
  min: timestampSchema,
  teamId: optionalTeamId,
});
/** What `IM_HISTORY_CHANGE` acks with. All three arrays are required by the reference client. */
export interface ImHistoryChangeAck {
  userOffsets: UserOffset[];
  deletedMessageTimes: number[];
  recalledMessages: Array<{ recaller: Recaller; times: number[] }>;
}

/** `IM_MARK_AS_READ`: everything up to `lastTimestamp` in the conversation is read by me. */
export const imMarkAsReadSchema = z.looseObject({
  id: wireIdSchema,
  scene: sceneSchema,
  lastTimestamp: timestampSchema,
  teamId: optionalTeamId,
});

/** `IM_TYPING` (TYPING-1): whether I am typing in a private or group chat. */
export const imTypingSchema = z.looseObject({
  scene: sceneSchema,
  targetId: wireIdSchema,
  typing: z.boolean({ error: MESSAGES.typingNotBoolean }),
  /** Scene `cs`: the team, when an agent names the customer in `targetId` (TYPING-4). */
  teamId: optionalTeamId,
});

/**
 * The `IM_TYPING` push (TYPING-2, TYPING-4): `userId` is typing, or stopped, in a private chat with the receiver
 * (`targetId` is then `userId`), in the group `targetId`, or in a customer-service conversation as the receiver names
 * it (the team for a customer, the customer for an agent). `userData` is JSON.
 */
export interface WireTyping {
  scene: Scene;
  targetId: string;
  /** Scene `cs`: the team (TYPING-4). */
  teamId?: string;
  userId: string;
  userData: string;
  typing: boolean;
}

const timesSchema = z
  .array(timestampSchema, { error: MESSAGES.messagesEmpty })
  .check(z.maxLength(LIMITS.batchMaxMessages, MESSAGES.tooManyMessages));

/** `IM_DELETE_MESSAGE` and `IM_RECALL_MESSAGE`: messages of one conversation, by timestamp. */
export const imMessageTimesSchema = z.looseObject({
  scene: sceneSchema,
  targetId: wireIdSchema,
  times: timesSchema,
  teamId: optionalTeamId,
});

/** One entry of the `imLastConversations` ack. `unread` is Parley's exact count; the reference ignores it. */
export interface WireConversation {
  t: Scene;
  top: boolean;
  /** Conversation data (friend, group, team or customer), JSON. */
  d: string;
  userOffsets: UserOffset[];
  lmsg: WireImMessage;
  unread: number;
}

/** `topConversation`. */
export const topConversationSchema = z.looseObject({
  type: sceneSchema,
  top: z.boolean({ error: MESSAGES.topNotBoolean }),
  targetId: wireIdSchema,
  teamId: optionalTeamId,
});
/** `removeConversation` and `imData`. */
export const conversationRefSchema = z.looseObject({
  type: sceneSchema,
  targetId: wireIdSchema,
  teamId: optionalTeamId,
});

/** An id array: non-empty, no blanks, no duplicates, at most 300 (product spec §5). */
export const idArraySchema = z.array(z.union([z.string(), z.number()]), { error: MESSAGES.idArrayEmpty }).check(
  z.minLength(1, MESSAGES.idArrayEmpty),
  z.maxLength(LIMITS.idArrayMax, MESSAGES.idArrayTooLong),
  z.refine((ids) => ids.every((id) => String(id).trim() !== ''), MESSAGES.idArrayBlankItem),
  z.refine((ids) => new Set(ids.map(String)).size === ids.length, MESSAGES.idArrayDuplicate),
);

/** `subscribeGroups`. */
export const subscribeGroupsSchema = z.looseObject({
  groupIds: idArraySchema,
  at: z.optional(z.nullable(z.string())),
});
/** `unsubscribeGroup`, `unsubscribeGroupPresence`, `imGroupHereNow`, `imGroupOnlineCount`. */
export const groupRefSchema = z.looseObject({ groupId: wireIdSchema });
/** `subscribeUserPresence`, `imHereNow`. */
export const userIdsSchema = z.looseObject({ userIds: idArraySchema });
/** `unsubscribeUserPresence`. */
export const userRefSchema = z.looseObject({ userId: wireIdSchema });
/** `subscribeGroupPresence`. */
export const groupIdsSchema = z.looseObject({ groupIds: idArraySchema });
/** `MD_CMD`: member data for ids; acks `[{id, data}]` with data objects. */
export const memberDataSchema = z.looseObject({
  name: z.literal('GET'),
  data: z.looseObject({ ids: idArraySchema }),
});
/** One online user, as `imHereNow` and `imGroupHereNow` ack them. */
export interface WireHereNowUser {
  userId: string;
  /** JSON. */
  userData: string;
}

/** `imAck`: the client received a pushed message. */
export const imAckSchema = z.looseObject({ publishGuid: z.string() });

/** `IM_MSG_READ` push: `markerId` has read everything up to `time`. */
export interface WireMessageRead {
  scene: Scene;
  /** The id the marker sent: for private, the other user. */
  targetId: string;
  markerId: string;
  teamId?: string;
  time: number;
}
/** `IM_MSG_DELETED` push: `deleterId` deleted these messages, for themselves (sent to their other devices). */
export interface WireMessageDeleted {
  scene: Scene;
  targetId: string;
  deleterId: string;
  times: number[];
}
/**
 * `IM_CONVERSATION_CHANGED` push (IM-32): one of my conversations pinned or unpinned (`top`), or removed from my list
 * (`removed`), on another device of mine. `targetId` is the other user, the group, or the team or customer of a
 * customer-service conversation (`teamId` beside it for an agent's).
 */
export interface WireConversationChanged {
  type: Scene;
  targetId: string;
  teamId?: string;
  top?: boolean;
  removed?: true;
}
/** `IM_MSG_RECALLED` push. `conversationId` is the group id, or for private chat the two user ids joined by `:`. */
export interface WireMessageRecalled {
  scene: Scene;
  conversationId: string;
  recaller: Recaller;
  times: number[];
}
/** `userPresence` push: `c` is the JSON of `{events}`. */
export interface WirePresenceEvent {
  userId: string;
  /** JSON. */
  userData: string;
  time: number;
  action: 'online' | 'offline' | 'join' | 'leave';
}
/** `userPresence` / `groupPresence` push body before JSON encoding into `c`. */
export interface WirePresenceBody {
  events: WirePresenceEvent[];
  groupId?: string;
  userAmount?: number;
}

/** The private conversation id of the reference: the two ids, the greater (by localeCompare) first. */
export function privateConversationId(a: string, b: string): string {
  return a.localeCompare(b) > 0 ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * What a Parley server says about IM in the authorize reply (`mD.GIM`). `ack: false`: it does not use `imAck`,
 * so Parley's SDK does not send one per received message (the reference client sends them regardless). `a: true`:
 * the module is active, which the reference client needs to reload an agent's pending customer-service conversations
 * on `RECONNECTED` (AUTH-8).
 */
export interface ImModuleData {
  a?: boolean;
  ack?: boolean;
}

/** Whether the server wants an `imAck` for each received message: yes unless it said `ack: false`. */
export function wantsImAck(moduleData: { GIM?: unknown }): boolean {
  const gim = moduleData.GIM as ImModuleData | undefined;
  return gim?.ack !== false;
}
