import type { Kysely } from 'kysely';
import { holdMember } from './member-lock.js';
import { olderThan } from './keyset.js';
import type { Database } from './schema.js';

/** One member a member has blocked. */
export interface BlockRecord {
  blockedId: string;
  createdAt: number;
}

/** The product app's block lists (MEM-8). */
export interface BlockStore {
  /**
   * Blocks or unblocks `blockedId` for `memberId`. Blocking one already blocked keeps the first time, and blocking
   * ends the two members' follows of each other. False, and nothing changed, when blocking would take the list past
   * `max`: the count and the writes are one transaction that holds the member's row, so that blocks sent at once
   * cannot pass it, and a follow between the two (which holds both members' rows) cannot slip past it.
   */
  set(memberId: string, blockedId: string, blocked: boolean, params: { now: number; max: number }): Promise<boolean>;
  /** Whether `memberId` has blocked `blockedId`. */
  has(memberId: string, blockedId: string): Promise<boolean>;
  /** Whether either of two members has blocked the other. */
  between(a: string, b: string): Promise<boolean>;
  /**
   * A member's blocks, newest first, at most `limit`; with `before` (a blocked id of theirs), only those blocked
   * before it. Undefined when `before` is not on their list.
   */
  list(memberId: string, options: { before?: string | undefined; limit: number }): Promise<BlockRecord[] | undefined>;
}

type BlockTables = {
  member_blocks: { member_id: string; blocked_id: string; created_at: number };
  member_follows: { member_id: string; followed_id: string };
};

/** The Kysely implementation of {@link BlockStore}. */
export function createBlockStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): BlockStore {
  const db = base.withTables<BlockTables>();
  const row = (memberId: string, blockedId: string) =>
    db
      .selectFrom('member_blocks')
      .select(['created_at', 'blocked_id'])
      .where('member_id', '=', memberId)
      .where('blocked_id', '=', blockedId);
  return {
    async set(memberId, blockedId, blocked, { now, max }) {
      if (!blocked) {
        await db
          .deleteFrom('member_blocks')
          .where('member_id', '=', memberId)
          .where('blocked_id', '=', blockedId)
          .execute();
        return true;
      }
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, memberId, dialect);
        await trx
          .deleteFrom('member_follows')
          .where((eb) =>
            eb.or([
              eb.and([eb('member_id', '=', memberId), eb('followed_id', '=', blockedId)]),
              eb.and([eb('member_id', '=', blockedId), eb('followed_id', '=', memberId)]),
            ]),
          )
          .execute();
        const held = await trx
          .selectFrom('member_blocks')
          .select('blocked_id')
          .where('member_id', '=', memberId)
          .where('blocked_id', '=', blockedId)
          .executeTakeFirst();
        if (held) return true;
        const counted = await trx
          .selectFrom('member_blocks')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('member_id', '=', memberId)
          .executeTakeFirstOrThrow();
        if (Number(counted.n) >= max) return false;
        await trx
          .insertInto('member_blocks')
          .values({ member_id: memberId, blocked_id: blockedId, created_at: now })
          .execute();
        return true;
      });
    },
    async has(memberId, blockedId) {
      return (await row(memberId, blockedId).executeTakeFirst()) !== undefined;
    },
    async between(a, b) {
      const found = await db
        .selectFrom('member_blocks')
        .select('member_id')
        .where((eb) =>
          eb.or([
            eb.and([eb('member_id', '=', a), eb('blocked_id', '=', b)]),
            eb.and([eb('member_id', '=', b), eb('blocked_id', '=', a)]),
          ]),
        )
        .executeTakeFirst();
      return found !== undefined;
    },
    async list(memberId, { before, limit }) {
      let cursor: { created_at: number; blocked_id: string } | undefined;
      if (before !== undefined) {
        cursor = await row(memberId, before).executeTakeFirst();
        if (!cursor) return undefined;
      }
      const rows = await db
        .selectFrom('member_blocks')
        .select(['blocked_id', 'created_at'])
        .where('member_id', '=', memberId)
        .where(
          olderThan(cursor && { at: Number(cursor.created_at), id: cursor.blocked_id }, {
            time: 'created_at',
            id: 'blocked_id',
          }),
        )
        .orderBy('created_at', 'desc')
        .orderBy('blocked_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ blockedId: r.blocked_id, createdAt: Number(r.created_at) }));
    },
  };
}
