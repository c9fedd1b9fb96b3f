import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from './index.js';
import type { Database } from './schema.js';

/** `pubsub_messages`: the history of pub/sub channels (migration `0003_pubsub`). */
export interface PubsubMessagesTable {
  appkey: string;
  guid: string;
  channel: string;
  /** Server time, ms; strictly increasing per channel. */
  time: number;
  content: string;
}

/** The pub/sub tables, added to the shared schema type only here. */
export type PubsubTables = {
  pubsub_messages: PubsubMessagesTable;
};

/** A channel message as stored. */
export interface StoredPubsubMessage {
  time: number;
  content: string;
}

/** Pub/sub history in storage. Times are ms since the epoch, passed in by the caller. */
export interface PubsubStore {
  /**
   * Stores a message unless one with the same (appkey, guid) is stored already. Returns whether it was new and
   * the time it is stored with: `time`, or just after the channel's newest message when that is as new (another
   * node stored it in the same millisecond, or its clock is ahead), so that times stay strictly increasing per
   * channel across nodes (PUB-7); for a duplicate, the time stored the first time.
   */
  append(message: {
    appkey: string;
    channel: string;
    guid: string;
    time: number;
    content: string;
  }): Promise<{ inserted: boolean; time: number }>;
  /** The newest `limit` messages of a channel at or after `since`, oldest first. */
  history(params: { appkey: string; channel: string; limit: number; since: number }): Promise<StoredPubsubMessage[]>;
  /** The time of the newest stored message of each of `channels` that has one. */
  newest(params: { appkey: string; channels: readonly string[] }): Promise<Map<string, number>>;
  /** Deletes a channel's messages older than `before` and all but its newest `keep`; returns how many. */
  prune(params: { appkey: string; channel: string; keep: number; before: number }): Promise<number>;
  /** Deletes the messages of every channel of every app stored before `before`; returns how many. */
  pruneOlderThan(before: number): Promise<number>;
}

/** The Kysely implementation of {@link PubsubStore}. */
export function createPubsubStore(database: Kysely<Database>, dialect: StoreDialect): PubsubStore {
  const db = database.withTables<PubsubTables>();
  /** Inserts with a time past the channel's newest in one statement; the time stored, or none for a duplicate. */
  const insert = async (
    into: Kysely<Database & PubsubTables>,
    { appkey, channel, guid, time, content }: Parameters<PubsubStore['append']>[0],
  ): Promise<number | undefined> => {
    const greatest = dialect === 'postgres' ? sql.raw('greatest') : sql.raw('max');
    // `where true`: SQLite reads an upsert's `on conflict` after a select only when the select has a where clause.
    const { rows } = await sql<{ time: number | string }>`
      insert into pubsub_messages (appkey, channel, guid, time, content)
      select ${appkey}, ${channel}, ${guid}, ${greatest}(${time}, coalesce((
        select max(time) from pubsub_messages where appkey = ${appkey} and channel = ${channel}
      ) + 1, 0)), ${content}
      where true
      on conflict (appkey, guid) do nothing
      returning time`.execute(into);
    return rows[0] === undefined ? undefined : Number(rows[0].time);
  };
  return {
    async append(message) {
      const { appkey, channel, guid, time } = message;
      const stored =
        dialect === 'postgres'
          ? // Two nodes appending to one channel at once would read the same newest time: one after the other.
            await db.transaction().execute(async (trx) => {
              await sql`select pg_advisory_xact_lock(hashtext(${`pubsub\n${appkey}\n${channel}`}))`.execute(trx);
              return insert(trx, message);
            })
          : // One statement, which SQLite runs whole: no other write comes between its read and its insert.
            await insert(db, message);
      if (stored !== undefined) return { inserted: true, time: stored };
      const row = await db
        .selectFrom('pubsub_messages')
        .select('time')
        .where('appkey', '=', appkey)
        .where('guid', '=', guid)
        .executeTakeFirst();
      return { inserted: false, time: Number(row?.time ?? time) };
    },
    async history({ appkey, channel, limit, since }) {
      const rows = await db
        .selectFrom('pubsub_messages')
        .select(['time', 'content'])
        .where('appkey', '=', appkey)
        .where('channel', '=', channel)
        .where('time', '>=', since)
        .orderBy('time', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => ({ time: Number(r.time), content: r.content }));
    },
    async newest({ appkey, channels }) {
      if (channels.length === 0) return new Map();
      const rows = await db
        .selectFrom('pubsub_messages')
        .select((eb) => ['channel', eb.fn.max('time').as('time')])
        .where('appkey', '=', appkey)
        .where('channel', 'in', channels)
        .groupBy('channel')
        .execute();
      return new Map(rows.map((r) => [r.channel, Number(r.time)]));
    },
    async prune({ appkey, channel, keep, before }) {
      const boundary = await db
        .selectFrom('pubsub_messages')
        .select('time')
        .where('appkey', '=', appkey)
        .where('channel', '=', channel)
        .orderBy('time', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      const cutoff = Math.max(before, boundary ? Number(boundary.time) + 1 : Number.NEGATIVE_INFINITY);
      const result = await db
        .deleteFrom('pubsub_messages')
        .where('appkey', '=', appkey)
        .where('channel', '=', channel)
        .where('time', '<', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async pruneOlderThan(before) {
      const result = await db.deleteFrom('pubsub_messages').where('time', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
