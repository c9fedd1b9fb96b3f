import { HEX_ID_WORDS, packHexId, sameHexId, unpackHexId } from '../../core/hex-ids.js';
import type { Message } from './types.js';

/**
 * The newest messages of one conversation, oldest first, at most `capacity`. It holds a contiguous window: every
 * message between its oldest and its newest is in it. Messages not yet acknowledged sort after the others, in the
 * order they were sent.
 *
 * Acknowledged messages are packed: their fields are kept in columns (server times in a typed array, ids of 32
 * hexadecimal digits as words in another, the other strings and the payload in one array, six places a message),
 * and a message object is made again when one is read. Messages read from the cache are equal to those put in, not
 * the same objects. A client lives with full caches: a thousand messages or more in one process and, in a test or a
 * bot, a thousand clients' in one. A message object kept in the cache outlived the young generation, so that every
 * message received was copied into the old one and left there for a full collection to take back, and every full
 * collection marked and moved the objects of every message held, its id and its time's number included. Packed, a
 * message keeps only its payload as an object of its own, and a text message only its text. Messages in another
 * layout (customer service, recalled with a recaller) are packed whole: the column holds the object. Unsent messages,
 * a few of mine, stay objects.
 *
 * The columns are a ring: the oldest message leaves by moving the start, and no message is moved until the ring is
 * full and grows (to twice its length, up to the first power of two past the capacity).
 *
 * There is no index by id. A message arriving (every member of a busy group handles every message of it) is looked
 * up where it must be: among the unsent messages at the end (my own, not yet acknowledged), or, acknowledged, at
 * its server time, since timestamps are unique within a conversation and a message keeps the one the server gave it.
 * Usually it is newer than everything held, which the newest message alone tells. A map by id would be kept up for
 * every message added and dropped, and read on state that is cold by then, for lookups this order answers anyway.
 */
export class HistoryCache {
  readonly #capacity: number;
  /** True once the server said there is nothing older than the oldest message held. */
  complete = false;
  /** Read offsets by user id: everything up to the offset has been read by that user. */
  readonly offsets = new Map<string, number>();
  /** Server times of messages I deleted, the latest last; kept through {@link reset}. Made at the first deletion. */
  #deleted: Set<number> | undefined;

