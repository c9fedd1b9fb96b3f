import type { Kysely } from 'kysely';
import { holdMembers } from './member-lock.js';
import { olderThan } from './keyset.js';
import type { Database } from './schema.js';

/** One line of a follow list: the other member, and since when. */
export interface FollowRecord {
  memberId: string;
  createdAt: number;
}

/** Which way a follow list reads: whom a member follows, or who follows them (their fans). */
export type FollowSide = 'follows' | 'fans';

/**
 * What following someone came to: done, refused for the bound (MEM-10), or refused since that member is gone or one
 * of the two blocked the other.
 */
export type FollowOutcome = 'ok' | 'limit' | 'unavailable';

/** The product app's follows (MEM-10). */
export interface FollowStore {
  /**
   * `memberId` follows (`follow` true) or stops following `followedId`. Following keeps the first time when already
   * following; it is `limit` when it would take the member past `max` follows, and `unavailable` when `followedId` is
   * no open member or either of the two has blocked the other. All is one transaction holding both members' rows, so
   * follows sent at once cannot pass the bound, and a follow cannot slip past a block or a cancellation.
   */
  set(
    memberId: string,
    followedId: string,
    follow: boolean,
    params: { now: number; max: number },
  ): Promise<FollowOutcome>;
  /** How many members `memberId` follows, and how many follow them. */
  counts(memberId: string): Promise<{ follows: number; fans: number }>;
  /** Which of `ids` `memberId` follows. */
  following(memberId: string, ids: readonly string[]): Promise<Set<string>>;
  /**
   * One side of a member's follows, newest first, at most `limit`; with `before` (a member id on that side), only
   * those from before it. Undefined when `before` is not on that side.
   */
  list(
    memberId: string,
    options: { side: FollowSide; before?: string | undefined; limit: number },
  ): Promise<FollowRecord[] | undefined>;
}

type FollowTables = {
  member_follows: { member_id: string; followed_id: string; created_at: number };
  member_blocks: { member_id: string; blocked_id: string };
  members: { id: string; cancelled_at: number | null };
};

/** The Kysely implementation of {@link FollowStore}. */
export function createFollowStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): FollowStore {
  const db = base.withTables<FollowTables>();
  /** The column a side is read by, and the column of the other member on it. */
  const columns = (side: FollowSide) =>
    side === 'follows' ? (['member_id', 'followed_id'] as const) : (['followed_id', 'member_id'] as const);
  return {
    async set(memberId, followedId, follow, { now, max }) {
      if (!follow) {
        await db
          .deleteFrom('member_follows')
          .where('member_id', '=', memberId)
          .where('followed_id', '=', followedId)
          .execute();
        return 'ok';
      }
      return db.transaction().execute(async (trx) => {
        await holdMembers(trx, [memberId, followedId], dialect);
        const open = await trx
          .selectFrom('members')
          .select('id')
          .where('id', '=', followedId)
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        if (!open) return 'unavailable';
        const blocked = await trx
          .selectFrom('member_blocks')
          .select('member_id')
          .where((eb) =>
            eb.or([
              eb.and([eb('member_id', '=', memberId), eb('blocked_id', '=', followedId)]),
              eb.and([eb('member_id', '=', followedId), eb('blocked_id', '=', memberId)]),
            ]),
          )
          .executeTakeFirst();
        if (blocked) return 'unavailable';
        const held = await trx
          .selectFrom('member_follows')
          .select('followed_id')
          .where('member_id', '=', memberId)
          .where('followed_id', '=', followedId)
          .executeTakeFirst();
        if (held) return 'ok';
        const counted = await trx
          .selectFrom('member_follows')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('member_id', '=', memberId)
          .executeTakeFirstOrThrow();
        if (Number(counted.n) >= max) return 'limit';
        await trx
          .insertInto('member_follows')
          .values({ member_id: memberId, followed_id: followedId, created_at: now })
          .execute();
        return 'ok';
      });
    },
    async counts(memberId) {
      const count = async (side: FollowSide) => {
        const [by] = columns(side);
        const counted = await db
          .selectFrom('member_follows')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where(by, '=', memberId)
          .executeTakeFirstOrThrow();
        return Number(counted.n);
      };
      const [follows, fans] = await Promise.all([count('follows'), count('fans')]);
      return { follows, fans };
    },
    async following(memberId, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('member_follows')
        .select('followed_id')
        .where('member_id', '=', memberId)
        .where('followed_id', 'in', [...ids])
        .execute();
      return new Set(rows.map((r) => r.followed_id));
    },
    async list(memberId, { side, before, limit }) {
      const [by, other] = columns(side);
      let cursor: { created_at: number; other: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom('member_follows')
          .select('created_at')
          .where(by, '=', memberId)
          .where(other, '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { created_at: Number(found.created_at), other: before };
      }
      const rows = await db
        .selectFrom('member_follows')
        .select([`${other} as other`, 'created_at'])
        .where(by, '=', memberId)
        .where(olderThan(cursor && { at: cursor.created_at, id: cursor.other }, { time: 'created_at', id: other }))
        .orderBy('created_at', 'desc')
        .orderBy(other, 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ memberId: r.other, createdAt: Number(r.created_at) }));
    },
  };
}
