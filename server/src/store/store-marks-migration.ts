import type { Kysely, Migration } from 'kysely';

/**
 * `0011_store_marks`: named numbers the store keeps about itself. The SQLite send path writes senders' read offsets
 * (IM-7) and groups' head times (IM-6) a moment after their messages, together (`later-writes.ts`), and records here
 * up to which message they are written, so that a start after a crash makes the ones that were not. PostgreSQL
 * writes them with each message and keeps no mark.
 */
export const storeMarksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('store_marks')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('store_marks').execute();
  },
};
