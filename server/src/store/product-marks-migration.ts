import type { Kysely, Migration } from 'kysely';

/**
 * `0037_product_marks`: the products a member keeps (spec §2 shop/shoucang, favourites) and those they looked at
 * (shop/history, browsing history): one row per member, list and product, its time the latest keeping or look, read
 * newest first per member and list.
 */
export const productMarksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('product_marks')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('list', 'varchar(16)', (c) => c.notNull())
      .addColumn('product_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_marks_pk', ['member_id', 'list', 'product_id'])
      .execute();
    await db.schema
      .createIndex('product_marks_by_time')
      .on('product_marks')
      .columns(['member_id', 'list', 'created_at', 'product_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('product_marks').execute();
  },
};
