import type { Kysely, Migration } from 'kysely';

/**
 * `0029_circle_posts`: members' circle posts (spec §1 "circle posts (images, or a video, or a vote)", §2 quanzi):
 * the text with images or a vote, newest first for the circle and for each author, and the votes cast, one per
 * member and post, counted by option.
 */
export const circlePostsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('circle_posts')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('vote_options', 'text')
      .addColumn('vote_ends_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.createIndex('circle_posts_by_time').on('circle_posts').columns(['created_at', 'id']).execute();
    await db.schema
      .createIndex('circle_posts_by_member')
      .on('circle_posts')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('circle_votes')
      .addColumn('post_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('option', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('circle_votes_pk', ['post_id', 'member_id'])
      .execute();
    await db.schema.createIndex('circle_votes_by_member').on('circle_votes').column('member_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('circle_votes').execute();
    await db.schema.dropTable('circle_posts').execute();
  },
};
