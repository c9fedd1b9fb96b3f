import { IdIndex } from '../../core/id-index.js';
import type { Message } from './types.js';

/**
 * The newest messages of one conversation, oldest first, at most `capacity`. It holds a contiguous window: every
 * message between its oldest and its newest is in it. Messages not yet acknowledged sort after the others, in the
 * order they were sent.
 */
export class HistoryCache {
  readonly #capacity: number;
  /** Oldest first; the first `#start` entries have been trimmed off and wait to be dropped in one go. */
  #messages: Message[] = [];
  #start = 0;
  /**
   * The same messages by id: a push is looked up here on every arrival (de-duplication), not scanned for, and a full
   * cache adds and drops an id for each one, which an {@link IdIndex} does without rebuilding itself.
   */
  readonly #byId = new IdIndex<Message>();
  /** True once the server said there is nothing older than the oldest message held. */
  complete = false;
  /** Read offsets by user id: everything up to the offset has been read by that user. */
  readonly offsets = new Map<string, number>();

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

  /** The message with this id, if held. */
  find(messageId: string): Message | undefined {
    return this.#byId.get(messageId);
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
    const held = this.#byId.get(message.messageId);
    if (held) {
      if (!replace) return false;
      // Replacements are of recent messages (an ack, a status): search from the newest end.
      this.#compact();
      this.#messages.splice(this.#messages.lastIndexOf(held), 1);
    }
    this.#byId.set(message.messageId, message);
    this.#insert(message);
    this.#trim();
    return true;
  }

  /** Adds an older page (from the server), skipping ids already held; `complete` when the server has no more. */
  prepend(page: readonly Message[], complete: boolean): void {
    this.#compact();
    const older = page.filter((m) => !this.#byId.has(m.messageId));
    this.#messages = [...older, ...this.#messages].sort(order);
    for (const m of older) this.#byId.set(m.messageId, m);
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
      this.#byId.set(next.messageId, next);
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
    for (const m of removed) this.#byId.delete(m.messageId);
    return removed;
  }

  /** Drops everything (after a gap too wide to bridge). */
  reset(): void {
    this.#messages = [];
    this.#start = 0;
    this.#byId.clear();
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
    this.#messages.splice(i, 0, message);
  }

  #trim(): void {
    const extra = this.size - this.#capacity;
    if (extra <= 0) return;
    for (let i = this.#start; i < this.#start + extra; i++) this.#byId.delete((this.#messages[i] as Message).messageId);
    this.#start += extra;
    this.complete = false;
    // Dropping from the front moves every message held: done once per many trims, not for every new message.
    if (this.#start >= TRIM_BATCH) this.#compact();
  }

  #compact(): void {
    if (this.#start === 0) return;
    this.#messages.splice(0, this.#start);
    this.#start = 0;
  }
}

/** How many trimmed messages may wait before the array is compacted. */
const TRIM_BATCH = 64;

function rank(m: Message): number {
  return m.status === 'success' ? 0 : 1;
}

/** Acknowledged messages by server time, then the rest by creation time. */
function order(a: Message, b: Message): number {
  return rank(a) - rank(b) || a.timestamp - b.timestamp;
}
