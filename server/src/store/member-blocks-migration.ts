import type { Kysely, Migration } from 'kysely';

/**
 * `0016_member_blocks`: the product app's block list (spec §2 member/lahei): who blocked whom, and when. Read by the
 * blocker's list (newest first) and by the messaging server for each private message of the app (either way round).
 */
export const memberBlocksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_blocks')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('blocked_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_blocks_pk', ['member_id', 'blocked_id'])
      .execute();
    await db.schema
      .createIndex('member_blocks_by_time')
      .on('member_blocks')
      .columns(['member_id', 'created_at', 'blocked_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_blocks').execute();
  },
};
