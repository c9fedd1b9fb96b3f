import type { Kysely, Migration } from 'kysely';

/**
 * `0027_article_collections`: the articles members collect (spec §1 "collect", §2 member/record): one row per member
 * and article, newest first for the member's collection.
 */
export const articleCollectionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('article_collections')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('article_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('article_collections_pk', ['member_id', 'article_id'])
      .execute();
    await db.schema
      .createIndex('article_collections_by_time')
      .on('article_collections')
      .columns(['member_id', 'created_at', 'article_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('article_collections').execute();
  },
};
