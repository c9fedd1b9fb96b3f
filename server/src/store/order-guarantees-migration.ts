import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `0055_order_guarantees`: the shop's service guarantees (spec §9 "Shipping promise: within 48 hours", "No-reason
 * return: 7 days", "Late-delivery compensation coupon: at least 3 yuan"). An order keeps when its seller was paid its
 * proceeds (`settled_at`): a completed order's proceeds wait until its return window passed with no refund under way,
 * so that a return never takes back money the seller already had. Orders completed or refunded before keep the
 * payment they had then: they count as settled at that time. An order keeps the compensation its buyer got for late
 * delivery (`compensation` fen, `compensated_at`), given once and charged to the seller when the order settles.
 * Completed orders are read by completion when their window passes, and paid ones by payment when they are late.
 */
export const orderGuaranteesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('orders').addColumn('settled_at', 'bigint').execute();
    await db.schema
      .alterTable('orders')
      .addColumn('compensation', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('orders').addColumn('compensated_at', 'bigint').execute();
    await sql`update orders set settled_at = completed_at where status = 'completed'`.execute(db);
    await sql`update orders set settled_at = closed_at where status = 'refunded'`.execute(db);
    await db.schema.createIndex('orders_by_completed').on('orders').columns(['status', 'completed_at']).execute();
    await db.schema.createIndex('orders_by_paid').on('orders').columns(['status', 'paid_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('orders_by_paid').execute();
    await db.schema.dropIndex('orders_by_completed').execute();
    await db.schema.alterTable('orders').dropColumn('compensated_at').execute();
    await db.schema.alterTable('orders').dropColumn('compensation').execute();
    await db.schema.alterTable('orders').dropColumn('settled_at').execute();
  },
};
