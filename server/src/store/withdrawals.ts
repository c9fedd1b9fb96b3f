import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newerThan, olderThan } from './keyset.js';
import { holdOpenMember } from './member-lock.js';
import type { Database } from './schema.js';
import { addMoneyLine } from './wallet.js';

/** Where coins are paid out to: an Alipay account, or the WeChat receipt code the member uploaded. */
export type PayoutMethod = 'alipay' | 'wechat';

/** A member's bound withdrawal accounts (spec §3); empty fields are not bound. */
export interface PayoutAccounts {
  /** The Alipay account holder's real name, and the account (a phone number or an email address). */
  alipayName: string;
  alipayAccount: string;
  /** The URL of the WeChat receipt code image. */
  wechatCode: string;
  updatedAt: number;
}

/** Where a withdrawal's review stands: under review, paid out, or rejected with a reason and the coins returned. */
export type WithdrawalStatus = 'pending' | 'paid' | 'rejected';

/**
 * What a withdrawal pays out: gold coins from the task centre (renwu/tixian), or a seller's sales income from the
 * money wallet (shop/business-tixian).
 */
export type WithdrawalSource = 'coins' | 'shop';

/** One withdrawal of gold coins or of a seller's income. */
export interface WithdrawalRecord {
  id: string;
  memberId: string;
  source: WithdrawalSource;
  /** Yuan paid out. */
  amount: number;
  /** Gold coins it took; 0 for a shop withdrawal, whose yuan left the money wallet. */
  coins: number;
  method: PayoutMethod;
  /** Alipay: the holder's real name and the account; WeChat: '' and the receipt code's URL. As bound at the time. */
  accountName: string;
  account: string;
  status: WithdrawalStatus;
  /** Why it was rejected; empty otherwise. */
  reason: string;
  createdAt: number;
  reviewedAt?: number;
}

/** What asking for a withdrawal came to: stored, or refused (nothing changed). */
export type WithdrawOutcome = 'ok' | 'pending' | 'coins' | 'missing';

/** What asking for a shop withdrawal came to: stored, or refused (nothing changed). */
export type ShopWithdrawOutcome = 'ok' | 'pending' | 'income' | 'missing';

/** A seller's money as shop withdrawal sees it, in fen. */
export interface ShopIncome {
  /** The wallet's balance. */
  balance: number;
  /**
   * What a shop withdrawal may take: the sales income (`sale` lines, credited only once an order settles: after its
   * return window, or net of its refund, so that nothing withdrawn can still be refunded) less the late-delivery
   * compensation charged to the seller (`late_charge` lines), what upheld claims charged them (`claim_charge` lines)
   * and what shop withdrawals took (`withdraw` lines) plus what rejected ones returned (`withdraw_return` lines); never
   * more than the balance, so recharged money is not withdrawn through the shop.
   */
  withdrawable: number;
}

