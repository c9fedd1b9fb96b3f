import type { Kysely, Migration } from 'kysely';

/**
 * `0038_shop_announcements`: the operator's announcements to sellers (spec §2 shop/business-gonggao,
 * business-gonggao-view) and which of them each member has read. Announcements are read pinned first, then newest
 * first, by an index in that order; a member's reads are found by member and announcement, and dropped with their
 * announcement by the second index.
 */
export const shopAnnouncementsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shop_announcements')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('title', 'varchar(256)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      // 0 or 1: SQLite has no boolean.
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('shop_announcements_by_order')
      .on('shop_announcements')
      .columns(['pinned', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('shop_announcement_reads')
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('announcement_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('read_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('shop_announcement_reads_pk', ['member_id', 'announcement_id'])
      .execute();
    await db.schema
      .createIndex('shop_announcement_reads_by_announcement')
      .on('shop_announcement_reads')
      .column('announcement_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('shop_announcement_reads').execute();
    await db.schema.dropTable('shop_announcements').execute();
  },
};
