import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { ownerMayRead, type ConversationStore, type ConversationTouch } from './conversations.js';
import type { Database, ImMessagesTable } from './schema.js';
import type { LaterWrites } from './later-writes.js';
import type { PrivateRows, ShownRows } from './shown-rows.js';
import type { SyncSqlite } from './sync-sqlite.js';
import { publishTiming, timingStart } from './timing.js';

/** A message to store; the store assigns its timestamp. */
export interface NewMessage {
  appkey: string;
  /** The conversation it belongs to (see `im/keys.ts`). */
  convKey: string;
  scene: string;
  /** The client's messageId, unique per sender. */
  messageId: string;
  senderId: string;
  /** The receiver (private) or the group id. */
  targetId: string;
  type: string;
  /** JSON. */
  payload: string;
  /** JSON of the sender's user data. */
  senderData: string;
}

/** A stored message. */
export interface StoredMessage extends Omit<NewMessage, 'appkey'> {
  ts: number;
  recalled: boolean;
  /** JSON `{id, data}`, set once recalled. */
  recaller: string | null;
}

/** The outcome of {@link MessageStore.append}. */
export interface AppendResult {
  message: StoredMessage;
  /** True when the sender had already sent this messageId: nothing was stored, `message` is the first one. */
  duplicate: boolean;
}

/** What {@link MessageStore.send} stores: the message and the bookkeeping that goes with it. */
export interface SendParams {
  message: NewMessage;
  now: number;
  /** The conversation rows the message brings forward (IM-6), as {@link ConversationStore.touch} takes them. */
  rows: readonly ConversationTouch[];
  /** Whose read offset moves up to the message (IM-7: the sender's). */
  readerId: string;
  /**
   * Called once with the stored message as soon as it is durable (not for a duplicate), before or together with
   * the bookkeeping: the moment to push it.
   */
  stored: (message: StoredMessage) => void;
}

/** A read offset. */
export interface ReadOffset {
  userId: string;
  offset: number;
}

/** IM messages, deletions and read offsets in storage. */
export interface MessageStore {
  /**
   * Stores a message with timestamp `max(now, newest in its conversation + 1)`, so that timestamps are unique and
   * increasing per conversation even across nodes; or, when (appkey, senderId, messageId) is already stored,
   * returns that message untouched.
   */
  append(message: NewMessage, now: number): Promise<AppendResult>;
  /**
   * IM-5..IM-7 in one call: {@link append}, then, unless the message is a duplicate, the conversation rows and the
   * reader's offset. On SQLite all of it is one synchronous transaction; elsewhere the bookkeeping follows the
   * append. `stored` is called once all of it is written.
   */
  send(params: SendParams): Promise<AppendResult>;
  /**
   * Whether {@link send} fixes a message's place when it is called: sends are stored, and their `stored` called, in
   * the order of the calls, and {@link page} sees a message only once its `stored` has run (SQLite: one queue, one
   * writer). A caller that keeps a conversation's order then need not wait for one send to be stored before it hands
   * over the next. False on PostgreSQL, where sends run side by side.
   */
  readonly sendsInCallOrder: boolean;
  /** The newest `limit` messages with ts < `before` (all when undefined) not deleted by `viewerId`, oldest first. */
  page(params: {
    appkey: string;
    convKey: string;
    viewerId: string;
    before: number | undefined;
    limit: number;
  }): Promise<StoredMessage[]>;
  /**
   * Up to `limit` messages with ts > `after` in any conversation `ownerId` has a row for (groups: while a member),
   * oldest first, without those `ownerId` deleted.
   */
  since(params: { appkey: string; ownerId: string; after: number; limit: number }): Promise<StoredMessage[]>;
  /** The messages of a conversation at these timestamps. */
  findByTimes(appkey: string, convKey: string, times: readonly number[]): Promise<StoredMessage[]>;
  /** Marks not yet recalled messages recalled by `recaller` (JSON); returns the timestamps it changed. */
  recall(params: { appkey: string; convKey: string; times: readonly number[]; recaller: string }): Promise<number[]>;
  /** Recalled messages with ts >= `min`, oldest first. */
  recalledSince(appkey: string, convKey: string, min: number): Promise<StoredMessage[]>;
  /** Records that `userId` deleted these messages for themselves. */
  deleteFor(params: { appkey: string; userId: string; convKey: string; times: readonly number[] }): Promise<void>;
  /** Timestamps `userId` deleted in a conversation, with ts >= `min`, ascending. */
  deletedTimes(params: { appkey: string; userId: string; convKey: string; min: number }): Promise<number[]>;
  /** Messages from others, not recalled, not deleted by `userId`, with ts > `after` (and <= `through` when given). */
  countUnread(params: {
    appkey: string;
    convKey: string;
    userId: string;
    after: number;
    through?: number;
  }): Promise<number>;
  /** Moves `userId`'s read offset forward to `ts` (never back); returns the offset now stored. */
  raiseReadOffset(params: { appkey: string; convKey: string; userId: string; ts: number }): Promise<number>;
  /** The stored read offsets of these users in a conversation. */
  readOffsets(appkey: string, convKey: string, userIds: readonly string[]): Promise<ReadOffset[]>;
}

