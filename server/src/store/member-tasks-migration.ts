import type { Kysely, Migration } from 'kysely';

/**
 * `0021_member_tasks`: the task centre (spec §1 "gold-coin task centre with daily sign-in (bonus on a 7-day
 * streak)", §2 renwu): each member's sign-ins by day with the streak they made, and their gold coins as a ledger of
 * what each sign-in paid, newest first.
 */
export const memberTasksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_signins')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('streak', 'integer', (c) => c.notNull())
      .addColumn('coins', 'integer', (c) => c.notNull())
      .addColumn('bonus', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_signins_pk', ['member_id', 'day'])
      .execute();
    await db.schema
      .createTable('member_coins')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('amount', 'integer', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('member_coins_by_time')
      .on('member_coins')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_coins').execute();
    await db.schema.dropTable('member_signins').execute();
  },
};
