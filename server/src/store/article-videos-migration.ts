import type { Kysely, Migration } from 'kysely';

/**
 * `0040_article_videos`: videos (spec §2 video/view, member/add-video; §7 `member/video_add`, `video/lists/in/{id}`)
 * are articles with a video and its cover: both URLs, empty for plain articles, and a flag indexed with the time so
 * that videos list newest first, and plain articles too, without scanning the other kind.
 */
export const articleVideosMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('articles')
      .addColumn('video_url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('articles')
      .addColumn('video_cover', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('articles')
      .addColumn('is_video', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('articles_by_kind').on('articles').columns(['is_video', 'created_at', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('articles_by_kind').execute();
    for (const column of ['is_video', 'video_cover', 'video_url']) {
      await db.schema.alterTable('articles').dropColumn(column).execute();
    }
  },
};
