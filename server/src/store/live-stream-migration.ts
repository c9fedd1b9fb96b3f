import type { Kysely, Migration } from 'kysely';

/**
 * `0049_live_stream_lost`: when a live room's stream stopped reaching the media server (its `on_unpublish` hook), so
 * that a room whose anchor went away without ending it ends by itself (LIVE-17). Null while the stream arrives.
 */
export const liveStreamMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('live_rooms').addColumn('stream_lost_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('live_rooms').dropColumn('stream_lost_at').execute();
  },
};
