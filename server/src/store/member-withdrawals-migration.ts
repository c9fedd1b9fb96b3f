import type { Kysely, Migration } from 'kysely';

/**
 * `0022_member_withdrawals`: coin withdrawal (spec §2 renwu/tixian_band, tixian, tixian_list; §3 "Withdrawal
 * account: Alipay account and real name, or a WeChat receipt code image"): each member's bound accounts, and their
 * withdrawals with the account each was paid to, where its review stands (pending, paid, rejected with a reason).
 * Read by the member, newest first, and by the operator's queue, oldest first.
 */
export const memberWithdrawalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_payout_accounts')
      .addColumn('member_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('alipay_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('alipay_account', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('wechat_code', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('member_withdrawals')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('coins', 'integer', (c) => c.notNull())
      .addColumn('method', 'varchar(16)', (c) => c.notNull())
      .addColumn('account_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('account', 'varchar(1024)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('member_withdrawals_by_member')
      .on('member_withdrawals')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('member_withdrawals_by_status')
      .on('member_withdrawals')
      .columns(['status', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_withdrawals').execute();
    await db.schema.dropTable('member_payout_accounts').execute();
  },
};
