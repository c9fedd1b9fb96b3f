import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `0050_live_link_stream_lost`: when a guest's stream stopped reaching the media server (its `on_unpublish` hook),
 * so that a guest who went away without leaving the stage leaves it by itself (LIVE-18). Null while the stream
 * arrives, and before it first does; the sweep reads the few lost ones by a partial index.
 */
export const liveLinkStreamMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('live_links').addColumn('stream_lost_at', 'bigint').execute();
    await db.schema
      .createIndex('live_links_stream_lost')
      .on('live_links')
      .column('stream_lost_at')
      .where(sql.ref('stream_lost_at'), 'is not', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('live_links_stream_lost').execute();
    await db.schema.alterTable('live_links').dropColumn('stream_lost_at').execute();
  },
};
