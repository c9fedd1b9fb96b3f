import type { Kysely, Migration } from 'kysely';

/**
 * `0009_pubsub_messages_by_time`: retention by age sweeps every channel, including channels nobody publishes to any
 * more, by time alone.
 */
export const pubsubTimeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('pubsub_messages_by_time').on('pubsub_messages').column('time').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('pubsub_messages_by_time').execute();
  },
};