/** A message by its sender's messageId (the idempotency key). */
function byGuidQuery(db: Kysely<Database>, appkey: string, senderId: string, messageId: string) {
  return db
    .selectFrom('im_messages')
    .selectAll()
    .where('appkey', '=', appkey)
    .where('message_id', '=', messageId)
    .where('sender_id', '=', senderId);
}

/** The newest timestamp of a conversation. */
function newestQuery(db: Kysely<Database>, appkey: string, convKey: string) {
  return db
    .selectFrom('im_messages')
    .select('ts')
    .where('appkey', '=', appkey)
    .where('conv_key', '=', convKey)
    .orderBy('ts', 'desc')
    .limit(1);
}

/** The row of a new message at `ts`. */
function messageRow(message: NewMessage, ts: number): ImMessagesTable {
  return {
    appkey: message.appkey,
    conv_key: message.convKey,
    ts,
    scene: message.scene,
    message_id: message.messageId,
    sender_id: message.senderId,
    target_id: message.targetId,
    type: message.type,
    payload: message.payload,
    sender_data: message.senderData,
    recalled: 0,
    recaller: null,
  };
}

/**
 * The send path on SQLite as hand-written statements (see {@link SyncSqlite.prepare}); each mirrors the Kysely
 * query or upsert of the same name in this file or in conversations.ts, which the store contract suite checks.
 */
export const HOT_SQL = {
  byGuid: 'select * from im_messages where appkey = ? and message_id = ? and sender_id = ?',
  newest: 'select ts from im_messages where appkey = ? and conv_key = ? order by ts desc limit 1',
  // A message id already stored (a resend) inserts nothing: the caller then reads the first one back.
  insert:
    'insert into im_messages (appkey, conv_key, ts, scene, message_id, sender_id, target_id, type, payload, ' +
    'sender_data, recalled, recaller) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, null) ' +
    'on conflict (appkey, message_id, sender_id) do nothing',
  // One statement for all of a message's conversation rows (a group's members): the owners come as a JSON array
  // of [ownerId, targetId, data?], read with json_each.
  touchWithData:
    'insert into im_conversations (appkey, owner_id, scene, target_id, conv_key, top, removed, data, last_ts) ' +
    "select ?, value ->> '$[0]', ?, value ->> '$[1]', ?, 0, 0, value ->> '$[2]', ? from json_each(?) where true " +
    'on conflict (appkey, owner_id, scene, target_id) do update set ' +
    'last_ts = max(excluded.last_ts, im_conversations.last_ts), removed = 0, data = excluded.data',
  touchKeepData:
    'insert into im_conversations (appkey, owner_id, scene, target_id, conv_key, top, removed, data, last_ts) ' +
    "select ?, value ->> '$[0]', ?, value ->> '$[1]', ?, 0, 0, '{}', ? from json_each(?) where true " +
    'on conflict (appkey, owner_id, scene, target_id) do update set ' +
    'last_ts = max(excluded.last_ts, im_conversations.last_ts), removed = 0',
  // A group message (0006): the head moves; members' rows are only created, or shown again when removed.
  touchHead:
    'insert into im_conversation_heads (appkey, conv_key, last_ts, data) values (?, ?, ?, ?) ' +
    'on conflict (appkey, conv_key) do update set ' +
    'last_ts = max(excluded.last_ts, im_conversation_heads.last_ts), ' +
    'data = coalesce(excluded.data, im_conversation_heads.data)',
  touchMembers:
    'insert into im_conversations (appkey, owner_id, scene, target_id, conv_key, top, removed, data, last_ts) ' +
    "select ?, value ->> '$[0]', ?, value ->> '$[1]', ?, 0, 0, '{}', ? from json_each(?) where true " +
    'on conflict (appkey, owner_id, scene, target_id) do update set removed = 0 where im_conversations.removed = 1',
  raiseOffset:
    'insert into im_read_offsets (appkey, conv_key, user_id, read_ts) values (?, ?, ?, ?) ' +
    'on conflict (appkey, conv_key, user_id) do update set read_ts = max(excluded.read_ts, im_read_offsets.read_ts)',
} as const;

