import { sql, type Kysely } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { endLinks, holdRoom } from './live-links.js';
import { holdOpenMember } from './member-lock.js';
import type { Database } from './schema.js';

/** Where a live room stands (spec §4 "Live: not started, live, ended"). */
export const LIVE_STATUS = { notStarted: 0, live: 1, ended: 2 } as const;
/** One of {@link LIVE_STATUS}. */
export type LiveStatus = (typeof LIVE_STATUS)[keyof typeof LIVE_STATUS];

/** What an anchor does to a viewer of their room: a muted viewer watches but cannot chat, a kicked one neither. */
export type LiveBanKind = 'mute' | 'kick';

/** A member as live rooms show them: empty name and avatar once cancelled. */
export interface LiveMember {
  id: string;
  username: string;
  img: string;
}

/** A live room as stored, with its anchor's name and avatar. */
export interface LiveRoomRecord {
  id: string;
  anchor: LiveMember;
  title: string;
  /** An image the anchor uploaded. */
  cover: string;
  status: LiveStatus;
  /** The public stream name, in the play and push URLs. */
  stream: string;
  /** The secret the push URL carries; the anchor's only. */
  pushKey: string;
  /** Product ids on show, in order. */
  goods: string[];
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
}

/** A new room, not started. */
export type NewLiveRoom = Pick<LiveRoomRecord, 'id' | 'title' | 'cover' | 'stream' | 'pushKey' | 'createdAt'> & {
  anchorId: string;
};

/** What adding a room came to: `uncertified` before a passed certification, `open` while another is not ended. */
export type LiveAddOutcome = 'ok' | 'uncertified' | 'open' | 'missing';

/** What a ban came to: whether the ban in force changed, and whether a kick ended the member's co-broadcast link. */
export interface LiveBanOutcome {
  changed: boolean;
  linkEnded: boolean;
}

/** A line of a room's chat, with its writer's name and avatar. */
export interface LiveLineRecord {
  id: string;
  roomId: string;
  member: LiveMember;
  text: string;
  createdAt: number;
}

/** An anchor's ban of a viewer, with the viewer's name and avatar. */
export interface LiveBanRecord {
  member: LiveMember;
  kind: LiveBanKind;
  createdAt: number;
}

/** Live rooms, their chat and bans. Every change is one conditional write, so that two calls at once cannot both pass. */
export interface LiveStore {
  /**
   * Adds a room not started, in one transaction that holds the anchor's row: `uncertified` unless their real-name
   * certification has passed, `open` while a room of theirs is not ended, `missing` when they are gone or cancelled.
   */
  add(room: NewLiveRoom): Promise<LiveAddOutcome>;
  byId(id: string): Promise<LiveRoomRecord | undefined>;
  byStream(stream: string): Promise<LiveRoomRecord | undefined>;
  /** The member's room not ended, if any. */
  openOf(anchorId: string): Promise<LiveRoomRecord | undefined>;
  /** The member's ended rooms, the latest ended first, at most `limit`. */
  endedOf(anchorId: string, limit: number): Promise<LiveRoomRecord[]>;
  /**
   * Rooms not ended, live ones first (the latest started first), then those not started (the newest first); none of
   * a member a block stands between with `viewerId`. `limit` from `offset`.
   */
  list(params: { viewerId: string; offset: number; limit: number }): Promise<LiveRoomRecord[]>;
  /** Starts room `id` of `anchorId` if it is not started: false, and nothing changed, otherwise. */
  start(id: string, anchorId: string, now: number): Promise<boolean>;
  /**
   * Ends room `id` of `anchorId` if it is not ended, and every co-broadcast link open in it, in one transaction: false,
   * and nothing changed, otherwise.
   */
  end(id: string, anchorId: string, now: number): Promise<boolean>;
  /**
   * LIVE-17: marks the stream of live room `id` lost at `now` (the media server's `on_unpublish`), or, with `now`
   * null, back; a room not live, or already so, is left as it is.
   */
  streamLost(id: string, now: number | null): Promise<void>;
  /**
   * LIVE-17: rooms to end by themselves: live ones whose stream was lost at `lostBefore` or earlier, and those not
   * started since `createdBefore` or earlier; at most `limit`.
   */
  stale(params: { lostBefore: number; createdBefore: number; limit: number }): Promise<LiveRoomRecord[]>;
  /** Sets the goods of room `id` of `anchorId` if it is not ended: false, and nothing changed, otherwise. */
  setGoods(id: string, anchorId: string, goods: readonly string[]): Promise<boolean>;
  /** Adds a chat line if its room is live and its writer is neither muted nor kicked there: false otherwise. */
  say(line: { id: string; roomId: string; memberId: string; text: string; createdAt: number }): Promise<boolean>;
  /** The room's newest `limit` lines, the oldest of them first. */
  lines(roomId: string, limit: number): Promise<LiveLineRecord[]>;
  /**
   * Mutes or kicks a member in a room. A kick replaces a mute; a mute leaves a kick as it is, and a second ban of a
   * kind keeps the first time. A kick ends the member's co-broadcast link there, waiting or on stage, in the same
   * transaction, which holds the room's row; a mute leaves it.
   */
  ban(params: { roomId: string; memberId: string; kind: LiveBanKind; now: number }): Promise<LiveBanOutcome>;
  /** Lifts the member's ban in a room; true when there was one. */
  restore(roomId: string, memberId: string): Promise<boolean>;
  /** The member's ban in a room, if any. */
  banOf(roomId: string, memberId: string): Promise<LiveBanKind | undefined>;
  /** The room's bans, the newest first, at most `limit`. */
  bans(roomId: string, limit: number): Promise<LiveBanRecord[]>;
}

