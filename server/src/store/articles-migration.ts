import type { Kysely, Migration } from 'kysely';

/**
 * `0024_articles`: members' articles (spec §1 "publish articles", §2 article/view, member/add-article): title, text
 * and images, newest first for the feed and for each author; a deleted one keeps its row with the time it was
 * deleted, so that a link to it says it was deleted.
 */
export const articlesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('articles')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.createIndex('articles_by_time').on('articles').columns(['created_at', 'id']).execute();
    await db.schema
      .createIndex('articles_by_member')
      .on('articles')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('articles').execute();
  },
};
