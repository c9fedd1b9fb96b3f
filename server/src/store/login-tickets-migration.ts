import type { Kysely, Migration } from 'kysely';

/**
 * `0044_login_tickets`: sign-in by QR code (spec §2 user/scan-login). A device that is not signed in shows a ticket as
 * a QR code and polls it with a key only it holds; a member signed in on their phone scans the code and confirms, and
 * the device's next poll takes the ticket and gets a session of its own. Rows live a couple of minutes; each new
 * ticket removes the expired ones, by the index on their expiry.
 */
export const loginTicketsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('login_tickets')
      .addColumn('ticket', 'varchar(64)', (c) => c.primaryKey())
      // The poll key, kept as its SHA-256 (hex): a copy of the table does not let anyone take a confirmed ticket.
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
      // waiting, scanned, confirmed or cancelled.
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      // Who scanned it; null while waiting.
      .addColumn('member_id', 'varchar(64)')
      // The device that asked, as the phone shows it ("Chrome on Windows"), and its address.
      .addColumn('device', 'varchar(200)', (c) => c.notNull())
      .addColumn('address', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_tickets_by_expiry').on('login_tickets').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('login_tickets').execute();
  },
};
