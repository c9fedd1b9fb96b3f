import type { Kysely, Migration } from 'kysely';

/**
 * `0025_article_reactions`: comments on articles and likes of them (spec §1 "comment, like", §2 article/ping,
 * article/ping-zan): comments newest first for each article, a deleted one keeping its row; one like per member and
 * article, newest first for the like list.
 */
export const articleReactionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('article_comments')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('article_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('article_comments_by_article')
      .on('article_comments')
      .columns(['article_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('article_comments_by_member')
      .on('article_comments')
      .columns(['member_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('article_likes')
      .addColumn('article_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('article_likes_pk', ['article_id', 'member_id'])
      .execute();
    await db.schema
      .createIndex('article_likes_by_time')
      .on('article_likes')
      .columns(['article_id', 'created_at', 'member_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('article_likes').execute();
    await db.schema.dropTable('article_comments').execute();
  },
};
