import type { Kysely, Migration } from 'kysely';

/**
 * `0033_products`: the shop's products (spec §3 "Product: title, price, classification, stock, detailed body, images";
 * §4 "on sale, to be reviewed, review rejected, off shelf, violation prohibited"; §8 "the classification does not
 * exist, reselect") and the operator's classifications. Prices in fen. Read on sale newest first (of a
 * classification, or of a shop), by their seller newest first, and by the operator's queue oldest first.
 */
export const productsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('product_categories')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema
      .createTable('products')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('shop_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('category_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('stock', 'integer', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .execute();
    await db.schema.createIndex('products_by_status').on('products').columns(['status', 'created_at', 'id']).execute();
    await db.schema
      .createIndex('products_by_category')
      .on('products')
      .columns(['category_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('products_by_shop')
      .on('products')
      .columns(['shop_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('products_by_member')
      .on('products')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('products').execute();
    await db.schema.dropTable('product_categories').execute();
  },
};
