import type { Kysely } from 'kysely';
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
   * the time it is stored with (the earlier one for a duplicate).
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
  /** Deletes a channel's messages older than `before` and all but its newest `keep`; returns how many. */
  prune(params: { appkey: string; channel: string; keep: number; before: number }): Promise<number>;
  /** Deletes the messages of every channel of every app stored before `before`; returns how many. */
  pruneOlderThan(before: number): Promise<number>;
}

/** The Kysely implementation of {@link PubsubStore}. */
export function createPubsubStore(database: Kysely<Database>): PubsubStore {
  const db = database.withTables<PubsubTables>();
  return {
    async append({ appkey, channel, guid, time, content }) {
      const result = await db
        .insertInto('pubsub_messages')
        .values({ appkey, channel, guid, time, content })
        .onConflict((oc) => oc.columns(['appkey', 'guid']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return { inserted: true, time };
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