  /** The messages not yet acknowledged, as objects, in the order they were sent: newer than every packed one. */
  #unsent: Message[] = [];
  /**
   * The packed messages, oldest first, are the ring's positions `#start` to `#end`; position `k` is slot
   * `k & #mask` of the columns.
   */
  #start = 0;
  #end = 0;
  /** The columns' length minus one; a power of two. */
  #mask = INITIAL_SLOTS - 1;
  /** Each slot's server time. */
  #times = new Float64Array(INITIAL_SLOTS);
  /** Each slot's flags ({@link Flag}). */
  #flags = new Uint8Array(INITIAL_SLOTS);
  /** Each slot's id as words ({@link HEX_ID_WORDS} a slot), when it is one of 32 hexadecimal digits. */
  #ids = new Int32Array(INITIAL_SLOTS * HEX_ID_WORDS);
  /**
   * Each slot's references, {@link STRIDE} a slot: id (unless it is in `#ids`), type, sender, payload, group or
   * receiver, sender data (a group message's). A message packed whole is in the first place, and the others are
   * empty. Slots not in use hold nothing.
   */
  #refs: unknown[] = new Array<unknown>(INITIAL_SLOTS * STRIDE).fill(undefined);

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** All messages held, oldest first: a new array of new objects, equal to those put in. */
  all(): Message[] {
    const all: Message[] = [];
    for (let k = this.#start; k < this.#end; k++) all.push(this.#unpack(k));
    for (const m of this.#unsent) all.push(m);
    return all;
  }

  /** Number of messages held. */
  get size(): number {
    return this.#end - this.#start + this.#unsent.length;
  }

  /**
   * Whether `message` (its id) is held, for one that may have arrived twice: among the unsent messages at the end,
   * or, if it is acknowledged, at its server time.
   */
  holds(message: Message): boolean {
    const id = message.messageId;
    if (message.status !== 'success') return this.#unsent.some((m) => m.messageId === id);
    for (const m of this.#unsent) if (m.messageId === id) return true;
    const ts = message.timestamp;
    const times = this.#times;
    const mask = this.#mask;
    // Usually newer than everything held: the newest message tells.
    if (this.#end === this.#start || (times[(this.#end - 1) & mask] as number) < ts) return false;
    let low = this.#start;
    let high = this.#end - 1;
    while (low <= high) {
      const mid = low + Math.floor((high - low) / 2);
      const at = times[mid & mask] as number;
      if (at < ts) low = mid + 1;
      else if (at > ts) high = mid - 1;
      else return this.#isId(mid, id);
    }
    return false;
  }

  /** Acknowledged messages with these timestamps. */
  findByTimes(times: readonly number[]): Message[] {
    const wanted = new Set(times);
    const found: Message[] = [];
    for (let k = this.#start; k < this.#end; k++) {
      if (wanted.has(this.#times[k & this.#mask] as number)) found.push(this.#unpack(k));
    }
    return found;
  }

  /** The messages not yet acknowledged, in the order they were sent. */
  unsent(): Message[] {
    return [...this.#unsent];
  }

  /** The newest acknowledged timestamp, or 0. */
  newestSuccessTime(): number {
    return this.#end > this.#start ? (this.#times[(this.#end - 1) & this.#mask] as number) : 0;
  }

  /** The oldest acknowledged timestamp, or 0. */
  oldestSuccessTime(): number {
    return this.#end > this.#start ? (this.#times[this.#start & this.#mask] as number) : 0;
  }

  /** The newest message, if any. */
  last(): Message | undefined {
    if (this.#unsent.length > 0) return this.#unsent.at(-1);
    return this.#end > this.#start ? this.#unpack(this.#end - 1) : undefined;
  }

  /**
   * Acknowledged messages from others, not recalled, newer than `offset`: read from the newest back to the offset
   * only, which after a send or a read mark is a message or two, not the whole cache.
   */
  countUnread(offset: number, me: string): number {
    let unread = 0;
    const mask = this.#mask;
    for (let k = this.#end - 1; k >= this.#start; k--) {
      const slot = k & mask;
      if ((this.#times[slot] as number) <= offset) break;
      const flags = this.#flags[slot] as number;
      const base = slot * STRIDE;
      if (flags & Flag.Whole) {
        const m = this.#refs[base] as Message;
        if (m.senderId !== me && !m.recalled) unread += 1;
      } else if (this.#refs[base + 2] !== me && !(flags & Flag.Recalled)) {
        unread += 1;
      }
    }
    return unread;
  }

  /** Adds or replaces (by messageId) one message. Returns false if an identical id was held and `replace` is off. */
  put(message: Message, replace = true): boolean {
    // Replacements are of recent messages (an ack, a status): searched from the newest end.
    const id = message.messageId;
    const unsent = this.#unsent;
    let at = unsent.length - 1;
    while (at >= 0 && (unsent[at] as Message).messageId !== id) at--;
    if (at >= 0) {
      if (!replace) return false;
      unsent.splice(at, 1);
    } else {
      const k = this.#positionOf(id);
      if (k >= 0) {
        if (!replace) return false;
        this.#removePacked((position) => position === k);
      }
    }
    this.add(message);
    return true;
  }

  /** Adds a message the caller knows is not held ({@link holds}, or an id just made). */
  add(message: Message): void {
    if (message.status !== 'success') {
      const unsent = this.#unsent;
      let i = unsent.length;
      while (i > 0 && (unsent[i - 1] as Message).timestamp > message.timestamp) i--;
      unsent.splice(i, 0, message);
    } else if (this.#end > this.#start && message.timestamp < this.#times[(this.#end - 1) & this.#mask]!) {
      // Older than the newest packed message (pushes stored in this order on two nodes): packed in its place.
      this.#insertPacked(message);
    } else {
      this.#write(this.#position(), message);
    }
    this.#trim();
  }

  /** Adds an older page (from the server), skipping ids already held; `complete` when the server has no more. */
  prepend(page: readonly Message[], complete: boolean): void {
    const held = this.all();
    const ids = new Set(held.map((m) => m.messageId));
    const older = page.filter((m) => !ids.has(m.messageId));
    this.#store([...older, ...held].sort(order));
    if (complete) this.complete = true;
    this.#trim();
  }

  /** Replaces messages for which `change` returns a new object; returns the new ones. */
  update(change: (m: Message) => Message | undefined): Message[] {
    const changed: Message[] = [];
    let moved = false;
    for (let k = this.#start; k < this.#end; k++) {
      const next = change(this.#unpack(k));
      if (!next) continue;
      changed.push(next);
      // A recall or a read keeps the message's place; anything else is put in its place below.
      if (next.status === 'success' && next.timestamp === this.#times[k & this.#mask]) this.#write(k, next);
      else moved = true;
    }
    const unsent = this.#unsent;
    for (let i = 0; i < unsent.length; i++) {
      const m = unsent[i] as Message;
      const next = change(m);
      if (!next) continue;
      changed.push(next);
      moved ||= next.status === 'success' || next.timestamp !== m.timestamp;
      unsent[i] = next;
    }
    if (moved) {
      const byId = new Map(changed.map((m) => [m.messageId, m]));
      this.#store(
        this.all()
          .map((m) => byId.get(m.messageId) ?? m)
          .sort(order),
      );
    }
    return changed;
  }

  /** Removes the messages with these ids; returns the removed ones. */
  remove(messageIds: readonly string[]): Message[] {
    const ids = new Set(messageIds);
    const removed: Message[] = [];
    this.#removePacked((k) => {
      if (!ids.has(this.#idAt(k))) return false;
      removed.push(this.#unpack(k));
      return true;
    });
    if (this.#unsent.some((m) => ids.has(m.messageId))) {
      for (const m of this.#unsent) if (ids.has(m.messageId)) removed.push(m);
      this.#unsent = this.#unsent.filter((m) => !ids.has(m.messageId));
    }
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
    this.#store([]);
    this.complete = false;
  }

  /** Moves a user's read offset forward; returns true if it moved. */
  advanceOffset(userId: string, offset: number): boolean {
    if ((this.offsets.get(userId) ?? 0) >= offset) return false;
    this.offsets.set(userId, offset);
    return true;
  }

  /** Drops the oldest messages past the capacity. */
  #trim(): void {
    let extra = this.size - this.#capacity;
    if (extra <= 0) return;
    this.complete = false;
    // The slots let go of what they hold now: a payload or a message is not kept past its place in the window.
    for (; extra > 0 && this.#end > this.#start; extra--) this.#clear(this.#start++);
    if (extra > 0) this.#unsent.splice(0, extra);
  }

  /** A new position after the newest packed message, made room for. */
  #position(): number {
    if (this.#end - this.#start > this.#mask) this.#grow();
    return this.#end++;
  }

  /** Makes the columns twice as long, the packed messages from their first slot on. */
  #grow(): void {
    const length = (this.#mask + 1) * 2;
    const times = new Float64Array(length);
    const flags = new Uint8Array(length);
    const ids = new Int32Array(length * HEX_ID_WORDS);
    const refs = new Array<unknown>(length * STRIDE).fill(undefined);
    const count = this.#end - this.#start;
    for (let i = 0; i < count; i++) {
      const slot = (this.#start + i) & this.#mask;
      times[i] = this.#times[slot] as number;
      flags[i] = this.#flags[slot] as number;
      ids.set(this.#ids.subarray(slot * HEX_ID_WORDS, (slot + 1) * HEX_ID_WORDS), i * HEX_ID_WORDS);
      for (let r = 0; r < STRIDE; r++) refs[i * STRIDE + r] = this.#refs[slot * STRIDE + r];
    }
    this.#times = times;
    this.#flags = flags;
    this.#ids = ids;
    this.#refs = refs;
    this.#mask = length - 1;
    this.#start = 0;
    this.#end = count;
  }

  /** Writes `m` (acknowledged) at position `k`, its fields in columns when it has a chat message's layout. */
  #write(k: number, m: Message): void {
    const slot = k & this.#mask;
    const refs = this.#refs;
    const base = slot * STRIDE;
    if (m.scene === 'group' && m.recaller === undefined) {
      const hex = packHexId(m.messageId, this.#ids, slot * HEX_ID_WORDS);
      const text = textOf(m.payload);
      this.#flags[slot] =
        (m.recalled ? Flag.Recalled : 0) | (hex ? Flag.HexId : 0) | (text === undefined ? 0 : Flag.Text);
      refs[base] = hex ? undefined : m.messageId;
      refs[base + 1] = m.type;
      refs[base + 2] = m.senderId;
      refs[base + 3] = text ?? m.payload;
      refs[base + 4] = m.groupId;
      refs[base + 5] = m.senderData;
    } else if (m.scene === 'private' && m.recaller === undefined) {
      const hex = packHexId(m.messageId, this.#ids, slot * HEX_ID_WORDS);
      const text = textOf(m.payload);
      this.#flags[slot] =
        Flag.Private |
        (m.recalled ? Flag.Recalled : 0) |
        (m.read ? Flag.Read : 0) |
        (hex ? Flag.HexId : 0) |
        (text === undefined ? 0 : Flag.Text);
      refs[base] = hex ? undefined : m.messageId;
      refs[base + 1] = m.type;
      refs[base + 2] = m.senderId;
      refs[base + 3] = text ?? m.payload;
      refs[base + 4] = m.receiverId;
      refs[base + 5] = undefined;
    } else {
      this.#flags[slot] = Flag.Whole;
      refs[base] = m;
      for (let i = 1; i < STRIDE; i++) refs[base + i] = undefined;
    }
    this.#times[slot] = m.timestamp;
  }

  /** The message at position `k`, made again in the layout `copyMessage` gives its scene. */
  #unpack(k: number): Message {
    const slot = k & this.#mask;
    const flags = this.#flags[slot] as number;
    const refs = this.#refs;
    const base = slot * STRIDE;
    if (flags & Flag.Whole) return refs[base] as Message;
    const messageId = flags & Flag.HexId ? unpackHexId(this.#ids, slot * HEX_ID_WORDS) : (refs[base] as string);
    const payload = flags & Flag.Text ? { text: refs[base + 3] as string } : refs[base + 3];
    // One literal for each scene, written out as in copyMessage: a shared part spread into both would give the
    // messages read from the cache another layout than those the events gave.
    if (flags & Flag.Private) {
      return {
        messageId,
        type: refs[base + 1] as string,
        timestamp: this.#times[slot] as number,
        senderId: refs[base + 2] as string,
        payload,
        status: 'success',
        recalled: (flags & Flag.Recalled) !== 0,
        scene: 'private',
        receiverId: refs[base + 4] as string,
        read: (flags & Flag.Read) !== 0,
      };
    }
    return {
      messageId,
      type: refs[base + 1] as string,
      timestamp: this.#times[slot] as number,
      senderId: refs[base + 2] as string,
      payload,
      status: 'success',
      recalled: (flags & Flag.Recalled) !== 0,
      scene: 'group',
      groupId: refs[base + 4] as string,
      senderData: refs[base + 5] as Record<string, unknown>,
    };
  }

  /** The id of the message at position `k`. */
  #idAt(k: number): string {
    const slot = k & this.#mask;
    const flags = this.#flags[slot] as number;
    if (flags & Flag.HexId) return unpackHexId(this.#ids, slot * HEX_ID_WORDS);
    const ref = this.#refs[slot * STRIDE];
    return flags & Flag.Whole ? (ref as Message).messageId : (ref as string);
  }

  /** Whether position `k` holds the message with this id. */
  #isId(k: number, id: string): boolean {
    const slot = k & this.#mask;
    if ((this.#flags[slot] as number) & Flag.HexId) {
      return packHexId(id, PROBE, 0) && sameHexId(this.#ids, slot * HEX_ID_WORDS, PROBE, 0);
    }
    return this.#idAt(k) === id;
  }

  /** The position of the packed message with this id, searched from the newest, or -1. */
  #positionOf(id: string): number {
    const hex = packHexId(id, PROBE, 0);
    for (let k = this.#end - 1; k >= this.#start; k--) {
      const slot = k & this.#mask;
      const found =
        (this.#flags[slot] as number) & Flag.HexId
          ? hex && sameHexId(this.#ids, slot * HEX_ID_WORDS, PROBE, 0)
          : this.#idAt(k) === id;
      if (found) return k;
    }
    return -1;
  }

  /** Copies what position `from` holds to position `to`. */
  #move(from: number, to: number): void {
    const a = from & this.#mask;
    const b = to & this.#mask;
    this.#times[b] = this.#times[a] as number;
    this.#flags[b] = this.#flags[a] as number;
    this.#ids.copyWithin(b * HEX_ID_WORDS, a * HEX_ID_WORDS, (a + 1) * HEX_ID_WORDS);
    for (let i = 0; i < STRIDE; i++) this.#refs[b * STRIDE + i] = this.#refs[a * STRIDE + i];
  }

  /** Empties position `k`'s references. */
  #clear(k: number): void {
    const base = (k & this.#mask) * STRIDE;
    for (let i = 0; i < STRIDE; i++) this.#refs[base + i] = undefined;
  }

  /** Packs an acknowledged message older than the newest packed one in its place: after those not newer. */
  #insertPacked(m: Message): void {
    const end = this.#position();
    let k = end;
    while (k > this.#start && (this.#times[(k - 1) & this.#mask] as number) > m.timestamp) k--;
    for (let at = end; at > k; at--) this.#move(at - 1, at);
    this.#write(k, m);
  }

  /** Removes the packed positions `drop` says so of, keeping the others in order. */
  #removePacked(drop: (k: number) => boolean): void {
    let to = this.#start;
    for (let k = this.#start; k < this.#end; k++) {
      if (drop(k)) continue;
      if (to !== k) this.#move(k, to);
      to++;
    }
    for (let k = to; k < this.#end; k++) this.#clear(k);
    this.#end = to;
  }

  /** Holds exactly `messages`, in their order (which must be the cache's): acknowledged ones packed. */
  #store(messages: readonly Message[]): void {
    for (let k = this.#start; k < this.#end; k++) this.#clear(k);
    this.#start = 0;
    this.#end = 0;
    this.#unsent = [];
    for (const m of messages) {
      if (m.status === 'success') this.#write(this.#position(), m);
      else this.#unsent.push(m);
    }
  }
}

/** Deleted message times remembered per conversation: far more than a re-sync's held pushes could bring back. */
const DELETED_KEPT = 1000;

/** References a packed message keeps (see `#refs`). */
const STRIDE = 6;

/** Slots the columns start with (a power of two); they double as needed. */
const INITIAL_SLOTS = 16;

/** What a packed slot's flags say. */
const Flag = {
  Recalled: 1,
  /** A private message read by its receiver. */
  Read: 2,
  Private: 4,
  /** Packed whole: the slot's first reference is the message. */
  Whole: 8,
  /** The id is in the id column, not the slot's first reference. */
  HexId: 16,
  /** The payload is `{ text }`, and the slot keeps its text. */
  Text: 32,
} as const;

/**
 * The text of a payload that is a plain `{ text }` and nothing else (a text message's), which is kept instead of the
 * object and made into one again when read: one object less for each text message held.
 */
function textOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || Object.getPrototypeOf(payload) !== Object.prototype) {
    return undefined;
  }
  const { text } = payload as { text?: unknown };
  if (typeof text !== 'string') return undefined;
  for (const key in payload) if (key !== 'text') return undefined;
  return text;
}

/** The words of an id being looked for. */
const PROBE = new Int32Array(HEX_ID_WORDS);

function rank(m: Message): number {
  return m.status === 'success' ? 0 : 1;
}

/** Acknowledged messages by server time, then the rest by creation time. */
function order(a: Message, b: Message): number {
  return rank(a) - rank(b) || a.timestamp - b.timestamp;
}
