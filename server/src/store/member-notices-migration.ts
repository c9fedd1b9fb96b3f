import type { Kysely, Migration } from 'kysely';

/**
 * `0020_member_notices`: the product app's notifications (spec §2 member/notify, member/sz-notify; §3
 * member_notify_badge): what happened to a member (a new follower, a certification reviewed), newest first, read or
 * not; one per `dedupe_key`, so that a follower who follows again raises the same one. And each member's notification
 * settings: the kinds they switched off.
 */
export const memberNoticesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_notices')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('dedupe_key', 'varchar(96)', (c) => c.notNull())
      .addColumn('actor_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('read_at', 'bigint')
      .addUniqueConstraint('member_notices_once', ['member_id', 'dedupe_key'])
      .execute();
    await db.schema
      .createIndex('member_notices_by_time')
      .on('member_notices')
      .columns(['member_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('member_notify_settings')
      .addColumn('member_id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('off', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('member_notify_settings').execute();
    await db.schema.dropTable('member_notices').execute();
  },
};
