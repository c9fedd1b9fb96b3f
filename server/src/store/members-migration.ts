import type { Kysely, Migration } from 'kysely';

/**
 * `0005_members`: the product app's members, their login tokens and the SMS codes sent to them. Kept apart from the
 * messaging `users` table: a member is a product account, a messaging user is whoever authorized with an otp.
 */
export const membersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('members')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('phone', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('username', 'varchar(64)', (c) => c.notNull())
      .addColumn('img', 'text', (c) => c.notNull())
      .addColumn('notify_badge', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('member_tokens')
      .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    // One pending code per phone: a new send replaces it, a login consumes it.
    await db.schema
      .createTable('member_codes')
      .addColumn('phone', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('code', 'varchar(16)', (c) => c.notNull())
      .addColumn('sent_at', 'bigint', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['member_codes', 'member_tokens', 'members']) await db.schema.dropTable(table).execute();
  },
};
