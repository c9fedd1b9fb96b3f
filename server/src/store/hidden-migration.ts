import type { Kysely, Migration } from 'kysely';

/**
 * `0046_member_hidden`: what a member hid from their feeds (spec §7 `member/yinbi/name/{name}/aid/{id}`, "Not
 * interested"): articles (videos among them) and circle posts. The feeds leave out a member's hidden rows by the
 * primary key; the member's newest are kept, by the index on time.
 */
export const hiddenMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_hidden')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      // article (a video is one) or quanzi.
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('subject_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_hidden_pk', ['member_id', 'kind', 'subject_id'])
      .execute();
    await db.schema
      .createIndex('member_hidden_by_time')
      .on('member_hidden')
      .columns(['member_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_hidden').execute();
  },
};
