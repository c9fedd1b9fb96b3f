import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `0047_live`: live streaming rooms (spec §1 "Live anchors and audiences", §4 "Live: not started, live, ended"), their
 * chat lines and the anchors' bans of viewers. The list of rooms reads by the index on status and place in the list;
 * a room's chat and bans by indexes on the room. A partial unique index lets a member hold one room not ended.
 */
export const liveMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_rooms')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('anchor_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('title', 'varchar(120)', (c) => c.notNull())
      .addColumn('cover', 'varchar(1024)', (c) => c.notNull())
      // 0 not started, 1 live, 2 ended.
      .addColumn('status', 'integer', (c) => c.notNull())
      // The public stream name in the play and push URLs, and the secret key only the push URL carries.
      .addColumn('stream', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('push_key', 'varchar(64)', (c) => c.notNull())
      // The product ids on show, in order: a JSON array.
      .addColumn('goods', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('ended_at', 'bigint')
      // Where the room stands in the list: its creation, then its start.
      .addColumn('listed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('live_rooms_listed').on('live_rooms').columns(['status', 'listed_at', 'id']).execute();
    await db.schema
      .createIndex('live_rooms_open')
      .on('live_rooms')
      .column('anchor_id')
      .unique()
      .where(sql.ref('status'), '<', 2)
      .execute();
    await db.schema
      .createIndex('live_rooms_by_anchor')
      .on('live_rooms')
      .columns(['anchor_id', 'status', 'ended_at'])
      .execute();

    await db.schema
      .createTable('live_messages')
      .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('room_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('text', 'varchar(400)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('live_messages_by_room')
      .on('live_messages')
      .columns(['room_id', 'created_at', 'id'])
      .execute();

    await db.schema
      .createTable('live_bans')
      .addColumn('room_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('member_id', 'varchar(64)', (c) => c.notNull())
      // mute or kick.
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('live_bans_pk', ['room_id', 'member_id'])
      .execute();
    await db.schema.createIndex('live_bans_by_time').on('live_bans').columns(['room_id', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['live_bans', 'live_messages', 'live_rooms']) await db.schema.dropTable(table).execute();
  },
};
