import type { Kysely, Migration } from 'kysely';

/**
 * `0059_session_replay`: where a session's next replay starts when its last connection left chat messages pushed and
 * not acknowledged (IM-24), and the messages that connection sent itself since, which the replay leaves out.
 */
export const sessionReplayMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('replay_from', 'bigint').execute();
    await db.schema.alterTable('sessions').addColumn('replay_except', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').dropColumn('replay_except').execute();
    await db.schema.alterTable('sessions').dropColumn('replay_from').execute();
  },
};