/** A group conversation row a send created or showed again: appkey, owner, group. */
type ShownRow = [appkey: string, ownerId: string, targetId: string];

/** A private conversation row a send wrote, shown: appkey, owner, target, data (null: kept as it was). */
type PrivateRow = [appkey: string, ownerId: string, targetId: string, data: string | null];

/** What one send of a batch leaves to do once the batch commits (the rows it made were rolled back otherwise). */
interface AfterCommit {
  /** Group conversation rows the send created or showed again. */
  shown: ShownRow[];
  /** Private conversation rows the send wrote. */
  privateRows: PrivateRow[];
  /** The message's rowid, when its bookkeeping is left to {@link LaterWrites}. */
  later?: number;
  /** The group's head was written with this data. */
  headWritten?: { data: string | null };
  /** The conversation's head is to move to the message, later. */
  moveHead?: boolean;
}

/** Conversations whose newest timestamp the SQLite send path keeps in memory. */
const NEWEST_TIMES_KEPT = 10_000;

/** How many times append tries again after losing a race for a timestamp to another node. */
const APPEND_ATTEMPTS = 8;

/**
 * The Kysely implementation of {@link MessageStore}. On PostgreSQL, appends to one conversation take a transaction
 * advisory lock, so that concurrent writers (other pool connections, other nodes) queue instead of racing for the
 * same timestamp; SQLite has one writer anyway.
 */
