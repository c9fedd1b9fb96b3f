import { sql, type Kysely, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import { holdOpenMember } from './member-lock.js';
import type { LiveMember } from './live.js';
import type { Database } from './schema.js';

/**
 * Where a co-broadcast link stands (spec §4 "Co-broadcast: request, wait, accept or reject, cancel, ended"): a viewer's
 * request `waiting`, then `accepted` (the guest on stage) or `rejected` by the anchor or `cancelled` by the viewer;
 * a guest's link `ended` when they leave the stage, the anchor ends it, kicks them or ends the room, or an account
 * cancellation ends it.
 */
export type LiveLinkStatus = 'waiting' | 'accepted' | 'rejected' | 'cancelled' | 'ended';

/** The statuses of a link still open: a request waiting, or a guest on stage. */
export const LIVE_LINK_OPEN = ['waiting', 'accepted'] as const;

/** A member's co-broadcast link in a room, with their name and avatar. */
export interface LiveLinkRecord {
  roomId: string;
  member: LiveMember;
  status: LiveLinkStatus;
  /** The guest's public stream name and secret push key, made at the latest acceptance; null before any. */
  stream: string | null;
  pushKey: string | null;
  requestedAt: number;
  /** The latest acceptance; null until one. */
  acceptedAt: number | null;
}

/**
 * What a request to join the stage came to: `state` unless the room is live, `removed` when the member is muted or
 * kicked there, `open` when they hold a request or a place already, `full` with the most requests waiting, `missing`
 * when they are gone or cancelled.
 */
export type LiveLinkRequestOutcome = 'ok' | 'state' | 'removed' | 'open' | 'full' | 'missing';

/** What an acceptance came to: `missing` unless the request waits in a live room, `full` with the stage full. */
export type LiveLinkAcceptOutcome = 'ok' | 'missing' | 'full';

/**
 * Co-broadcast links of live rooms: one row per room and member. Every change is one conditional write, and those
 * counted against a room's bounds run while they hold the room's row, so that two calls at once cannot both pass.
 */
export interface LiveLinkStore {
  /** The member asks to join the anchor of room `roomId` on stage, unless `waitingMax` requests wait there already. */
  request(params: {
    roomId: string;
    memberId: string;
    now: number;
    waitingMax: number;
  }): Promise<LiveLinkRequestOutcome>;
  /** The anchor accepts the member's waiting request, with a new stream and key, unless `guestsMax` are on stage. */
  accept(params: {
    roomId: string;
    memberId: string;
    stream: string;
    pushKey: string;
    now: number;
    guestsMax: number;
  }): Promise<LiveLinkAcceptOutcome>;
  /** The member withdraws their request (`cancelled`) or leaves the stage (`ended`); undefined when neither was open. */
  cancel(roomId: string, memberId: string, now: number): Promise<'cancelled' | 'ended' | undefined>;
  /** The anchor rejects the member's waiting request: false, and nothing changed, when none waits. */
  reject(roomId: string, memberId: string, now: number): Promise<boolean>;
  /** The anchor ends the member's place on stage: false, and nothing changed, when they are not on stage. */
  end(roomId: string, memberId: string, now: number): Promise<boolean>;
  /** The member's link in the room, whatever its status. */
  linkOf(roomId: string, memberId: string): Promise<LiveLinkRecord | undefined>;
  /** The room's open links: the waiting requests, the oldest first, then the guests on stage in accepted order. */
  openOf(roomId: string): Promise<LiveLinkRecord[]>;
  /** The link whose guest stream is `stream`, whatever its status. */
  byStream(stream: string): Promise<LiveLinkRecord | undefined>;
  /** The rooms where the member holds an open link. */
  openRoomsOf(memberId: string): Promise<string[]>;
  /**
   * The guest's stream `stream`, on stage, stopped reaching the media server at `at` (unless it was lost already),
   * or (`at` null) reaches it again (LIVE-18). False when nothing changed.
   */
  streamLost(stream: string, at: number | null): Promise<boolean>;
  /**
   * Ends, in one write, the places on stage whose guest's stream was lost at or before `lostBefore` and not back
   * (LIVE-18); the members whose link ended, with their room.
   */
  endLost(lostBefore: number, now: number): Promise<Array<{ roomId: string; memberId: string }>>;
}

type LinkTables = {
  live_links: {
    room_id: string;
    member_id: string;
    status: string;
    stream: string | null;
    push_key: string | null;
    requested_at: number;
    accepted_at: number | null;
    changed_at: number;
    stream_lost_at: number | null;
  };
  live_rooms: { id: string; status: number };
  live_bans: { room_id: string; member_id: string };
  members: { id: string; username: string; img: string };
};

type LinkRow = LinkTables['live_links'] & { username: string | null; img: string | null };

/** `LIVE_STATUS.live`, written out: `live.ts` imports this module's values, and not the other way round. */
const ROOM_LIVE = 1;

const linkOf = (row: LinkRow): LiveLinkRecord => ({
  roomId: row.room_id,
  member: { id: row.member_id, username: row.username ?? '', img: row.img ?? '' },
  status: row.status as LiveLinkStatus,
  stream: row.stream,
  pushKey: row.push_key,
  requestedAt: Number(row.requested_at),
  acceptedAt: row.accepted_at === null ? null : Number(row.accepted_at),
});

/**
 * Holds room `roomId`'s row until `trx` ends and gives its status: on PostgreSQL by locking the row, so that the
 * room's counted link writes, its end and its kicks run one after another; SQLite writes one transaction at a time.
 */
export async function holdRoom(
  trx: QueryExecutorProvider,
  roomId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<number | undefined> {
  const lock = dialect === 'postgres' ? sql` for update` : sql``;
  const { rows } = await sql<{
    status: number | string;
  }>`select status from live_rooms where id = ${roomId}${lock}`.execute(trx);
  return rows[0] === undefined ? undefined : Number(rows[0].status);
}

/**
 * Ends the open links that `where` picks (`room_id = ...`, `member_id = ...`: trusted SQL, never input), in the
 * caller's transaction: a room's end, a kick, an account cancellation. The members whose link ended, with their room.
 */
export async function endLinks(
  trx: QueryExecutorProvider,
  where: RawBuilder<unknown>,
  now: number,
): Promise<Array<{ roomId: string; memberId: string }>> {
  const { rows } = await sql<{ room_id: string; member_id: string }>`
    update live_links set status = 'ended', changed_at = ${now}
    where status in ('waiting', 'accepted') and ${where}
    returning room_id, member_id`.execute(trx);
  return rows.map((row) => ({ roomId: row.room_id, memberId: row.member_id }));
}

/** The Kysely implementation of {@link LiveLinkStore}. */
export function createLiveLinkStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): LiveLinkStore {
  const db = base.withTables<LinkTables>();
  const links = () =>
    db
      .selectFrom('live_links')
      .leftJoin('members', 'members.id', 'live_links.member_id')
      .selectAll('live_links')
      .select(['members.username', 'members.img']);
  /** Moves the member's link from `from` to `to`, in one conditional write. */
  const move = async (roomId: string, memberId: string, from: LiveLinkStatus, to: LiveLinkStatus, now: number) => {
    const result = await db
      .updateTable('live_links')
      .set({ status: to, changed_at: now })
      .where('room_id', '=', roomId)
      .where('member_id', '=', memberId)
      .where('status', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  };
  const count = async (trx: QueryExecutorProvider, roomId: string, status: LiveLinkStatus) => {
    const { rows } = await sql<{ count: string | number }>`
      select count(*) as count from live_links where room_id = ${roomId} and status = ${status}`.execute(trx);
    return Number(rows[0]?.count ?? 0);
  };

  return {
    request({ roomId, memberId, now, waitingMax }) {
      return db.transaction().execute(async (trx) => {
        if ((await holdRoom(trx, roomId, dialect)) !== ROOM_LIVE) return 'state';
        if (!(await holdOpenMember(trx, memberId, dialect))) return 'missing';
        const banned = await trx
          .selectFrom('live_bans')
          .select('member_id')
          .where('room_id', '=', roomId)
          .where('member_id', '=', memberId)
          .executeTakeFirst();
        if (banned) return 'removed';
        const held = await trx
          .selectFrom('live_links')
          .select('status')
          .where('room_id', '=', roomId)
          .where('member_id', '=', memberId)
          .where('status', 'in', LIVE_LINK_OPEN)
          .executeTakeFirst();
        if (held) return 'open';
        if ((await count(trx, roomId, 'waiting')) >= waitingMax) return 'full';
        const fresh = { status: 'waiting', stream: null, push_key: null, requested_at: now, accepted_at: null };
        await trx
          .insertInto('live_links')
          .values({ room_id: roomId, member_id: memberId, ...fresh, changed_at: now })
          .onConflict((oc) =>
            oc
              .columns(['room_id', 'member_id'])
              .doUpdateSet({ ...fresh, changed_at: now })
              .where('live_links.status', 'not in', LIVE_LINK_OPEN),
          )
          .execute();
        return 'ok';
      });
    },
    accept({ roomId, memberId, stream, pushKey, now, guestsMax }) {
      return db.transaction().execute(async (trx) => {
        if ((await holdRoom(trx, roomId, dialect)) !== ROOM_LIVE) return 'missing';
        const waiting = await trx
          .selectFrom('live_links')
          .select('status')
          .where('room_id', '=', roomId)
          .where('member_id', '=', memberId)
          .where('status', '=', 'waiting')
          .executeTakeFirst();
        if (!waiting) return 'missing';
        if ((await count(trx, roomId, 'accepted')) >= guestsMax) return 'full';
        // Still waiting in the write: a cancellation that came first wins.
        const result = await trx
          .updateTable('live_links')
          .set({
            status: 'accepted',
            stream,
            push_key: pushKey,
            accepted_at: now,
            changed_at: now,
            stream_lost_at: null,
          })
          .where('room_id', '=', roomId)
          .where('member_id', '=', memberId)
          .where('status', '=', 'waiting')
          .executeTakeFirst();
        return result.numUpdatedRows > 0n ? 'ok' : 'missing';
      });
    },
    async cancel(roomId, memberId, now) {
      const row = await db
        .updateTable('live_links')
        .set((eb) => ({
          status: eb.case().when('status', '=', 'waiting').then('cancelled').else('ended').end(),
          changed_at: now,
        }))
        .where('room_id', '=', roomId)
        .where('member_id', '=', memberId)
        .where('status', 'in', LIVE_LINK_OPEN)
        .returning('status')
        .executeTakeFirst();
      return row?.status as 'cancelled' | 'ended' | undefined;
    },
    reject: (roomId, memberId, now) => move(roomId, memberId, 'waiting', 'rejected', now),
    end: (roomId, memberId, now) => move(roomId, memberId, 'accepted', 'ended', now),
    async linkOf(roomId, memberId) {
      const row = await links()
        .where('live_links.room_id', '=', roomId)
        .where('live_links.member_id', '=', memberId)
        .executeTakeFirst();
      return row && linkOf(row);
    },
    async openOf(roomId) {
      const rows = await links()
        .where('live_links.room_id', '=', roomId)
        .where('live_links.status', 'in', LIVE_LINK_OPEN)
        .execute();
      const records = rows.map(linkOf);
      const by = (time: (link: LiveLinkRecord) => number) => (a: LiveLinkRecord, b: LiveLinkRecord) =>
        time(a) - time(b) || (a.member.id < b.member.id ? -1 : a.member.id > b.member.id ? 1 : 0);
      // At most the waiting bound plus the stage's: sorted here rather than in two queries.
      return [
        ...records.filter((l) => l.status === 'waiting').sort(by((l) => l.requestedAt)),
        ...records.filter((l) => l.status === 'accepted').sort(by((l) => l.acceptedAt ?? 0)),
      ];
    },
    async byStream(stream) {
      const row = await links().where('live_links.stream', '=', stream).executeTakeFirst();
      return row && linkOf(row);
    },
    async openRoomsOf(memberId) {
      const rows = await db
        .selectFrom('live_links')
        .select('room_id')
        .where('member_id', '=', memberId)
        .where('status', 'in', LIVE_LINK_OPEN)
        .execute();
      return rows.map((row) => row.room_id);
    },
    async streamLost(stream, at) {
      const result = await db
        .updateTable('live_links')
        .set({ stream_lost_at: at })
        .where('stream', '=', stream)
        .where('status', '=', 'accepted')
        // A second `unpublish` keeps the first time.
        .where('stream_lost_at', at === null ? 'is not' : 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async endLost(lostBefore, now) {
      const rows = await db
        .updateTable('live_links')
        .set({ status: 'ended', changed_at: now })
        .where('stream_lost_at', 'is not', null)
        .where('stream_lost_at', '<=', lostBefore)
        .where('status', '=', 'accepted')
        .returning(['room_id', 'member_id'])
        .execute();
      return rows.map((row) => ({ roomId: row.room_id, memberId: row.member_id }));
    },
  };
}
