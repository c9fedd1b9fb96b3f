import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * `0057_order_claims`: the buyers' guarantee claims on their orders (spec §9 "Damage refund: within 72 hours (24
 * hours for food and fresh items)", "Counterfeit compensation: four times"), decided by the operator. A claim keeps
 * its kind, the buyer's description and photos, its state, the operator's reason and what an upheld one paid back and
 * paid as compensation (fen). An order keeps the id and the state of its latest claim, so that its lists, its
 * settlement and its refunds read them without a join, and so that a claim and a refund asked for at once meet on the
 * order's row. Claims are read by order, and by state and age for the operator's queue. A product category may be
 * marked `fresh` (food and fresh items: the damage refund's shorter time); the categories there were are not. A
 * wallet line's kind takes up to 32 characters, for `claim_compensation` (SQLite keeps any length already).
 */
export const orderClaimsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('order_claims')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('order_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('buyer_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('seller_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('description', 'varchar(512)', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(512)', (c) => c.notNull().defaultTo(''))
      .addColumn('refund', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('compensation', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('decided_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('order_claims_by_order')
      .on('order_claims')
      .columns(['order_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('order_claims_by_status')
      .on('order_claims')
      .columns(['status', 'created_at'])
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('claim_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('orders')
      .addColumn('claim_status', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('product_categories')
      .addColumn('fresh', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await db.schema
        .alterTable('member_money')
        .alterColumn('kind', (c) => c.setDataType('varchar(32)'))
        .execute();
    }
  },
  // The wallet lines' kinds stay 32 characters wide: their claims' lines stay in the ledger, whose sum is the balance.
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('product_categories').dropColumn('fresh').execute();
    await db.schema.alterTable('orders').dropColumn('claim_status').execute();
    await db.schema.alterTable('orders').dropColumn('claim_id').execute();
    await db.schema.dropTable('order_claims').execute();
  },
};
