import { HOT_SQL } from './im.js';
import type { SyncSqlite } from './sync-sqlite.js';
import { publishTiming, timingStart } from './timing.js';

/** How long a write waits in memory before it is made, in milliseconds. */
const FLUSH_MS = 1000;

/** The `store_marks` row saying up to which message (rowid of `im_messages`) the later writes are made. */
const MARK = 'im_later_writes';

/**
 * Writes per transaction when the timer makes them: a turn of the event loop holds the server for about 3 ms per
 * thousand on a small machine; more wait for the next turn.
 */
const CHUNK = 1000;

/** Group heads whose data this store remembers (see {@link LaterWrites.headDataKnown}). */
const HEAD_DATA_KEPT = 10_000;

const SQL = {
  // The same upsert as a send makes when nothing keeps it for later.
  raiseRead: HOT_SQL.raiseOffset,
  // The head's time only: its data stays (a head is first written with its message, with data, see im.ts).
  moveHead:
    'insert into im_conversation_heads (appkey, conv_key, last_ts, data) values (?, ?, ?, null) ' +
    'on conflict (appkey, conv_key) do update set last_ts = max(excluded.last_ts, im_conversation_heads.last_ts)',
  mark: 'select value from store_marks where name = ?',
  setMark:
    'insert into store_marks (name, value) values (?, ?) on conflict (name) do update set value = excluded.value',
  lastRowid: 'select coalesce(max(rowid), 0) as r from im_messages',
  // Each sender's newest message per conversation, among the messages stored after the mark.
  sendersAfter:
    'select appkey, conv_key, sender_id, max(ts) as ts from im_messages where rowid > ? ' +
    'group by appkey, conv_key, sender_id',
  // Each conversation's newest message, among the messages stored after the mark: group heads, and the heads of
  // private conversations whose rows a send left as they were (shown-rows.ts, PrivateRows).
  headsAfter: 'select appkey, conv_key, max(ts) as ts from im_messages where rowid > ? group by appkey, conv_key',
} as const;

/** A sender's read offset to raise: IM-7, sending reads everything before the message. */
export interface SenderRead {
  appkey: string;
  convKey: string;
  userId: string;
  ts: number;
}

/** A conversation's head to move to its newest message (IM-6): a group's, or a private conversation's. */
export interface HeadMove {
  appkey: string;
  convKey: string;
  ts: number;
}

/**
 * SQLite only: bookkeeping of a send made a moment after the message, many at once: the sender's read offset (IM-7)
 * and, while its data stays the same, the group head's time (IM-6), or a private conversation's while both its rows
 * are known to be there with the message's data (shown-rows.ts, `PrivateRows`). Made in the message's own transaction, each
 * dirtied a page of the log per message (together two of the five pages a message alone in its commit writes); made
 * once a second, a busy sender's offset and a busy group's head are written once, and all of them share a few pages. Meanwhile the store answers offsets from memory ({@link readOffset}) and makes the writes before it
 * lists conversations ({@link flush}), so nobody sees the difference.
 *
 * Nothing is lost in a crash: `store_marks` says up to which message (rowid of `im_messages`, which only grows, as
 * messages are never deleted) these writes are made, and {@link recover} makes, at start, those of every message
 * after it: both follow from the messages alone. One process writes an SQLite file, so memory and file never
 * disagree.
 */
export class LaterWrites {
  readonly #sync: SyncSqlite;
  readonly #onError: (err: unknown) => void;
  /** Pending writes, each with the rowid of the newest message it stands for. */
  readonly #reads = new PendingWrites<SenderRead>();
  readonly #heads = new PendingWrites<HeadMove>();
  /** The data of group heads as last written, by appkey and conversation. */
  readonly #headData = new Map<string, string>();
  /** The rowid of the newest message whose writes are pending. */
  #upTo = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** `onError`: a write failed; it stays in memory and the next attempt makes it. */
  constructor(sync: SyncSqlite, onError: (err: unknown) => void) {
    this.#sync = sync;
    this.#onError = onError;
  }

  /** Raises a sender's read offset, for a message (`rowid`) just committed; written within {@link FLUSH_MS}. */
  raiseRead(read: SenderRead, rowid: number): void {
    this.#reads.raise(keyOf(read.appkey, read.convKey, read.userId), read, rowid);
    this.#pending(rowid);
  }

