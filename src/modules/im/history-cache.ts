import type { Message } from './types.js';

/**
 * The newest messages of one conversation, oldest first, at most `capacity`. It holds a contiguous window: every
 * message between its oldest and its newest is in it. Messages not yet acknowledged sort after the others, in the
 * order they were sent.
 *
 * There is no index by id. A message arriving (every member of a busy group handles every message of it) is looked
 * up where it must be: among the unsent messages at the end (my own, not yet acknowledged), or, acknowledged, at
 * its server time, since timestamps are unique within a conversation and a message keeps the one the server gave it.
 * Usually it is newer than everything held, which the newest message alone tells. A map by id would be kept up for
 * every message added and dropped, and read on state that is cold by then, for lookups this order answers anyway.
 */
/** Deleted message times remembered per conversation: far more than a re-sync's held pushes could bring back. */
const DELETED_KEPT = 1000;

export class HistoryCache {
  readonly #capacity: number;
  /** Oldest first; the first `#start` entries have been trimmed off and wait to be dropped in one go. */
  #messages: Message[] = [];
  #start = 0;
  /** True once the server said there is nothing older than the oldest message held. */
  complete = false;
  /** Read offsets by user id: everything up to the offset has been read by that user. */
  readonly offsets = new Map<string, number>();
  /** Server times of messages I deleted, the latest last; kept through {@link reset}. Made at the first deletion. */
  #deleted: Set<number> | undefined;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** All messages held, oldest first. Do not mutate. */
  all(): readonly Message[] {
    this.#compact();
    return this.#messages;
  }

  /** Number of messages held. */
  get size(): number {
    return this.#messages.length - this.#start;
  }

  /**
   * Whether `message` (its id) is held, for one that may have arrived twice: among the unsent messages at the end,
   * or, if it is acknowledged, at its server time.
   */
  holds(message: Message): boolean {
    const messages = this.#messages;
    let end = messages.length;
    for (; end > this.#start; end--) {
      const m = messages[end - 1] as Message;
      if (m.status === 'success') break;
      if (m.messageId === message.messageId) return true;
    }
    if (message.status !== 'success' || end === this.#start) return false;
    const ts = message.timestamp;
    // Usually newer than everything held: the newest acknowledged message tells.
    if ((messages[end - 1] as Message).timestamp < ts) return false;
    let low = this.#start;
    let high = end - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const m = messages[mid] as Message;
      if (m.timestamp < ts) low = mid + 1;
      else if (m.timestamp > ts) high = mid - 1;
      else return m.messageId === message.messageId;
    }
    return false;
  }

  /** Acknowledged messages with these timestamps. */
  findByTimes(times: readonly number[]): Message[] {
    this.#compact();
    const wanted = new Set(times);
    return this.#messages.filter((m) => m.status === 'success' && wanted.has(m.timestamp));
  }

  /** The newest acknowledged timestamp, or 0. */
  newestSuccessTime(): number {
    for (let i = this.#messages.length - 1; i >= this.#start; i--) {
      const m = this.#messages[i] as Message;
      if (m.status === 'success') return m.timestamp;
    }
    return 0;
  }

  /** The oldest acknowledged timestamp, or 0. */
  oldestSuccessTime(): number {
    for (let i = this.#start; i < this.#messages.length; i++) {
      const m = this.#messages[i] as Message;
      if (m.status === 'success') return m.timestamp;
    }
    return 0;
  }

  /** The newest message, if any. */
  last(): Message | undefined {
    return this.size > 0 ? this.#messages.at(-1) : undefined;
  }

  /** Adds or replaces (by messageId) one message. Returns false if an identical id was held and `replace` is off. */
  put(message: Message, replace = true): boolean {
    // Replacements are of recent messages (an ack, a status): searched from the newest end.
    const at = this.#lastIndexOf(message.messageId);
    if (at >= 0) {
      if (!replace) return false;
      this.#messages.splice(at, 1);
    }
    this.add(message);
    return true;
  }

