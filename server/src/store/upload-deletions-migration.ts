import type { Kysely, Migration } from 'kysely';

/**
 * `0051_upload_deletions`: the files a cancelled account's data named, waiting to be deleted from the upload storage
 * (MEM-7). One row per cancelled member, written by the cancellation's transaction, so that a server stopping after
 * it still deletes them at its next sweep; removed once the files are gone.
 */
export const uploadDeletionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('upload_deletions')
      .addColumn('member_id', 'varchar(64)', (c) => c.primaryKey())
      // The texts (URLs, JSON lists of URLs) of what the cancellation deleted, one a line.
      .addColumn('refs', 'text', (c) => c.notNull())
      // The texts of what it kept that may name the same files (the accounts withdrawals were paid to).
      .addColumn('kept', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('upload_deletions').execute();
  },
};
