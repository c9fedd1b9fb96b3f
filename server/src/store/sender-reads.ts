import type { SyncSqlite } from './sync-sqlite.js';

/** How long a sender's read offset waits in memory before it is written, in milliseconds. */
const FLUSH_MS = 1000;

/** The `store_marks` row saying up to which message (rowid of `im_messages`) senders' read offsets are written. */
const MARK = 'im_sender_reads';

const SQL = {
  raise:
    'insert into im_read_offsets (appkey, conv_key, user_id, read_ts) values (?, ?, ?, ?) ' +
    'on conflict (appkey, conv_key, user_id) do update set read_ts = max(excluded.read_ts, im_read_offsets.read_ts)',
  mark: 'select value from store_marks where name = ?',
  setMark:
    'insert into store_marks (name, value) values (?, ?) on conflict (name) do update set value = excluded.value',
  lastRowid: 'select coalesce(max(rowid), 0) as r from im_messages',
  // A sender's newest message per conversation, among the messages stored after the mark.
  sendersAfter:
    'select appkey, conv_key, sender_id, max(ts) as ts from im_messages where rowid > ? ' +
    'group by appkey, conv_key, sender_id',
} as const;

/** A sender's read offset to raise: IM-7, sending reads everything before the message. */
export interface SenderRead {
  appkey: string;
  convKey: string;
  userId: string;
  ts: number;
}

/**
 * SQLite only: senders' read offsets (IM-7), written a moment after their messages, many at once. Raising the
 * sender's offset in the transaction of each message dirtied one more page of the log per message (a fifth of
 * what a message writes); written once a second, a busy sender's offset is written once, and all of them share a
 * few pages. Meanwhile the store answers from memory ({@link offset}), so nobody sees the difference.
 *
 * Nothing is lost in a crash: `store_marks` says up to which message (rowid of `im_messages`, which only grows, as
 * messages are never deleted) the offsets are written, and {@link recover} raises, at start, the offsets of the
 * senders of every message after it. One process writes an SQLite file, so memory and file never disagree.
 */
export class SenderReads {
  readonly #sync: SyncSqlite;
  readonly #onError: (err: unknown) => void;
  readonly #pending = new Map<string, SenderRead>();
  /** The rowid of the newest message whose sender's offset is pending. */
  #upTo = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** `onError`: a write failed; the offsets stay in memory and the next attempt writes them. */
  constructor(sync: SyncSqlite, onError: (err: unknown) => void) {
    this.#sync = sync;
    this.#onError = onError;
  }

  /** Raises `read` once its message (`rowid`) is committed; written within {@link FLUSH_MS}. */
  note(read: SenderRead, rowid: number): void {
    const key = keyOf(read.appkey, read.convKey, read.userId);
    const known = this.#pending.get(key);
    if (!known || known.ts < read.ts) this.#pending.set(key, read);
    if (rowid > this.#upTo) this.#upTo = rowid;
    if (this.#timer === undefined && !this.#closed) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.flush();
      }, FLUSH_MS);
      // A server that is done must not wait a second for this: close() writes what is left.
      this.#timer.unref();
    }
  }

  /** The pending offset of `userId` in a conversation, if a send raised one not yet written. */
  offset(appkey: string, convKey: string, userId: string): number | undefined {
    return this.#pending.get(keyOf(appkey, convKey, userId))?.ts;
  }

  /** Writes every pending offset and the mark in one transaction; tries again later when it cannot now. */
  flush(): void {
    if (this.#pending.size === 0) return;
    const reads = [...this.#pending.values()];
    const upTo = this.#upTo;
    let written: { value: void } | undefined;
    try {
      written = this.#sync.transaction(() => {
        const raise = this.#sync.prepare(SQL.raise);
        for (const r of reads) raise.run(r.appkey, r.convKey, r.userId, r.ts);
        this.#sync.prepare(SQL.setMark).run(MARK, upTo);
      });
    } catch (err) {
      this.#onError(err);
    }
    if (written) {
      // Nothing ran between the copy and the commit: the transaction is synchronous.
      this.#pending.clear();
      return;
    }
    // An asynchronous transaction holds the connection, or the write failed: the next tick tries again.
    if (this.#timer === undefined && !this.#closed) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.flush();
      }, FLUSH_MS);
      this.#timer.unref();
    }
  }

  /**
   * At start, after the migrations: raises the offsets of the senders of every message stored after the mark (a
   * crash kept them from being written). A store without a mark (new, or written before the mark existed, when each
   * send raised its offset at once) is marked at its newest message.
   */
  recover(): void {
    const mark = this.#sync.prepare(SQL.mark).get(MARK) as { value: number | bigint } | undefined;
    this.#sync.transaction(() => {
      let upTo = Number((this.#sync.prepare(SQL.lastRowid).get() as { r: number | bigint }).r);
      if (mark) {
        const raise = this.#sync.prepare(SQL.raise);
        const senders = this.#sync.prepare(SQL.sendersAfter).all(Number(mark.value)) as Array<{
          appkey: string;
          conv_key: string;
          sender_id: string;
          ts: number | bigint;
        }>;
        for (const s of senders) raise.run(s.appkey, s.conv_key, s.sender_id, Number(s.ts));
        upTo = Math.max(upTo, Number(mark.value));
      }
      this.#sync.prepare(SQL.setMark).run(MARK, upTo);
    });
  }

  /** Writes what is pending and stops the timer: the store is closing. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush();
  }
}

/** JSON, so that ids holding any character cannot collide. */
function keyOf(appkey: string, convKey: string, userId: string): string {
  return JSON.stringify([appkey, convKey, userId]);
}