  /** Adds a message the caller knows is not held ({@link holds}, or an id just made). */
  add(message: Message): void {
    this.#insert(message);
    this.#trim();
  }

  /** Adds an older page (from the server), skipping ids already held; `complete` when the server has no more. */
  prepend(page: readonly Message[], complete: boolean): void {
    this.#compact();
    const held = new Set(this.#messages.map((m) => m.messageId));
    const older = page.filter((m) => !held.has(m.messageId));
    this.#messages = [...older, ...this.#messages].sort(order);
    if (complete) this.complete = true;
    this.#trim();
  }

  /** Replaces messages for which `change` returns a new object; returns the new ones. */
  update(change: (m: Message) => Message | undefined): Message[] {
    this.#compact();
    const changed: Message[] = [];
    this.#messages = this.#messages.map((m) => {
      const next = change(m);
      if (!next) return m;
      changed.push(next);
      return next;
    });
    return changed;
  }

  /** Removes the messages with these ids; returns the removed ones. */
  remove(messageIds: readonly string[]): Message[] {
    this.#compact();
    const ids = new Set(messageIds);
    const removed = this.#messages.filter((m) => ids.has(m.messageId));
    if (removed.length === 0) return removed;
    this.#messages = this.#messages.filter((m) => !ids.has(m.messageId));
    return removed;
  }

  /**
   * Remembers that I deleted the messages at these server times (here or on another device), so that a late copy of
   * one, a push held during a re-sync or replayed after a reconnect, is not taken for a new message. The latest
   * {@link DELETED_KEPT} are kept.
   */
  deleted(times: readonly number[]): void {
    const deleted = (this.#deleted ??= new Set());
    for (const ts of times) {
      deleted.delete(ts);
      deleted.add(ts);
    }
    for (const ts of deleted) {
      if (deleted.size <= DELETED_KEPT) break;
      deleted.delete(ts);
    }
  }

  /** Whether I deleted the message at this server time ({@link deleted}). */
  wasDeleted(ts: number): boolean {
    return this.#deleted !== undefined && this.#deleted.has(ts);
  }

  /** Drops everything (after a gap too wide to bridge). */
  reset(): void {
    this.#messages = [];
    this.#start = 0;
    this.complete = false;
  }

  /** Moves a user's read offset forward; returns true if it moved. */
  advanceOffset(userId: string, offset: number): boolean {
    if ((this.offsets.get(userId) ?? 0) >= offset) return false;
    this.offsets.set(userId, offset);
    return true;
  }

  #insert(message: Message): void {
    let i = this.#messages.length;
    while (i > this.#start && order(this.#messages[i - 1] as Message, message) > 0) i--;
    // Nearly always the newest: appended without splice's generic path.
    if (i === this.#messages.length) this.#messages.push(message);
    else this.#messages.splice(i, 0, message);
  }

  #trim(): void {
    const extra = this.size - this.#capacity;
    if (extra <= 0) return;
    // The trimmed slots let go of their messages now, so that the collector need not keep them until compaction.
    this.#messages.fill(RELEASED, this.#start, this.#start + extra);
    this.#start += extra;
    this.complete = false;
    // Dropping from the front moves every message held: done once per many trims, not for every new message.
    if (this.#start >= TRIM_BATCH) this.#compact();
  }

  #lastIndexOf(messageId: string): number {
    for (let i = this.#messages.length - 1; i >= this.#start; i--) {
      if ((this.#messages[i] as Message).messageId === messageId) return i;
    }
    return -1;
  }

  #compact(): void {
    if (this.#start === 0) return;
    this.#messages.splice(0, this.#start);
    this.#start = 0;
  }
}

/** What a trimmed slot holds until the array is compacted: no message. */
const RELEASED = undefined as unknown as Message;

/** How many trimmed messages may wait before the array is compacted. */
const TRIM_BATCH = 64;

function rank(m: Message): number {
  return m.status === 'success' ? 0 : 1;
}

/** Acknowledged messages by server time, then the rest by creation time. */
function order(a: Message, b: Message): number {
  return rank(a) - rank(b) || a.timestamp - b.timestamp;
}