type LiveTables = {
  live_rooms: {
    id: string;
    anchor_id: string;
    title: string;
    cover: string;
    status: number;
    stream: string;
    push_key: string;
    goods: string;
    created_at: number;
    started_at: number | null;
    ended_at: number | null;
    listed_at: number;
    stream_lost_at: number | null;
  };
  live_messages: { id: string; room_id: string; member_id: string; text: string; created_at: number };
  live_bans: { room_id: string; member_id: string; kind: string; created_at: number };
  members: { id: string; username: string; img: string };
  member_certifications: { member_id: string; status: string };
};

type RoomRow = LiveTables['live_rooms'] & { username: string | null; img: string | null };

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

const goodsOf = (json: string): string[] => {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.map(String) : [];
};

const memberOf = (id: string, username: string | null, img: string | null): LiveMember => ({
  id,
  username: username ?? '',
  img: img ?? '',
});

const roomOf = (row: RoomRow): LiveRoomRecord => ({
  id: row.id,
  anchor: memberOf(row.anchor_id, row.username, row.img),
  title: row.title,
  cover: row.cover,
  status: Number(row.status) as LiveStatus,
  stream: row.stream,
  pushKey: row.push_key,
  goods: goodsOf(row.goods),
  createdAt: Number(row.created_at),
  startedAt: nullableNumber(row.started_at),
  endedAt: nullableNumber(row.ended_at),
});

