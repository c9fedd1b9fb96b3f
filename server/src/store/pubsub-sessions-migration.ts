import type { Kysely, Migration } from 'kysely';

/** `pubsub_sessions`: one row per pub/sub session that subscribed or watched something (`0007_pubsub_sessions`). */
export interface PubsubSessionsTable {
  sid: string;
  appkey: string;
  user_id: string | null;
  /** The connection serving the session now; null while it has none. */
  connection_id: string | null;
  /** The node holding that connection. */
  node_id: string | null;
  /** When its last connection went away; null while connected. */
  offline_since: number | null;
}

/** `pubsub_subscriptions`: a session's channels. */
export interface PubsubSubscriptionsTable {
  sid: string;
  appkey: string;
  channel: string;
  /** 1 when the session is a presence member of the channel. */
  presence: number;
}

/** `pubsub_watches`: channels whose presence events a session watches. */
export interface PubsubWatchesTable {
  sid: string;
  channel: string;
}

/** `pubsub_pending`: a qos-1 message a session has not acked. */
export interface PubsubPendingTable {
  sid: string;
  appkey: string;
  guid: string;
  channel: string;
  time: number;
  /** The connection the message was pushed to live; another connection of the session gets it again. */
  delivered_to: string | null;
}

/** `pubsub_pending_messages`: the body of a pending qos-1 message, once for all its sessions. */
export interface PubsubPendingMessagesTable {
  appkey: string;
  guid: string;
  time: number;
  /** The JSON of the wire message. */
  body: string;
}

/** The pub/sub session tables, added to the shared schema type only here. */
export type PubsubSessionTables = {
  pubsub_sessions: PubsubSessionsTable;
  pubsub_subscriptions: PubsubSubscriptionsTable;
  pubsub_watches: PubsubWatchesTable;
  pubsub_pending: PubsubPendingTable;
  pubsub_pending_messages: PubsubPendingMessagesTable;
};

/**
 * `0007_pubsub_sessions`: what a pub/sub session (sid) holds, kept in the store so that it outlives a restart and
 * every node sees it (PUB-8, PUB-9): the session and the connection serving it, its channels with their presence
 * flag, its presence watches, and its unacked qos-1 messages (one row per session and message, the message body
 * once per message).
 */
export const pubsubSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const id = 'varchar(128)';
    const key = 'varchar(64)';
    await db.schema
      .createTable('pubsub_sessions')
      .addColumn('sid', key, (c) => c.primaryKey())
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('user_id', id)
      .addColumn('connection_id', key)
      .addColumn('node_id', key)
      .addColumn('offline_since', 'bigint')
      .execute();
    // PUB-9: the same user's sessions without a connection.
    await db.schema
      .createIndex('pubsub_sessions_by_user')
      .on('pubsub_sessions')
      .columns(['appkey', 'user_id'])
      .execute();
    // Expiry walks sessions by the time their last connection went away.
    await db.schema.createIndex('pubsub_sessions_offline').on('pubsub_sessions').column('offline_since').execute();
    // A node that stopped without cleanup: its sessions are released.
    await db.schema.createIndex('pubsub_sessions_by_node').on('pubsub_sessions').column('node_id').execute();
    await db.schema
      .createTable('pubsub_subscriptions')
      .addColumn('sid', key, (c) => c.notNull())
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('channel', id, (c) => c.notNull())
      .addColumn('presence', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('pubsub_subscriptions_pk', ['sid', 'channel'])
      .execute();
    // A qos-1 publish finds every session subscribed to its channel.
    await db.schema
      .createIndex('pubsub_subscriptions_by_channel')
      .on('pubsub_subscriptions')
      .columns(['appkey', 'channel'])
      .execute();
    await db.schema
      .createTable('pubsub_watches')
      .addColumn('sid', key, (c) => c.notNull())
      .addColumn('channel', id, (c) => c.notNull())
      .addPrimaryKeyConstraint('pubsub_watches_pk', ['sid', 'channel'])
      .execute();
    await db.schema
      .createTable('pubsub_pending')
      .addColumn('sid', key, (c) => c.notNull())
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('guid', key, (c) => c.notNull())
      .addColumn('channel', id, (c) => c.notNull())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('delivered_to', key)
      .addPrimaryKeyConstraint('pubsub_pending_pk', ['sid', 'guid'])
      .execute();
    // Message bodies nothing refers to any more are found through this one.
    await db.schema.createIndex('pubsub_pending_by_guid').on('pubsub_pending').columns(['appkey', 'guid']).execute();
    await db.schema
      .createTable('pubsub_pending_messages')
      .addColumn('appkey', id, (c) => c.notNull())
      .addColumn('guid', key, (c) => c.notNull())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pubsub_pending_messages_pk', ['appkey', 'guid'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'pubsub_pending_messages',
      'pubsub_pending',
      'pubsub_watches',
      'pubsub_subscriptions',
      'pubsub_sessions',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
