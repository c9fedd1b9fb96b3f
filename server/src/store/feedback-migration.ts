import type { Kysely, Migration } from 'kysely';

/**
 * `0013_member_feedback`: what members report through the app's feedback page (spec §2 member/feedback, §3 Feedback:
 * contact phone, description, screenshots). A member's list is read newest first, and a member's recent count bounds
 * how often they may send one; both walk the index by member and time.
 */
export const feedbackMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_feedback')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('phone', 'varchar(32)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      // A JSON array of the screenshots' URLs.
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('member_feedback_by_member')
      .on('member_feedback')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_feedback').execute();
  },
};
