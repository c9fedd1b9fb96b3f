import type { Kysely, Migration } from 'kysely';

/**
 * `0054_circle_titles`: a circle post has a title (spec §2 "Post creation: title, text, ..."; §5, §9 "Post title 5 to
 * 30 characters"); posts written before have none, the empty title, so that they read as they did.
 */
export const circleTitlesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('circle_posts')
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('circle_posts').dropColumn('title').execute();
  },
};
