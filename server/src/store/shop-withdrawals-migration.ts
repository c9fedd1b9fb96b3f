import type { Kysely, Migration } from 'kysely';

/**
 * `0039_shop_withdrawals`: seller withdrawal (spec §2 shop/business-tixian): a withdrawal now says what it pays out,
 * gold coins (`coins`, every withdrawal before) or the seller's sales income from the money wallet (`shop`), so that
 * one operator queue reviews both. The member's list of each source reads the new index.
 */
export const shopWithdrawalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('member_withdrawals')
      .addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('coins'))
      .execute();
    await db.schema
      .createIndex('member_withdrawals_by_source')
      .on('member_withdrawals')
      .columns(['member_id', 'source', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('member_withdrawals_by_source').execute();
    await db.schema.alterTable('member_withdrawals').dropColumn('source').execute();
  },
};