export function createMessageStore(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  conversations: ConversationStore,
  sync?: SyncSqlite,
  shown?: ShownRows,
  later?: LaterWrites,
  privateRows?: PrivateRows,
): MessageStore {
  const byGuid = async (appkey: string, senderId: string, messageId: string) => {
    const row = await byGuidQuery(db, appkey, senderId, messageId).executeTakeFirst();
    return row && toMessage(row);
  };

  /**
   * SQLite: the newest timestamp of recently written conversations, so that a send does not look it up again. One
   * node writes an SQLite file, and every append of this store goes through here or the Kysely path below, which
   * forgets the key it writes. Bounded: the oldest key goes first, and is looked up again when it comes back.
   */
  const newestTimes = new Map<string, number>();
  const rememberNewest = (key: string, ts: number) => {
    newestTimes.set(key, ts);
    if (newestTimes.size > NEWEST_TIMES_KEPT) newestTimes.delete(newestTimes.keys().next().value as string);
  };
  /** SQLite: the append inside a synchronous transaction; one node, so no unique-key race to retry. */
  const appendNow = (s: SyncSqlite, message: NewMessage, now: number): AppendResult & { rowid?: number } => {
    const key = `${message.appkey}\n${message.convKey}`;
    let newest = newestTimes.get(key);
    if (newest === undefined) {
      const row = s.prepare(HOT_SQL.newest).get(message.appkey, message.convKey) as { ts: number } | undefined;
      newest = row ? Number(row.ts) : 0;
    }
    const ts = Math.max(now, newest + 1);
    const m = message;
    const { changes, lastInsertRowid } = s
      .prepare(HOT_SQL.insert)
      .run(m.appkey, m.convKey, ts, m.scene, m.messageId, m.senderId, m.targetId, m.type, m.payload, m.senderData);
    if (changes === 0) {
      const first = s.prepare(HOT_SQL.byGuid).get(m.appkey, m.messageId, m.senderId) as ImMessagesTable;
      return { message: toMessage(first), duplicate: true };
    }
    rememberNewest(key, ts);
    return { message: storedMessage(message, ts), duplicate: false, rowid: Number(lastInsertRowid) };
  };

  /** SQLite: everything {@link MessageStore.send} writes, inside the caller's transaction. */
  const sendNow = (s: SyncSqlite, { message, now, rows, readerId }: SendParams, after: AfterCommit): AppendResult => {
    const { appkey, convKey, scene } = message;
    const appended = appendNow(s, message, now);
    const rowid = appended.rowid;
    const result: AppendResult = { message: appended.message, duplicate: appended.duplicate };
    if (result.duplicate) return result;
    const ts = result.message.ts;
    const deferred = later && rowid !== undefined;
    if (deferred) after.later = rowid;
    if (scene === 'group') {
      const data = rows.find((r) => r.data !== null)?.data ?? null;
      // IM-6: while the data stays the same only the head's time moves, which can be written later.
      if (deferred && later.headDataKnown(appkey, convKey, data)) {
        after.moveHead = true;
      } else {
        s.prepare(HOT_SQL.touchHead).run(appkey, convKey, ts, data);
        after.headWritten = { data };
      }
      // Every row of a group message is for the group (IM-6): one look-up for all its members.
      const missing = shown ? shown.missing(appkey, message.targetId, rows) : rows;
      if (missing.length > 0) {
        const owners = JSON.stringify(missing.map((r) => [r.ownerId, r.targetId]));
        s.prepare(HOT_SQL.touchMembers).run(appkey, scene, convKey, ts, owners);
        // Marked by the caller once the batch commits: rows of a rolled back send are not there.
        for (const r of missing) after.shown.push([appkey, r.ownerId, r.targetId]);
      }
    } else if (deferred && privateRows?.allShown(appkey, rows)) {
      // IM-6: both rows are there, shown, with this data: only the conversation's time moves, on its head, later.
      after.moveHead = true;
    } else {
      const withData = rows.filter((r) => r.data !== null).map((r) => [r.ownerId, r.targetId, r.data]);
      const keepData = rows.filter((r) => r.data === null).map((r) => [r.ownerId, r.targetId]);
      if (withData.length > 0) {
        s.prepare(HOT_SQL.touchWithData).run(appkey, scene, convKey, ts, JSON.stringify(withData));
      }
      if (keepData.length > 0) {
        s.prepare(HOT_SQL.touchKeepData).run(appkey, scene, convKey, ts, JSON.stringify(keepData));
      }
      // Known once the batch commits: rows of a rolled back send are not there.
      for (const r of rows) after.privateRows.push([appkey, r.ownerId, r.targetId, r.data]);
    }
    // IM-7: written with others a moment later (later-writes.ts), or here when nothing keeps it.
    if (!deferred) s.prepare(HOT_SQL.raiseOffset).run(appkey, convKey, readerId, ts);
    return result;
  };

  /**
   * Stores without a synchronous connection: the append, then the bookkeeping, then `stored`: a client that hears
   * of the message and asks for its list finds it there, with the sender's read offset raised.
   */
  const sendSlowly = async ({ message, now, rows, readerId, stored }: SendParams): Promise<AppendResult> => {
    const { appkey, convKey, scene } = message;
    const result = await store.append(message, now);
    if (result.duplicate) return result;
    // Its head's data, or its rows', may change here, where the synchronous path does not see it: before and after,
    // as a synchronous send may write the rows meanwhile.
    later?.forgetHead(appkey, convKey);
    const forgetRows = () => {
      if (scene === 'private') for (const r of rows) privateRows?.forget(appkey, r.ownerId, r.targetId);
    };
    forgetRows();
    await conversations.touch({ appkey, scene, convKey, lastTs: result.message.ts, rows });
    forgetRows();
    await store.raiseReadOffset({ appkey, convKey, userId: readerId, ts: result.message.ts });
    stored(result.message);
    return result;
  };

  /**
   * SQLite group commit: the sends that arrive in one turn of the event loop are written in one transaction at
   * its end (a commit costs more than all of one message's statements together), each in a savepoint of its own.
   * Every message is stored before `stored` pushes it and before its promise settles.
   */
  type Queued = { params: SendParams; settle: (outcome: { value: AppendResult } | { error: unknown }) => void };
  let queued: Queued[] = [];
  /**
   * The sends going the slow way, each after the one before, across batches; undefined once the last has settled.
   * While it runs, later batches follow it, so that sends are stored in the order they came, and pages wait for it,
   * so that none shows a message before its `stored` has run (see {@link MessageStore.sendsInCallOrder}).
   */
  let slow: Promise<void> | undefined;
  const sendAllSlowly = (items: readonly Queued[]) => {
    const chain = items.reduce<Promise<void>>(
      (previous, { params, settle }) =>
        previous.then(() =>
          sendSlowly(params).then(
            (value) => settle({ value }),
            (error: unknown) => settle({ error }),
          ),
        ),
      slow ?? Promise.resolve(),
    );
    slow = chain;
    void chain.then(() => {
      if (slow === chain) slow = undefined;
    });
  };
  const flush = () => {
    const items = queued;
    queued = [];
    if (slow) return sendAllSlowly(items);
    const started = timingStart();
    let outcomes: Array<{ value: AppendResult } | { error: unknown }> | undefined;
    const afters = items.map((): AfterCommit => ({ shown: [], privateRows: [] }));
    try {
      outcomes = sync?.batch(
        items.map(
          ({ params }, i) =>
            () =>
              sendNow(sync, params, afters[i] as AfterCommit),
        ),
      );
    } catch (error) {
      // BEGIN or COMMIT failed (the store closed under it, the disk is full): nothing of the batch was stored.
      for (const { settle } of items) settle({ error });
      return;
    }
    // An asynchronous transaction holds the connection: these go the slow way, each after the one before.
    if (!outcomes) return sendAllSlowly(items);
    const committed = timingStart();
    items.forEach(({ params, settle }, i) => {
      const outcome = outcomes[i] as { value: AppendResult } | { error: unknown };
      if ('value' in outcome) {
        const after = afters[i] as AfterCommit;
        for (const row of after.shown) shown?.add(...row);
        for (const row of after.privateRows) privateRows?.add(...row);
        const { appkey, convKey } = params.message;
        if (after.headWritten) later?.headWritten(appkey, convKey, after.headWritten.data);
        if (later && after.later !== undefined && !outcome.value.duplicate) {
          const ts = outcome.value.message.ts;
          later.raiseRead({ appkey, convKey, userId: params.readerId, ts }, after.later);
          if (after.moveHead) later.moveHead({ appkey, convKey, ts }, after.later);
        }
      }
      try {
        if ('value' in outcome && !outcome.value.duplicate) params.stored(outcome.value.message);
      } finally {
        settle(outcome);
      }
    });
    if (started !== 0) {
      publishTiming(committed, (pushMs) => ({
        kind: 'send-batch',
        messages: items.length,
        storeMs: committed - started,
        pushMs,
      }));
    }
  };
  const queueSend = (params: SendParams) =>
    new Promise<AppendResult>((resolve, reject) => {
      if (queued.length === 0) setImmediate(flush);
      queued.push({
        params,
        // A method, not an arrow: `tsx` names each arrow made as a property, once for each send.
        settle(outcome) {
          if ('value' in outcome) resolve(outcome.value);
          else reject(asError(outcome.error));
        },
      });
    });

  const store: MessageStore = {
    async append(message, now) {
      const quick = sync?.transaction(() => appendNow(sync, message, now));
      if (quick) {
        return { message: quick.value.message, duplicate: quick.value.duplicate };
      }
      let lastError: unknown;
      for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt += 1) {
        try {
          return await db.transaction().execute(async (trx) => {
            if (dialect === 'postgres') {
              await sql`select pg_advisory_xact_lock(hashtext(${`${message.appkey}\n${message.convKey}`}))`.execute(
                trx,
              );
            }
            const first = await byGuidQuery(
              trx,
              message.appkey,
              message.senderId,
              message.messageId,
            ).executeTakeFirst();
            if (first) return { message: toMessage(first), duplicate: true };
            const newest = await newestQuery(trx, message.appkey, message.convKey).executeTakeFirst();
            const ts = Math.max(now, newest ? Number(newest.ts) + 1 : 0);
            await trx.insertInto('im_messages').values(messageRow(message, ts)).execute();
            // While this transaction is open the synchronous path waits, so it next reads the newest from the table.
            newestTimes.delete(`${message.appkey}\n${message.convKey}`);
            return { message: storedMessage(message, ts), duplicate: false };
          });
        } catch (err) {
          // A unique key was taken by a concurrent writer (another node): either the same message, which is then a
          // duplicate, or the same timestamp, which the next attempt moves past.
          lastError = err;
          const first = await byGuid(message.appkey, message.senderId, message.messageId);
          if (first) return { message: first, duplicate: true };
        }
      }
      throw lastError;
    },

    send(params) {
      if (sync) return queueSend(params);
      return sendSlowly(params);
    },

    sendsInCallOrder: sync !== undefined,

    async page({ appkey, convKey, viewerId, before, limit }) {
      // IM-8: a message stored the slow way is pushed a moment after it is stored; the page comes after the push.
      if (slow) await slow;
      let query = db
        .selectFrom('im_messages as m')
        .selectAll('m')
        .where('m.appkey', '=', appkey)
        .where('m.conv_key', '=', convKey)
        .where((eb) => eb.not(eb.exists(deletedBy(eb, viewerId))));
      if (before !== undefined) query = query.where('m.ts', '<', before);
      const rows = await query.orderBy('m.ts', 'desc').limit(limit).execute();
      return rows.map(toMessage).reverse();
    },

    async since({ appkey, ownerId, after, limit }) {
      const rows = await db
        .selectFrom('im_messages as m')
        .innerJoin('im_conversations as c', (join) =>
          join.onRef('c.appkey', '=', 'm.appkey').onRef('c.conv_key', '=', 'm.conv_key'),
        )
        .selectAll('m')
        .where('c.appkey', '=', appkey)
        .where('c.owner_id', '=', ownerId)
        .where('m.ts', '>', after)
        // IM-24: not what the owner deleted, and of groups only while a member (IM-9, IM-20).
        .where((eb) => eb.not(eb.exists(deletedBy(eb, ownerId))))
        .where(ownerMayRead)
        .orderBy('m.ts')
        .limit(limit)
        .execute();
      return rows.map(toMessage);
    },

    async findByTimes(appkey, convKey, times) {
      if (times.length === 0) return [];
      const rows = await db
        .selectFrom('im_messages')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('conv_key', '=', convKey)
        .where('ts', 'in', [...times])
        .orderBy('ts')
        .execute();
      return rows.map(toMessage);
    },

    async recall({ appkey, convKey, times, recaller }) {
      if (times.length === 0) return [];
      const rows = await db
        .updateTable('im_messages')
        .set({ recalled: 1, recaller })
        .where('appkey', '=', appkey)
        .where('conv_key', '=', convKey)
        .where('ts', 'in', [...times])
        .where('recalled', '=', 0)
        .returning('ts')
        .execute();
      return rows.map((r) => Number(r.ts)).sort((a, b) => a - b);
    },

    async recalledSince(appkey, convKey, min) {
      const rows = await db
        .selectFrom('im_messages')
        .selectAll()
        .where('appkey', '=', appkey)
        .where('conv_key', '=', convKey)
        .where('recalled', '=', 1)
        .where('ts', '>=', min)
        .orderBy('ts')
        .execute();
      return rows.map(toMessage);
    },

    async deleteFor({ appkey, userId, convKey, times }) {
      if (times.length === 0) return;
      await db
        .insertInto('im_deletions')
        .values([...new Set(times)].map((ts) => ({ appkey, user_id: userId, conv_key: convKey, ts })))
        .onConflict((oc) => oc.columns(['appkey', 'user_id', 'conv_key', 'ts']).doNothing())
        .execute();
    },

    async deletedTimes({ appkey, userId, convKey, min }) {
      const rows = await db
        .selectFrom('im_deletions')
        .select('ts')
        .where('appkey', '=', appkey)
        .where('user_id', '=', userId)
        .where('conv_key', '=', convKey)
        .where('ts', '>=', min)
        .orderBy('ts')
        .execute();
      return rows.map((r) => Number(r.ts));
    },

    async countUnread({ appkey, convKey, userId, after, through }) {
      let query = db
        .selectFrom('im_messages as m')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('m.appkey', '=', appkey)
        .where('m.conv_key', '=', convKey)
        .where('m.sender_id', '<>', userId)
        .where('m.recalled', '=', 0)
        .where('m.ts', '>', after)
        .where((eb) => eb.not(eb.exists(deletedBy(eb, userId))));
      if (through !== undefined) query = query.where('m.ts', '<=', through);
      const row = await query.executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async raiseReadOffset({ appkey, convKey, userId, ts }) {
      await db
        .insertInto('im_read_offsets')
        .values({ appkey, conv_key: convKey, user_id: userId, read_ts: ts })
        .onConflict((oc) =>
          oc.columns(['appkey', 'conv_key', 'user_id']).doUpdateSet({
            // Portable max(): SQLite's max(a, b) is PostgreSQL's greatest(a, b).
            read_ts: sql<number>`case when excluded.read_ts > im_read_offsets.read_ts then excluded.read_ts else im_read_offsets.read_ts end`,
          }),
        )
        .execute();
      const row = await db
        .selectFrom('im_read_offsets')
        .select('read_ts')
        .where('appkey', '=', appkey)
        .where('conv_key', '=', convKey)
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Math.max(Number(row.read_ts), later?.readOffset(appkey, convKey, userId) ?? 0);
    },

    async readOffsets(appkey, convKey, userIds) {
      if (userIds.length === 0) return [];
      const rows = await db
        .selectFrom('im_read_offsets')
        .select(['user_id', 'read_ts'])
        .where('appkey', '=', appkey)
        .where('conv_key', '=', convKey)
        .where('user_id', 'in', [...userIds])
        .execute();
      const found = new Map(rows.map((r) => [r.user_id, Number(r.read_ts)]));
      if (later) {
        for (const userId of userIds) {
          const pending = later.readOffset(appkey, convKey, userId);
          if (pending !== undefined && pending > (found.get(userId) ?? 0)) found.set(userId, pending);
        }
      }
      // In the order asked, so that callers and tests see a stable shape.
      return userIds.filter((u) => found.has(u)).map((userId) => ({ userId, offset: found.get(userId) ?? 0 }));
    },
  };
  return store;
}

