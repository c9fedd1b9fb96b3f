import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, ImMessagesTable } from './schema.js';
import type { SyncSqlite } from './sync-sqlite.js';

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
  /** The newest `limit` messages with ts < `before` (all when undefined) not deleted by `viewerId`, oldest first. */
  page(params: {
    appkey: string;
    convKey: string;
    viewerId: string;
    before: number | undefined;
    limit: number;
  }): Promise<StoredMessage[]>;
  /** Up to `limit` messages with ts > `after` in any conversation `ownerId` has a row for, oldest first. */
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
  /** Messages from others, not recalled, not deleted by `userId`, with ts > `after`. */
  countUnread(params: { appkey: string; convKey: string; userId: string; after: number }): Promise<number>;
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
    .where('sender_id', '=', senderId)
    .where('message_id', '=', messageId);
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
  sync?: SyncSqlite,
): MessageStore {
  const byGuid = async (appkey: string, senderId: string, messageId: string) => {
    const row = await byGuidQuery(db, appkey, senderId, messageId).executeTakeFirst();
    return row && toMessage(row);
  };

  return {
    async append(message, now) {
      // SQLite: one synchronous transaction (see sync-sqlite.ts); one node, so no unique-key race to retry.
      const quick = sync?.transaction(() => {
        const first = sync.get(byGuidQuery(db, message.appkey, message.senderId, message.messageId));
        if (first) return { message: toMessage(first), duplicate: true };
        const newest = sync.get(newestQuery(db, message.appkey, message.convKey));
        const ts = Math.max(now, newest ? Number(newest.ts) + 1 : 0);
        sync.run(db.insertInto('im_messages').values(messageRow(message, ts)));
        const { appkey: _appkey, ...rest } = message;
        return { message: { ...rest, ts, recalled: false, recaller: null }, duplicate: false };
      });
      if (quick) return quick.value;
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
            const { appkey: _appkey, ...rest } = message;
            return { message: { ...rest, ts, recalled: false, recaller: null }, duplicate: false };
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

    async page({ appkey, convKey, viewerId, before, limit }) {
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

    async countUnread({ appkey, convKey, userId, after }) {
      const row = await db
        .selectFrom('im_messages as m')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('m.appkey', '=', appkey)
        .where('m.conv_key', '=', convKey)
        .where('m.sender_id', '<>', userId)
        .where('m.recalled', '=', 0)
        .where('m.ts', '>', after)
        .where((eb) => eb.not(eb.exists(deletedBy(eb, userId))))
        .executeTakeFirst();
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
      return Number(row.read_ts);
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
      // In the order asked, so that callers and tests see a stable shape.
      return userIds.filter((u) => found.has(u)).map((userId) => ({ userId, offset: found.get(userId) ?? 0 }));
    },
  };
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