  /**
   * Moves a conversation's head to a message (`rowid`) just committed; written within {@link FLUSH_MS}. A private
   * conversation's head has no data: its rows keep theirs, and the head gives them only its time when newer.
   */
  moveHead(head: HeadMove, rowid: number): void {
    this.#heads.raise(keyOf(head.appkey, head.convKey), head, rowid);
    this.#pending(rowid);
  }

  /**
   * Whether the group's head is stored with this data (null: a message without data, which keeps the head's):
   * then only its time moves, and {@link moveHead} can make that later.
   */
  headDataKnown(appkey: string, convKey: string, data: string | null): boolean {
    const known = this.#headData.get(keyOf(appkey, convKey));
    return known !== undefined && (data === null || data === known);
  }

  /** The group's head was just written with this data, in a committed transaction. */
  headWritten(appkey: string, convKey: string, data: string | null): void {
    const key = keyOf(appkey, convKey);
    // Unknown after a write without data onto a head that may not have had any: written again next time.
    if (data === null) {
      if (!this.#headData.has(key)) return;
    } else {
      this.#headData.delete(key);
      this.#headData.set(key, data);
    }
    if (this.#headData.size > HEAD_DATA_KEPT) this.#headData.delete(this.#headData.keys().next().value as string);
  }

  /** The group's head may have been written elsewhere (the store's asynchronous path): its next message writes it. */
  forgetHead(appkey: string, convKey: string): void {
    this.#headData.delete(keyOf(appkey, convKey));
  }

  /** Entries held in memory, pending and written: at most {@link WRITTEN_KEPT} once nothing is pending. */
  get kept(): number {
    return this.#reads.kept + this.#heads.kept;
  }

  /** The read offset of `userId` a send raised and that is not written yet, if any. */
  readOffset(appkey: string, convKey: string, userId: string): number | undefined {
    return this.#reads.pendingTs(keyOf(appkey, convKey, userId));
  }

  /**
   * Makes the pending writes, at most `limit` of them, and moves the mark, in one transaction; what is left follows
   * in the next turns of the event loop. Returns false when it could not (an asynchronous transaction holds the
   * connection, or the write failed): the timer tries again.
   */
  flush(limit = Infinity): boolean {
    if (this.#reads.pending === 0 && this.#heads.pending === 0) return true;
    const reads = this.#reads.take(limit);
    const heads = this.#heads.take(limit - reads.length);
    const left = this.#reads.pending + this.#heads.pending - reads.length - heads.length;
    // The writes left stand for messages after the mark: a crash now has recover() make them.
    const mark =
      left === 0 ? this.#upTo : Math.min(this.#reads.oldestLeft(reads), this.#heads.oldestLeft(heads), this.#upTo) - 1;
    let written: { value: void } | undefined;
    const started = timingStart();
    try {
      written = this.#sync.transaction(() => {
        const raise = this.#sync.prepare(SQL.raiseRead);
        for (const { value: r } of reads) raise.run(r.appkey, r.convKey, r.userId, r.ts);
        const move = this.#sync.prepare(SQL.moveHead);
        for (const { value: h } of heads) move.run(h.appkey, h.convKey, h.ts);
        this.#sync.prepare(SQL.setMark).run(MARK, mark);
      });
    } catch (err) {
      this.#onError(err);
    }
    if (!written) {
      this.#schedule();
      return false;
    }
    publishTiming(started, (ms) => ({ kind: 'later-writes', writes: reads.length + heads.length, ms }));
    // Nothing ran between the copies and the commit: the transaction is synchronous.
    this.#reads.written(reads);
    this.#heads.written(heads);
    if (left > 0 && !this.#closed) setImmediate(() => this.flush(CHUNK));
    return true;
  }

  /**
   * At start, after the migrations: makes the writes of every message stored after the mark (a crash kept them
   * from being made). A store without a mark (new, or written before the mark existed, when each send made them at
   * once) is marked at its newest message.
   */
  recover(): void {
    const mark = this.#sync.prepare(SQL.mark).get(MARK) as { value: number | bigint } | undefined;
    this.#sync.transaction(() => {
      let upTo = Number((this.#sync.prepare(SQL.lastRowid).get() as { r: number | bigint }).r);
      if (mark) {
        const after = Number(mark.value);
        const raise = this.#sync.prepare(SQL.raiseRead);
        const senders = this.#sync.prepare(SQL.sendersAfter).all(after) as Array<{
          appkey: string;
          conv_key: string;
          sender_id: string;
          ts: number | bigint;
        }>;
        for (const s of senders) raise.run(s.appkey, s.conv_key, s.sender_id, Number(s.ts));
        const move = this.#sync.prepare(SQL.moveHead);
        const heads = this.#sync.prepare(SQL.headsAfter).all(after) as Array<{
          appkey: string;
          conv_key: string;
          ts: number | bigint;
        }>;
        for (const h of heads) move.run(h.appkey, h.conv_key, Number(h.ts));
        upTo = Math.max(upTo, after);
      }
      this.#sync.prepare(SQL.setMark).run(MARK, upTo);
    });
  }

