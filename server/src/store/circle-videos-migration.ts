import type { Kysely, Migration } from 'kysely';

/**
 * `0041_circle_videos`: a circle post may hold a video with its cover (spec §1 "circle posts (images, or a video, or a
 * vote)"; §4 "A video is uploaded first, then its cover, then the post"): both URLs, empty for a post without one.
 */
export const circleVideosMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['video_url', 'video_cover']) {
      await db.schema
        .alterTable('circle_posts')
        .addColumn(column, 'varchar(1024)', (c) => c.notNull().defaultTo(''))
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['video_cover', 'video_url']) {
      await db.schema.alterTable('circle_posts').dropColumn(column).execute();
    }
  },
};
