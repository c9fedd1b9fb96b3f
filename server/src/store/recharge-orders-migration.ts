import type { Kysely, Migration } from 'kysely';

/**
 * `0056_recharge_orders`: a recharge may pay a checkout's orders (spec §4 "Payment flow: fetch an order code, then
 * pay by balance, by a card/wallet provider, or by in-browser payment"): it names the orders' code, and once paid the
 * orders are paid from the money it brought. A wallet's own recharges name none, the empty code. Found by the member
 * and the code, newest first.
 */
export const rechargeOrdersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('member_recharges')
      .addColumn('order_code', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createIndex('member_recharges_by_order')
      .on('member_recharges')
      .columns(['member_id', 'order_code', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('member_recharges_by_order').execute();
    await db.schema.alterTable('member_recharges').dropColumn('order_code').execute();
  },
};
