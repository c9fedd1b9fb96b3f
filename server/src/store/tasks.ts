import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { holdMember } from './member-lock.js';
import { keysetOf, olderThan } from './keyset.js';
import type { Database } from './schema.js';

/** One day's sign-in: the streak it made (consecutive days up to it) and what it paid. */
export interface SignInRecord {
  day: string;
  streak: number;
  /** The day's coins, and the streak bonus on top (0 on most days). */
  coins: number;
  bonus: number;
  createdAt: number;
}

/**
 * What gold coins came from or went to: a day's sign-in, a streak's bonus, a member who signed up with the member's
 * invitation, a withdrawal (a negative line), or a rejected withdrawal's coins returned.
 */
export type CoinKind = 'signin' | 'streak' | 'invite' | 'withdraw' | 'withdraw_return';

/** One line of a member's coin ledger. */
export interface CoinRecord {
  id: string;
  amount: number;
  kind: CoinKind;
  createdAt: number;
}

/** What a day's sign-in pays (docs/limits.md). */
export interface SignInRules {
  /** Coins for each day signed in. */
  daily: number;
  /** Every this many consecutive days... */
  streakDays: number;
  /** ...pay this bonus on top. */
  streakBonus: number;
}

/** The task centre's sign-ins and gold coins. */
export interface TaskStore {
  /**
   * Signs the member in for `day` (`yesterday` the day before, both `YYYY-MM-DD` in the app's days): the streak is
   * yesterday's plus one, or 1; it pays `rules.daily`, and `rules.streakBonus` more on every `rules.streakDays`th day
   * of a streak. Undefined, and nothing paid, when the member signed in that day already. One transaction that holds
   * the member's row, so that sign-ins at once pay once.
   */
  signIn(
    memberId: string,
    params: { day: string; yesterday: string; now: number; rules: SignInRules },
  ): Promise<SignInRecord | undefined>;
  /** The member's latest sign-in, if any. */
  lastSignIn(memberId: string): Promise<SignInRecord | undefined>;
  /** The member's gold coins: the sum of their ledger. */
  balance(memberId: string): Promise<number>;
  /**
   * The member's ledger, newest first, at most `limit`; with `before` (an id of theirs), only the lines before it.
   * Undefined when `before` is not theirs.
   */
  coins(memberId: string, options: { before?: string | undefined; limit: number }): Promise<CoinRecord[] | undefined>;
}

type TaskTables = {
  member_signins: { member_id: string; day: string; streak: number; coins: number; bonus: number; created_at: number };
  member_coins: { id: string; member_id: string; amount: number; kind: string; created_at: number };
};

const signInOf = (row: Omit<TaskTables['member_signins'], 'member_id'>): SignInRecord => ({
  day: row.day,
  streak: Number(row.streak),
  coins: Number(row.coins),
  bonus: Number(row.bonus),
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link TaskStore}. */
export function createTaskStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): TaskStore {
  const db = base.withTables<TaskTables>();
  const signIns = ['day', 'streak', 'coins', 'bonus', 'created_at'] as const;
  return {
    async signIn(memberId, { day, yesterday, now, rules }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, memberId, dialect);
        const days = await trx
          .selectFrom('member_signins')
          .select(['day', 'streak'])
          .where('member_id', '=', memberId)
          .where('day', 'in', [day, yesterday])
          .execute();
        if (days.some((row) => row.day === day)) return undefined;
        const before = days.find((row) => row.day === yesterday);
        const streak = before ? Number(before.streak) + 1 : 1;
        const bonus = streak % rules.streakDays === 0 ? rules.streakBonus : 0;
        const record = { day, streak, coins: rules.daily, bonus, created_at: now };
        await trx
          .insertInto('member_signins')
          .values({ member_id: memberId, ...record })
          .execute();
        const lines = [{ amount: rules.daily, kind: 'signin' }];
        if (bonus > 0) lines.push({ amount: bonus, kind: 'streak' });
        await trx
          .insertInto('member_coins')
          .values(
            lines.map((line, i) => ({
              id: randomBytes(8).toString('hex'),
              member_id: memberId,
              ...line,
              // The bonus a moment after the day's coins, so that the ledger lists it first.
              created_at: now + i,
            })),
          )
          .execute();
        return signInOf(record);
      });
    },
    async lastSignIn(memberId) {
      const row = await db
        .selectFrom('member_signins')
        .select(signIns)
        .where('member_id', '=', memberId)
        .orderBy('day', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && signInOf(row);
    },
    async balance(memberId) {
      const row = await db
        .selectFrom('member_coins')
        .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
        .where('member_id', '=', memberId)
        .executeTakeFirstOrThrow();
      return Number(row.total ?? 0);
    },
    async coins(memberId, { before, limit }) {
      const cursor = await keysetOf(db, 'member_coins', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_coins')
        .select(['id', 'amount', 'kind', 'created_at'])
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        amount: Number(r.amount),
        kind: r.kind as CoinKind,
        createdAt: Number(r.created_at),
      }));
    },
  };
}