/** Coin withdrawals and the accounts they are paid to. */
export interface WithdrawalStore {
  /** The member's bound accounts, if any. */
  accounts(memberId: string): Promise<PayoutAccounts | undefined>;
  /** Binds the given accounts of the member, keeping the others. */
  bind(
    memberId: string,
    accounts: Partial<Pick<PayoutAccounts, 'alipayName' | 'alipayAccount' | 'wechatCode'>>,
    now: number,
  ): Promise<PayoutAccounts>;
  /**
   * Stores a withdrawal under review and takes its coins from the member's ledger (a `withdraw` line), in one
   * transaction that holds the member's row: `pending` when one of theirs is under review, `coins` when they have
   * fewer coins than it takes, `missing` when the member is gone; nothing changed then.
   */
  request(record: Omit<WithdrawalRecord, 'source' | 'status' | 'reason' | 'reviewedAt'>): Promise<WithdrawOutcome>;
  /** The member's balance and what a shop withdrawal may take of it, in fen. */
  income(memberId: string): Promise<ShopIncome>;
  /**
   * Stores a shop withdrawal under review and takes its yuan from the member's money ledger (a `withdraw` line), in
   * one transaction that holds the member's row: `pending` when a shop withdrawal of theirs is under review, `income`
   * when it is more than {@link ShopIncome.withdrawable}, `missing` when the member is gone; nothing changed then.
   */
  requestShop(
    record: Omit<WithdrawalRecord, 'source' | 'coins' | 'status' | 'reason' | 'reviewedAt'>,
  ): Promise<ShopWithdrawOutcome>;
  /**
   * The operator's review of withdrawal `id`, if it is under review: paid, or rejected with `reason` and what it took
   * returned in the same transaction: the coins to the coin ledger, or a shop withdrawal's yuan to the money ledger
   * (each a `withdraw_return` line). Undefined, and nothing changed, otherwise.
   */
  review(id: string, params: { paid: boolean; reason: string; now: number }): Promise<WithdrawalRecord | undefined>;
  /**
   * The member's withdrawals of `source` (default `coins`), newest first, at most `limit`; with `before` (an id of
   * theirs, of that source), only those before it. Undefined when `before` is not one of them.
   */
  byMember(
    memberId: string,
    options: { source?: WithdrawalSource; before?: string | undefined; limit: number },
  ): Promise<WithdrawalRecord[] | undefined>;
  /**
   * Withdrawals in `status`, oldest first, at most `limit`; with `after` (an id listed), only those after it.
   * Undefined when `after` is not in that status.
   */
  list(params: {
    status: WithdrawalStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<WithdrawalRecord[] | undefined>;
}

type WithdrawalTables = {
  member_payout_accounts: {
    member_id: string;
    alipay_name: string;
    alipay_account: string;
    wechat_code: string;
    updated_at: number;
  };
  member_withdrawals: {
    id: string;
    member_id: string;
    source: string;
    amount: number;
    coins: number;
    method: string;
    account_name: string;
    account: string;
    status: string;
    reason: string;
    created_at: number;
    reviewed_at: number | null;
  };
  member_coins: { id: string; member_id: string; amount: number; kind: string; created_at: number };
  member_money: { id: string; member_id: string; amount: number | string; kind: string; created_at: number };
};

type Row = WithdrawalTables['member_withdrawals'];

const recordOf = (row: Row): WithdrawalRecord => ({
  id: row.id,
  memberId: row.member_id,
  source: row.source as WithdrawalSource,
  amount: Number(row.amount),
  coins: Number(row.coins),
  method: row.method as PayoutMethod,
  accountName: row.account_name,
  account: row.account,
  status: row.status as WithdrawalStatus,
  reason: row.reason,
  createdAt: Number(row.created_at),
  ...(row.reviewed_at !== null && { reviewedAt: Number(row.reviewed_at) }),
});

const accountsOf = (row: WithdrawalTables['member_payout_accounts']): PayoutAccounts => ({
  alipayName: row.alipay_name,
  alipayAccount: row.alipay_account,
  wechatCode: row.wechat_code,
  updatedAt: Number(row.updated_at),
});

const ledgerId = () => randomBytes(8).toString('hex');

/** Fen in a yuan: the money ledger keeps fen. */
const FEN = 100;

/** The member's {@link ShopIncome}, read in `db` (in a transaction that holds the member's row, when asking). */
async function incomeOf(db: Kysely<Database & WithdrawalTables>, memberId: string): Promise<ShopIncome> {
  const { balance, income } = await db
    .selectFrom('member_money')
    .select((eb) => [
      eb.fn.sum<string | number | null>('amount').as('balance'),
      eb.fn
        .sum<string | number | null>(
          eb
            .case()
            .when('kind', 'in', ['sale', 'late_charge', 'claim_charge', 'withdraw', 'withdraw_return'])
            .then(eb.ref('amount'))
            .else(0)
            .end(),
        )
        .as('income'),
    ])
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  const total = Number(balance ?? 0);
  return { balance: total, withdrawable: Math.max(0, Math.min(total, Number(income ?? 0))) };
}

/** The Kysely implementation of {@link WithdrawalStore}; the coins are the task store's ledger (`member_coins`). */
export function createWithdrawalStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): WithdrawalStore {
  const db = base.withTables<WithdrawalTables>();
  const byId = (id: string) => db.selectFrom('member_withdrawals').selectAll().where('id', '=', id);
  return {
    async accounts(memberId) {
      const row = await db
        .selectFrom('member_payout_accounts')
        .selectAll()
        .where('member_id', '=', memberId)
        .executeTakeFirst();
      return row && accountsOf(row);
    },
    async bind(memberId, { alipayName, alipayAccount, wechatCode }, now) {
      const changes = {
        ...(alipayName !== undefined && { alipay_name: alipayName }),
        ...(alipayAccount !== undefined && { alipay_account: alipayAccount }),
        ...(wechatCode !== undefined && { wechat_code: wechatCode }),
        updated_at: now,
      };
      const row = await db
        .insertInto('member_payout_accounts')
        .values({ member_id: memberId, alipay_name: '', alipay_account: '', wechat_code: '', ...changes })
        .onConflict((oc) => oc.column('member_id').doUpdateSet(changes))
        .returningAll()
        .executeTakeFirstOrThrow();
      return accountsOf(row);
    },
    async request(record) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, record.memberId, dialect))) return 'missing';
        const pending = await trx
          .selectFrom('member_withdrawals')
          .select('id')
          .where('member_id', '=', record.memberId)
          .where('source', '=', 'coins')
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (pending) return 'pending';
        const { total } = await trx
          .selectFrom('member_coins')
          .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
          .where('member_id', '=', record.memberId)
          .executeTakeFirstOrThrow();
        if (Number(total ?? 0) < record.coins) return 'coins';
        await trx
          .insertInto('member_withdrawals')
          .values({
            id: record.id,
            member_id: record.memberId,
            source: 'coins',
            amount: record.amount,
            coins: record.coins,
            method: record.method,
            account_name: record.accountName,
            account: record.account,
            status: 'pending',
            reason: '',
            created_at: record.createdAt,
            reviewed_at: null,
          })
          .execute();
        await trx
          .insertInto('member_coins')
          .values({
            id: ledgerId(),
            member_id: record.memberId,
            amount: -record.coins,
            kind: 'withdraw',
            created_at: record.createdAt,
          })
          .execute();
        return 'ok';
      });
    },
    income: (memberId) => incomeOf(db, memberId),
    async requestShop(record) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, record.memberId, dialect))) return 'missing';
        const pending = await trx
          .selectFrom('member_withdrawals')
          .select('id')
          .where('member_id', '=', record.memberId)
          .where('source', '=', 'shop')
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (pending) return 'pending';
        const fen = record.amount * FEN;
        if ((await incomeOf(trx, record.memberId)).withdrawable < fen) return 'income';
        await trx
          .insertInto('member_withdrawals')
          .values({
            id: record.id,
            member_id: record.memberId,
            source: 'shop',
            amount: record.amount,
            coins: 0,
            method: record.method,
            account_name: record.accountName,
            account: record.account,
            status: 'pending',
            reason: '',
            created_at: record.createdAt,
            reviewed_at: null,
          })
          .execute();
        const line = { memberId: record.memberId, amount: -fen, ref: record.id, now: record.createdAt };
        await addMoneyLine(trx, { ...line, kind: 'withdraw' });
        return 'ok';
      });
    },
    async review(id, { paid, reason, now }) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('member_withdrawals')
          .set({ status: paid ? 'paid' : 'rejected', reason: paid ? '' : reason, reviewed_at: now })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return undefined;
        const row = await trx
          .selectFrom('member_withdrawals')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const record = recordOf(row);
        if (!paid && record.source === 'shop') {
          const memberId = record.memberId;
          await addMoneyLine(trx, { memberId, amount: record.amount * FEN, kind: 'withdraw_return', ref: id, now });
        } else if (!paid) {
          await trx
            .insertInto('member_coins')
            .values({
              id: ledgerId(),
              member_id: record.memberId,
              amount: record.coins,
              kind: 'withdraw_return',
              created_at: now,
            })
            .execute();
        }
        return record;
      });
    },
    async byMember(memberId, { source = 'coins', before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await byId(before)
          .where('member_id', '=', memberId)
          .where('source', '=', source)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.id };
      }
      const rows = await db
        .selectFrom('member_withdrawals')
        .selectAll()
        .where('member_id', '=', memberId)
        .where('source', '=', source)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async list({ status, after, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (after !== undefined) {
        const found = await byId(after).where('status', '=', status).executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.id };
      }
      const rows = await db
        .selectFrom('member_withdrawals')
        .selectAll()
        .where('status', '=', status)
        .where(newerThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
  };
}
