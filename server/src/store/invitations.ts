import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { olderThan } from './keyset.js';
import { holdMember } from './member-lock.js';
import type { Database } from './schema.js';

/** One member who signed up with another's invitation code, and the coins it paid the inviter. */
export interface InvitationRecord {
  inviterId: string;
  inviteeId: string;
  /** 0 once the inviter's invitations of the last day have paid their most. */
  coins: number;
  createdAt: number;
}

/** What an invitation pays (docs/limits.md). */
export interface InvitationRules {
  /** Coins to the inviter for each member who signs up with their code... */
  coins: number;
  /** ...for at most this many in any 24 hours; more are recorded and pay nothing. */
  dailyMax: number;
}

/** Invitations: who invited whom, and what it paid. */
export interface InvitationStore {
  /**
   * Records that `inviteeId` signed up with `inviterId`'s code and pays the inviter `rules.coins` (an `invite` line
   * of the coin ledger), unless their invitations of the 24 hours before `now` paid `rules.dailyMax` times already.
   * Undefined, and nothing changed, when the inviter is the invitee, gone or cancelled, or the invitee, or their phone
   * (`phoneHash`, under another account since cancelled), was invited already. One transaction that holds the
   * inviter's row, so that invitations at once count each.
   */
  record(params: {
    inviterId: string;
    inviteeId: string;
    phoneHash: string;
    now: number;
    rules: InvitationRules;
  }): Promise<InvitationRecord | undefined>;
  /** How many the member invited, and the coins it paid them. */
  summary(inviterId: string): Promise<{ invited: number; coins: number }>;
  /**
   * The member's invitations, newest first, at most `limit`; with `before` (an invitee of theirs), only those before
   * it. Undefined when `before` is not theirs.
   */
  list(
    inviterId: string,
    options: { before?: string | undefined; limit: number },
  ): Promise<InvitationRecord[] | undefined>;
}

type InvitationTables = {
  member_invitations: { invitee_id: string; inviter_id: string; phone_hash: string; coins: number; created_at: number };
  member_coins: { id: string; member_id: string; amount: number; kind: string; created_at: number };
  members: { id: string; cancelled_at: number | null };
};

const DAY_MS = 86_400_000;

const recordOf = (row: Omit<InvitationTables['member_invitations'], 'phone_hash'>): InvitationRecord => ({
  inviterId: row.inviter_id,
  inviteeId: row.invitee_id,
  coins: Number(row.coins),
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link InvitationStore}; the coins are the task store's ledger (`member_coins`). */
export function createInvitationStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): InvitationStore {
  const db = base.withTables<InvitationTables>();
  return {
    async record({ inviterId, inviteeId, phoneHash, now, rules }) {
      if (inviterId === inviteeId) return undefined;
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, inviterId, dialect);
        const open = await trx
          .selectFrom('members')
          .select('id')
          .where('id', '=', inviterId)
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        if (!open) return undefined;
        const { paid } = await trx
          .selectFrom('member_invitations')
          .select((eb) => eb.fn.countAll<string | number>().as('paid'))
          .where('inviter_id', '=', inviterId)
          .where('coins', '>', 0)
          .where('created_at', '>', now - DAY_MS)
          .executeTakeFirstOrThrow();
        const coins = Number(paid) < rules.dailyMax ? rules.coins : 0;
        const row = { invitee_id: inviteeId, inviter_id: inviterId, coins, created_at: now };
        const inserted = await trx
          .insertInto('member_invitations')
          .values({ ...row, phone_hash: phoneHash })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return undefined;
        if (coins > 0) {
          await trx
            .insertInto('member_coins')
            .values({
              id: randomBytes(8).toString('hex'),
              member_id: inviterId,
              amount: coins,
              kind: 'invite',
              created_at: now,
            })
            .execute();
        }
        return recordOf(row);
      });
    },
    async summary(inviterId) {
      const row = await db
        .selectFrom('member_invitations')
        .select((eb) => [
          eb.fn.countAll<string | number>().as('invited'),
          eb.fn.sum<string | number | null>('coins').as('coins'),
        ])
        .where('inviter_id', '=', inviterId)
        .executeTakeFirstOrThrow();
      return { invited: Number(row.invited), coins: Number(row.coins ?? 0) };
    },
    async list(inviterId, { before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom('member_invitations')
          .select(['created_at', 'invitee_id'])
          .where('inviter_id', '=', inviterId)
          .where('invitee_id', '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.invitee_id };
      }
      const rows = await db
        .selectFrom('member_invitations')
        .select(['invitee_id', 'inviter_id', 'coins', 'created_at'])
        .where('inviter_id', '=', inviterId)
        .where(olderThan(cursor, { time: 'created_at', id: 'invitee_id' }))
        .orderBy('created_at', 'desc')
        .orderBy('invitee_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
  };
}
