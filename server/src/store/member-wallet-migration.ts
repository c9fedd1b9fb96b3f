import type { Kysely, Migration } from 'kysely';

/**
 * `0031_member_wallet`: the money wallet (spec §2 member/money, recharge, money-records, recharge-records; §5
 * "Recharge: minimum 1 yuan, whole numbers, maximum 100000 yuan"): each member's recharges, where each stands
 * (unpaid, success, failed with a reason, cancelled), and the wallet's ledger, whose sum is the balance. Amounts are
 * integers in fen (0.01 yuan), so that sums are exact. Read by the member, newest first, and by the operator's queue,
 * oldest first.
 */
export const memberWalletMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_recharges')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('method', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('reference', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('member_recharges_by_member')
      .on('member_recharges')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('member_recharges_by_status')
      .on('member_recharges')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('member_money')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('ref', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('member_money_by_member')
      .on('member_money')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_money').execute();
    await db.schema.dropTable('member_recharges').execute();
  },
};
