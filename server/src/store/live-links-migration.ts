import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `0048_live_links`: co-broadcast in live rooms (spec §1 "live streaming with audience co-broadcast", §4
 * "Co-broadcast: request, wait, accept or reject, cancel, ended"): one row per room and member, with its status. A
 * room's requests and guests read by the index on room and status; a guest's push by the unique index on their
 * stream; a member's links, for a cancellation, by the index on the member.
 */
export const liveLinksMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_links')
      .addColumn('room_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      // waiting, accepted, rejected, cancelled or ended.
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      // The guest's public stream name and secret push key, made at each acceptance: null before the first.
      .addColumn('stream', 'varchar(32)')
      .addColumn('push_key', 'varchar(64)')
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint')
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('live_links_pk', ['room_id', 'member_id'])
      .execute();
    await db.schema
      .createIndex('live_links_by_status')
      .on('live_links')
      .columns(['room_id', 'status', 'requested_at'])
      .execute();
    await db.schema
      .createIndex('live_links_stream')
      .on('live_links')
      .column('stream')
      .unique()
      .where(sql.ref('stream'), 'is not', null)
      .execute();
    await db.schema.createIndex('live_links_by_member').on('live_links').columns(['member_id', 'status']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('live_links').execute();
  },
};
