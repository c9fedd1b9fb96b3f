import type { Kysely, Migration } from 'kysely';

/**
 * `0035_order_refunds`: refunds of orders (spec §3 "Refund: amount, reason, supplementary description, up to 3 proof
 * images"; §4 "the buyer applies; the merchant reviews and agrees (with or without return of goods) or refuses with a
 * reason; the buyer may cancel; after return and acceptance the money goes to the wallet. An ended order cannot be
 * refunded"). An order keeps the id and the state of its latest refund, so that its lists and its next steps read
 * them without a join. Refunds are read by state and age when time settles them.
 */
export const orderRefundsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('order_refunds')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('order_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'varchar(64)', (c) => c.notNull())
      .addColumn('description', 'varchar(512)', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('refuse_reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('return_company', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('return_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('order_refunds_by_order')
      .on('order_refunds')
      .columns(['order_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('order_refunds_by_status')
      .on('order_refunds')
      .columns(['status', 'updated_at'])
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('refund_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('refund_status', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').dropColumn('refund_status').execute();
    await db.schema.alterTable('orders').dropColumn('refund_id').execute();
    await db.schema.dropTable('order_refunds').execute();
  },
};
