import type { Kysely, Migration } from 'kysely';

/**
 * `0026_reports`: members' reports of content (spec §1 "report", §2 article/jubao_view, §7
 * `member/jubao_add/type/{type}/aid/{id}`): what was reported and why, and the operator's decision (pending, upheld
 * with the content removed, or dismissed, with a reason). Read by the reporter, newest first, and by the operator's
 * queue, oldest first.
 */
export const reportsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_reports')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('target_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('member_reports_by_member')
      .on('member_reports')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('member_reports_by_status')
      .on('member_reports')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('member_reports_by_target')
      .on('member_reports')
      .columns(['type', 'target_id', 'status'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_reports').execute();
  },
};
