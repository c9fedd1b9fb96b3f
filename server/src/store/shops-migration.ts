import type { Kysely, Migration } from 'kysely';

/**
 * `0032_shops`: members' small shops (spec §1 "A seller needs real-name certification first and then approval of the
 * shop application"; §4 "under review (cannot be edited), rejected (resubmit), approved"; §5 "an icon, a name and a
 * description"): one per member, its application and where its review stands. Read by the member, and by the
 * operator's queue, oldest first.
 */
export const shopsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shops')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('icon', 'varchar(1024)', (c) => c.notNull())
      .addColumn('intro', 'varchar(1024)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('submitted_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .execute();
    await db.schema.createIndex('shops_by_status').on('shops').columns(['status', 'submitted_at', 'id']).execute();
    await db.schema.createIndex('shops_by_name').on('shops').columns(['name']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('shops').execute();
  },
};
