import type { Kysely, Migration } from 'kysely';

/**
 * `0034_orders`: the shop's orders (spec §3 "Order: order number, time, payment status, payment method, actual
 * payment"; §4 "unpaid, paid and awaiting delivery, shipped and awaiting receipt, transaction complete, ...,
 * cancelled"; "Payment flow: fetch an order code, then pay by balance"). One order per shop of a checkout, all under
 * the checkout's code; each holds what was bought as it was then (title, image, price in fen) and where it goes.
 * Read by the buyer and by the seller newest first (of a status or all), by code when paid, and by status and age
 * when unpaid ones expire and shipped ones complete by themselves.
 */
export const ordersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('orders')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('code', 'varchar(32)', (c) => c.notNull())
      .addColumn('buyer_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('seller_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('shop_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('total', 'bigint', (c) => c.notNull())
      .addColumn('pay_method', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('logistics_company', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('logistics_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('shipped_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .execute();
    await db.schema.createIndex('orders_by_code').on('orders').columns(['code']).execute();
    await db.schema
      .createIndex('orders_by_buyer')
      .on('orders')
      .columns(['buyer_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('orders_by_buyer_time')
      .on('orders')
      .columns(['buyer_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('orders_by_seller')
      .on('orders')
      .columns(['seller_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('orders_by_seller_time')
      .on('orders')
      .columns(['seller_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('orders_by_status').on('orders').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('orders_by_shipped').on('orders').columns(['status', 'shipped_at']).execute();
    await db.schema
      .createTable('order_items')
      .addColumn('order_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('product_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('image', 'varchar(1024)', (c) => c.notNull())
      .addColumn('price', 'bigint', (c) => c.notNull())
      .addColumn('quantity', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('order_items_pk', ['order_id', 'position'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('order_items').execute();
    await db.schema.dropTable('orders').execute();
  },
};
