import type { Kysely, Migration } from 'kysely';

/**
 * `0017_member_addresses`: members' shipping addresses (spec §2 member/address, §3 Address: receiving phone, shipping
 * address, default flag), with the receiver's name and region as the address form asks. Read per member.
 */
export const memberAddressesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_addresses')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('phone', 'varchar(32)', (c) => c.notNull())
      .addColumn('region', 'varchar(256)', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('member_addresses_by_member').on('member_addresses').column('member_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_addresses').execute();
  },
};
