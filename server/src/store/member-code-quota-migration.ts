import type { Kysely, Migration } from 'kysely';

/**
 * `0012_member_code_quota`: how many SMS codes a phone was sent in its current quota window, and when that window
 * began, so that a phone gets a bounded number of codes (and so of guesses) a day. Rows that predate it start a new
 * window at their next send.
 */
export const memberCodeQuotaMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('member_codes')
      .addColumn('window_start', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('member_codes')
      .addColumn('window_sends', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('member_codes').dropColumn('window_sends').execute();
    await db.schema.alterTable('member_codes').dropColumn('window_start').execute();
  },
};