  /** Makes what is pending and stops the timer: the store is closing. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush();
  }

  #pending(rowid: number): void {
    if (rowid > this.#upTo) this.#upTo = rowid;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flush(CHUNK);
    }, FLUSH_MS);
    // A server that is done must not wait a second for this: close() makes what is left.
    this.#timer.unref();
  }
}

/** Entries kept once written, at most; past it, when nothing is pending, they are let go at once. */
const WRITTEN_KEPT = 10_000;

/** One pending write: the newest value of its key, the rowid of the message it stands for, and whether it is made. */
interface PendingEntry<V> {
  value: V;
  rowid: number;
  pending: boolean;
}

/**
 * The pending writes of one kind, by key, each the newest of its key. A written entry stays, marked made, so that a
 * busy key's entry is changed in place from one flush to the next rather than removed and made again, and the map's
 * table is not rebuilt every second (a rebuilt table outlives the young generation, and only a full collection takes
 * it back); up to {@link WRITTEN_KEPT} of them.
 */
class PendingWrites<V extends { ts: number }> {
  readonly #entries = new Map<string, PendingEntry<V>>();
  #pending = 0;

  /** How many writes are pending. */
  get pending(): number {
    return this.#pending;
  }

  /** How many entries are held, pending and written. */
  get kept(): number {
    return this.#entries.size;
  }

  /**
   * `value` for `key`, for the message `rowid`: pending now, unless a higher one is already pending. Over one made,
   * it is pending whatever its time, as if nothing had been kept.
   */
  raise(key: string, value: V, rowid: number): void {
    const known = this.#entries.get(key);
    if (known === undefined) {
      this.#entries.set(key, { value: { ...value }, rowid, pending: true });
      this.#pending += 1;
    } else if (!known.pending) {
      known.value.ts = value.ts;
      known.rowid = rowid;
      known.pending = true;
      this.#pending += 1;
    } else if (known.value.ts < value.ts) {
      known.value.ts = value.ts;
      known.rowid = rowid;
    }
  }

  /** The time pending for `key`, if a write of it is. */
  pendingTs(key: string): number | undefined {
    const known = this.#entries.get(key);
    return known?.pending ? known.value.ts : undefined;
  }

  /** The first `limit` pending entries, in the order their keys came. */
  take(limit: number): Array<PendingEntry<V>> {
    const taken: Array<PendingEntry<V>> = [];
    if (limit <= 0) return taken;
    for (const entry of this.#entries.values()) {
      if (!entry.pending) continue;
      taken.push(entry);
      if (taken.length >= limit) break;
    }
    return taken;
  }

  /** The rowid of the oldest message among the pending entries not `taken`; Infinity when there is none. */
  oldestLeft(taken: ReadonlyArray<PendingEntry<V>>): number {
    const set = new Set(taken);
    let oldest = Infinity;
    for (const entry of this.#entries.values()) {
      if (entry.pending && !set.has(entry) && entry.rowid < oldest) oldest = entry.rowid;
    }
    return oldest;
  }

  /** The `taken` entries are made, in a committed transaction. */
  written(taken: ReadonlyArray<PendingEntry<V>>): void {
    for (const entry of taken) entry.pending = false;
    this.#pending -= taken.length;
    if (this.#pending === 0 && this.#entries.size > WRITTEN_KEPT) this.#entries.clear();
  }
}

/**
 * A conversation's key, or one user's in it: every part but the last led by its length, so that ids holding any
 * character cannot collide (and cheaper than JSON, on every send).
 */
function keyOf(appkey: string, convKey: string, userId?: string): string {
  return userId === undefined
    ? `${appkey.length}:${appkey}${convKey}`
    : `${appkey.length}:${appkey}${userId.length}:${userId}${convKey}`;
}
