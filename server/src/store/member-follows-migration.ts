import type { Kysely, Migration } from 'kysely';

/**
 * `0018_member_follows`: who follows whom, and since when (spec §2 member/guanzhu, §5 "A user cannot follow
 * themselves"). Read both ways, newest first: a member's follows by `member_id`, their fans by `followed_id`.
 */
export const memberFollowsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_follows')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('followed_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_follows_pk', ['member_id', 'followed_id'])
      .execute();
    await db.schema
      .createIndex('member_follows_by_time')
      .on('member_follows')
      .columns(['member_id', 'created_at', 'followed_id'])
      .execute();
    await db.schema
      .createIndex('member_fans_by_time')
      .on('member_follows')
      .columns(['followed_id', 'created_at', 'member_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_follows').execute();
  },
};
