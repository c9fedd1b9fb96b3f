import type { Kysely, Migration } from 'kysely';

/**
 * `0003_pubsub`: the pub/sub history. One row per published message; (appkey, guid) is unique, which also
 * de-duplicates a re-sent publish across restarts for as long as the row is kept.
 */
export const pubsubMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pubsub_messages')
      .addColumn('appkey', 'varchar(128)', (c) => c.notNull())
      .addColumn('guid', 'varchar(64)', (c) => c.notNull())
      .addColumn('channel', 'varchar(128)', (c) => c.notNull())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pubsub_messages_pk', ['appkey', 'guid'])
      .execute();
    // History pages and retention walk one channel by time.
    await db.schema
      .createIndex('pubsub_messages_by_channel')
      .on('pubsub_messages')
      .columns(['appkey', 'channel', 'time'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pubsub_messages').execute();
  },
};
