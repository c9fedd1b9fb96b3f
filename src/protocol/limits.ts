/**
 * Business constants and limits shared by the SDK and the server (product spec §9, reference §1-2).
 * Both ends enforce them; the server never trusts the client to have done so.
 */
export const LIMITS = {
  /** Longest user id, in characters. */
  userIdMaxLength: 60,
  /** Longest user event name, in characters (USER-1). */
  userEventNameMaxLength: 64,
  /** Largest user event data, in bytes of its JSON encoding (USER-1). */
  userEventDataMaxBytes: 4096,
  /** Largest user data, in bytes of its JSON encoding. */
  userDataMaxBytes: 300,
  /** Longest text message, in characters. */
  textMaxLength: 2500,
  /** Largest JSON payload of a message at send time, in bytes. */
  messageMaxBytes: 3072,
  /** Largest file for a file, image, audio or video message: 30 MiB. */
  fileMaxBytes: 31_457_280,
  /** History page size when none is given. */
  historyDefaultLimit: 10,
  /** Largest history page size. */
  historyMaxLimit: 30,
  /** Most messages in one recall or delete. */
  batchMaxMessages: 20,
  /** Most conversations in the conversation list. */
  conversationListMax: 200,
  /** Messages kept in the local cache per conversation. */
  conversationCacheMessages: 200,
  /** How many recent pushed message ids the client remembers to drop duplicates. */
  dedupeWindow: 300,
  /** Most items in an id array (group ids, user ids, channels). */
  idArrayMax: 300,
  /** Most groups one user is a member of (IM-28). */
  userGroupsMax: 1000,
  /** Most users, and most groups, whose presence one user subscribes to (PRES-7). */
  presenceSubscriptionsMax: 1000,
  /** Presence members returned when no limit is given. */
  presenceMembersDefault: 10,
  /** Most presence members returned. */
  presenceMembersMax: 300,
  /** Longest pub/sub message, in characters. */
  publishMessageMaxLength: 10_000,
  /** Longest notification title, in characters. */
  notificationTitleMaxLength: 32,
  /** Longest notification body, in characters. */
  notificationBodyMaxLength: 50,
  /** Most hosts a client rotates through. */
  maxHosts: 5,
} as const;

/** Kinds of request, each with its own resend and give-up timeouts. */
export type RequestKind = 'query' | 'request' | 'authorize';

/**
 * Resend (single) and give-up (total) timeouts per request kind, in milliseconds (reference §2 Requests).
 * An un-acked request is emitted again every `single` ms until `total` ms have passed.
 */
export const REQUEST_TIMEOUTS: Readonly<Record<RequestKind, { readonly single: number; readonly total: number }>> = {
  query: { single: 2500, total: 12_000 },
  request: { single: 1700, total: 12_000 },
  authorize: { single: 1700, total: 86_400_000 },
};

/**
 * Typing indicators (TYPING-1..TYPING-3): a client tells it is typing at most once every `refreshMs` per conversation,
 * and that it stopped after `idleMs` without a keystroke; a typer not heard from for `expireMs` has stopped.
 */
export const TYPING = {
  refreshMs: 3_000,
  idleMs: 5_000,
  expireMs: 6_000,
} as const;

/** Reconnect schedule: the delay grows from `initialDelay` by `factor` per attempt up to `maxDelay`, ± `jitter`. */
export const RECONNECT = {
  initialDelay: 1000,
  maxDelay: 5000,
  factor: 2,
  jitter: 0.5,
  /** How long one connection attempt may take before it counts as failed. */
  connectTimeout: 20_000,
} as const;