/** The Kysely implementation of {@link LiveStore}. */
export function createLiveStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): LiveStore {
  const db = base.withTables<LiveTables>();
  const rooms = () =>
    db
      .selectFrom('live_rooms')
      .leftJoin('members', 'members.id', 'live_rooms.anchor_id')
      .selectAll('live_rooms')
      .select(['members.username', 'members.img']);
  const one = async (query: ReturnType<typeof rooms>) => {
    const row = await query.executeTakeFirst();
    return row && roomOf(row);
  };
  return {
    add(room) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, room.anchorId, dialect))) return 'missing';
        const certified = await trx
          .selectFrom('member_certifications')
          .select('member_id')
          .where('member_id', '=', room.anchorId)
          .where('status', '=', 'passed')
          .executeTakeFirst();
        if (!certified) return 'uncertified';
        const open = await trx
          .selectFrom('live_rooms')
          .select('id')
          .where('anchor_id', '=', room.anchorId)
          .where('status', '<', LIVE_STATUS.ended)
          .executeTakeFirst();
        if (open) return 'open';
        await trx
          .insertInto('live_rooms')
          .values({
            id: room.id,
            anchor_id: room.anchorId,
            title: room.title,
            cover: room.cover,
            status: LIVE_STATUS.notStarted,
            stream: room.stream,
            push_key: room.pushKey,
            goods: '[]',
            created_at: room.createdAt,
            started_at: null,
            ended_at: null,
            listed_at: room.createdAt,
            stream_lost_at: null,
          })
          .execute();
        return 'ok';
      });
    },
    byId: (id) => one(rooms().where('live_rooms.id', '=', id)),
    byStream: (stream) => one(rooms().where('live_rooms.stream', '=', stream)),
    openOf: (anchorId) =>
      one(rooms().where('live_rooms.anchor_id', '=', anchorId).where('live_rooms.status', '<', LIVE_STATUS.ended)),
    async endedOf(anchorId, limit) {
      const rows = await rooms()
        .where('live_rooms.anchor_id', '=', anchorId)
        .where('live_rooms.status', '=', LIVE_STATUS.ended)
        .orderBy('live_rooms.ended_at', 'desc')
        .orderBy('live_rooms.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(roomOf);
    },
    async list({ viewerId, offset, limit }) {
      const rows = await rooms()
        .where('live_rooms.status', '<', LIVE_STATUS.ended)
        .where(notBlockedWith(viewerId, 'live_rooms.anchor_id'))
        .orderBy('live_rooms.status', 'desc')
        .orderBy('live_rooms.listed_at', 'desc')
        .orderBy('live_rooms.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map(roomOf);
    },
    async start(id, anchorId, now) {
      const result = await db
        .updateTable('live_rooms')
        .set({ status: LIVE_STATUS.live, started_at: now, listed_at: now })
        .where('id', '=', id)
        .where('anchor_id', '=', anchorId)
        .where('status', '=', LIVE_STATUS.notStarted)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    end(id, anchorId, now) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('live_rooms')
          .set({ status: LIVE_STATUS.ended, ended_at: now })
          .where('id', '=', id)
          .where('anchor_id', '=', anchorId)
          .where('status', '<', LIVE_STATUS.ended)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await endLinks(trx, sql`room_id = ${id}`, now);
        return true;
      });
    },
    async streamLost(id, now) {
      await db
        .updateTable('live_rooms')
        .set({ stream_lost_at: now })
        .where('id', '=', id)
        .where('status', '=', LIVE_STATUS.live)
        .where('stream_lost_at', now === null ? 'is not' : 'is', null)
        .execute();
    },
    async stale({ lostBefore, createdBefore, limit }) {
      const rows = await rooms()
        .where((eb) =>
          eb.or([
            eb.and([eb('live_rooms.status', '=', LIVE_STATUS.live), eb('live_rooms.stream_lost_at', '<=', lostBefore)]),
            // A room not started is listed at its creation: the list's index finds the old ones.
            eb.and([
              eb('live_rooms.status', '=', LIVE_STATUS.notStarted),
              eb('live_rooms.listed_at', '<=', createdBefore),
            ]),
          ]),
        )
        .limit(limit)
        .execute();
      return rows.map(roomOf);
    },
    async setGoods(id, anchorId, goods) {
      const result = await db
        .updateTable('live_rooms')
        .set({ goods: JSON.stringify(goods) })
        .where('id', '=', id)
        .where('anchor_id', '=', anchorId)
        .where('status', '<', LIVE_STATUS.ended)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async say(line) {
      // One statement: the room's status and the writer's bans are read in the write, so that a line never lands
      // after the end, a mute or a kick that came first. The values are cast so that PostgreSQL types them.
      const result = await db
        .insertInto('live_messages')
        .columns(['id', 'room_id', 'member_id', 'text', 'created_at'])
        .expression(
          db
            .selectFrom('live_rooms')
            .select([
              sql<string>`cast(${line.id} as varchar(32))`.as('id'),
              'live_rooms.id as room_id',
              sql<string>`cast(${line.memberId} as varchar(64))`.as('member_id'),
              sql<string>`cast(${line.text} as varchar(400))`.as('text'),
              sql<number>`cast(${line.createdAt} as bigint)`.as('created_at'),
            ])
            .where('live_rooms.id', '=', line.roomId)
            .where('live_rooms.status', '=', LIVE_STATUS.live)
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('live_bans')
                    .select('live_bans.room_id')
                    .where('live_bans.room_id', '=', line.roomId)
                    .where('live_bans.member_id', '=', line.memberId),
                ),
              ),
            ),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async lines(roomId, limit) {
      const rows = await db
        .selectFrom('live_messages')
        .leftJoin('members', 'members.id', 'live_messages.member_id')
        .selectAll('live_messages')
        .select(['members.username', 'members.img'])
        .where('live_messages.room_id', '=', roomId)
        .orderBy('live_messages.created_at', 'desc')
        .orderBy('live_messages.id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((row) => ({
        id: row.id,
        roomId: row.room_id,
        member: memberOf(row.member_id, row.username, row.img),
        text: row.text,
        createdAt: Number(row.created_at),
      }));
    },
    ban({ roomId, memberId, kind, now }) {
      return db.transaction().execute(async (trx) => {
        // Held, so that a request to join the stage cannot land between the kick and the end of the member's link.
        if (kind === 'kick') await holdRoom(trx, roomId, dialect);
        const result = await trx
          .insertInto('live_bans')
          .values({ room_id: roomId, member_id: memberId, kind, created_at: now })
          .onConflict((oc) =>
            kind === 'kick'
              ? oc
                  .columns(['room_id', 'member_id'])
                  .doUpdateSet({ kind, created_at: now })
                  .where('live_bans.kind', '=', 'mute')
              : oc.columns(['room_id', 'member_id']).doNothing(),
          )
          .executeTakeFirst();
        const changed = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
        if (kind === 'mute') return { changed, linkEnded: false };
        const ended = await endLinks(trx, sql`room_id = ${roomId} and member_id = ${memberId}`, now);
        return { changed, linkEnded: ended.length > 0 };
      });
    },
    async restore(roomId, memberId) {
      const result = await db
        .deleteFrom('live_bans')
        .where('room_id', '=', roomId)
        .where('member_id', '=', memberId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async banOf(roomId, memberId) {
      const row = await db
        .selectFrom('live_bans')
        .select('kind')
        .where('room_id', '=', roomId)
        .where('member_id', '=', memberId)
        .executeTakeFirst();
      return row?.kind as LiveBanKind | undefined;
    },
    async bans(roomId, limit) {
      const rows = await db
        .selectFrom('live_bans')
        .leftJoin('members', 'members.id', 'live_bans.member_id')
        .selectAll('live_bans')
        .select(['members.username', 'members.img'])
        .where('live_bans.room_id', '=', roomId)
        .orderBy('live_bans.created_at', 'desc')
        .orderBy('live_bans.member_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        member: memberOf(row.member_id, row.username, row.img),
        kind: row.kind as LiveBanKind,
        createdAt: Number(row.created_at),
      }));
    },
  };
}
