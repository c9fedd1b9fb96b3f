import type { Kysely, Migration } from 'kysely';

/**
 * `0019_member_certifications`: real-name certification (spec §2 member/renzheng, §4): each member's latest
 * submission, personal or enterprise, and where its review stands (pending, failed with a reason, passed). Read by
 * the member, and by the operator's review queue (pending first, oldest first).
 */
export const memberCertificationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_certifications')
      .addColumn('member_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('number', 'varchar(32)', (c) => c.notNull())
      .addColumn('images', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('submitted_at', 'bigint', (c) => c.notNull())
      .addColumn('reviewed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('member_certifications_by_status')
      .on('member_certifications')
      .columns(['status', 'submitted_at', 'member_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_certifications').execute();
  },
};
