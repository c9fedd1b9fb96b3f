import type { Kysely, Migration } from 'kysely';

/**
 * `0036_order_reviews`: the buyers' reviews of completed orders (spec §3 "Review: quality, service and logistics
 * ratings (1 to 5), text"; §2 shop user-ping-add, view-ping, user-ping, business-ping). One review per order, keyed by
 * the order's id, with the seller's answer. Read by the buyer and by the seller newest first (the seller's also those
 * not answered yet), and by product: each of the order's items keeps when it was reviewed, so that a product's reviews
 * are read in that order without a scan. An order keeps when it was reviewed, so that its lists find those waiting
 * for a review.
 */
export const orderReviewsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('order_reviews')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('buyer_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('seller_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('shop_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('quality', 'integer', (c) => c.notNull())
      .addColumn('service', 'integer', (c) => c.notNull())
      .addColumn('logistics', 'integer', (c) => c.notNull())
      .addColumn('content', 'varchar(1024)', (c) => c.notNull())
      .addColumn('reply', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .addColumn('replied_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('order_reviews_by_buyer')
      .on('order_reviews')
      .columns(['buyer_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('order_reviews_by_seller')
      .on('order_reviews')
      .columns(['seller_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('order_reviews_by_seller_replied')
      .on('order_reviews')
      .columns(['seller_id', 'replied_at', 'created_at', 'id'])
      .execute();
    await db.schema.alterTable('orders').addColumn('reviewed_at', 'bigint').execute();
    await db.schema.alterTable('order_items').addColumn('reviewed_at', 'bigint').execute();
    await db.schema
      .createIndex('order_items_by_product_review')
      .on('order_items')
      .columns(['product_id', 'reviewed_at', 'order_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('order_items_by_product_review').execute();
    await db.schema.alterTable('order_items').dropColumn('reviewed_at').execute();
    await db.schema.alterTable('orders').dropColumn('reviewed_at').execute();
    await db.schema.dropTable('order_reviews').execute();
  },
};
