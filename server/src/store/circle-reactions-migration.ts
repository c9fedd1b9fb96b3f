import type { Kysely, Migration } from 'kysely';

/**
 * `0042_circle_reactions`: comments on circle posts and likes of them (spec §1 "comment, like"), in tables shaped as
 * the articles' are, so that one store serves both: the column naming what is commented on or liked is `subject_id`
 * in all four (the articles' `article_id` is renamed to it). Comments newest first for each post, a deleted one
 * keeping its row; one like per member and post, newest first for the like list.
 */
export const circleReactionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['article_comments', 'article_likes']) {
      await db.schema.alterTable(table).renameColumn('article_id', 'subject_id').execute();
    }
    await db.schema
      .createTable('circle_comments')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('subject_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('circle_comments_by_post')
      .on('circle_comments')
      .columns(['subject_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('circle_comments_by_member')
      .on('circle_comments')
      .columns(['member_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('circle_likes')
      .addColumn('subject_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('circle_likes_pk', ['subject_id', 'member_id'])
      .execute();
    await db.schema
      .createIndex('circle_likes_by_time')
      .on('circle_likes')
      .columns(['subject_id', 'created_at', 'member_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('circle_likes').execute();
    await db.schema.dropTable('circle_comments').execute();
    for (const table of ['article_likes', 'article_comments']) {
      await db.schema.alterTable(table).renameColumn('subject_id', 'article_id').execute();
    }
  },
};