/** The deletion of message `m` by `userId`, for `not exists`: a message someone deleted is gone for them only. */
function deletedBy(eb: ExpressionBuilder<Database & { m: ImMessagesTable }, 'm'>, userId: string) {
  return eb
    .selectFrom('im_deletions as d')
    .select('d.ts')
    .whereRef('d.appkey', '=', 'm.appkey')
    .whereRef('d.conv_key', '=', 'm.conv_key')
    .whereRef('d.ts', '=', 'm.ts')
    .where('d.user_id', '=', userId);
}

/** What a batch reports as thrown, as an Error (SQLite throws SqliteError, but a rejection must be an Error). */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A message just stored, at `ts`, in the same shape as {@link toMessage}'s. Spelled out property by property: built
 * from `appkey`'s rest and a spread instead, the store's send path had the collector promote about a kilobyte per
 * message to the old generation (`bench/store-cost.ts` under `node --trace-gc-nvp`: 1.6 MB per scavenge, against
 * 10 KB this way), which then cost full collections.
 */
function storedMessage(m: NewMessage, ts: number): StoredMessage {
  return {
    convKey: m.convKey,
    scene: m.scene,
    ts,
    messageId: m.messageId,
    senderId: m.senderId,
    targetId: m.targetId,
    type: m.type,
    payload: m.payload,
    senderData: m.senderData,
    recalled: false,
    recaller: null,
  };
}

function toMessage(row: ImMessagesTable): StoredMessage {
  return {
    convKey: row.conv_key,
    scene: row.scene,
    ts: Number(row.ts),
    messageId: row.message_id,
    senderId: row.sender_id,
    targetId: row.target_id,
    type: row.type,
    payload: row.payload,
    senderData: row.sender_data,
    recalled: Number(row.recalled) === 1,
    recaller: row.recaller,
  };
}
