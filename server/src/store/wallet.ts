import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { keysetOf, newerThan, olderThan } from './keyset.js';
import { holdOpenMember } from './member-lock.js';
import type { Database } from './schema.js';

/** How a recharge is paid: Alipay or WeChat Pay. */
export type RechargeMethod = 'alipay' | 'wechat';

/**
 * Where a recharge stands (spec §4 payment: unpaid, success, abnormal, failed): waiting for its payment, paid and in
 * the balance, failed with a reason, cancelled by the member before it was paid, or abnormal: a payment arrived that
 * could not be credited as it came (another amount, or after the recharge had failed), and waits for the operator.
 */
export type RechargeStatus = 'unpaid' | 'success' | 'abnormal' | 'failed' | 'cancelled';

/** One recharge of a member's wallet. */
export interface RechargeRecord {
  id: string;
  memberId: string;
  /** Fen (0.01 yuan). */
  amount: number;
  method: RechargeMethod;
  status: RechargeStatus;
  /** Why it failed, or why it is abnormal; empty otherwise. */
  reason: string;
  /** The payment's reference at the payment provider, as the operator gave it when it was paid; empty otherwise. */
  reference: string;
  createdAt: number;
  /** When it was paid, failed or cancelled. */
  closedAt?: number;
  /** The code of the checkout whose orders it pays once paid; empty for a recharge of the wallet itself. */
  orderCode: string;
}

/**
 * What moved money in or out of a wallet: a recharge paid in, a payment for an order (out), the sale of an order
 * once it settled (in, to the seller: its return window passed, or a refund left the rest), a refund of an order (in,
 * to the buyer, also when a claim on it is upheld), a seller's withdrawal of sales income (out), a rejected
 * withdrawal's money back (in), the late-delivery compensation of an order (in, to the buyer), that compensation
 * charged to its seller when the order settled (out), the counterfeit compensation of an upheld claim (in, to the
 * buyer), or what an upheld claim charged the seller: that compensation, and what went back to the buyer of an order
 * the seller had been paid for (out).
 */
export type MoneyKind =
  | 'recharge'
  | 'order'
  | 'sale'
  | 'refund'
  | 'withdraw'
  | 'withdraw_return'
  | 'compensation'
  | 'late_charge'
  | 'claim_compensation'
  | 'claim_charge';

/** One line of a wallet's ledger; their sum is the balance. */
export interface MoneyLine {
  id: string;
  /** Fen, negative when money left. */
  amount: number;
  kind: MoneyKind;
  /**
   * The id of what moved it: the recharge, the code of the orders paid, the order sold or compensated, or the refund.
   */
  ref: string;
  createdAt: number;
}

/** Adds a line to a member's ledger in `trx`, the transaction that moves the money. */
export async function addMoneyLine(
  trx: QueryExecutorProvider,
  line: { memberId: string; amount: number; kind: MoneyKind; ref: string; now: number },
): Promise<void> {
  await sql`insert into member_money (id, member_id, amount, kind, ref, created_at) values (${randomBytes(8).toString('hex')}, ${line.memberId}, ${line.amount}, ${line.kind}, ${line.ref}, ${line.now})`.execute(
    trx,
  );
}

/** What asking for a recharge came to: stored, or refused (nothing changed). */
export type RechargeOutcome = 'ok' | 'pending' | 'missing';

/** Members' wallets: their recharges and the ledger of their money. */
export interface WalletStore {
  /** The member's balance, and what their unpaid recharges add up to, in fen. */
  balance(memberId: string): Promise<{ balance: number; unpaid: number }>;
  /**
   * The member's ledger, newest first, at most `limit`; with `before` (an id of theirs), only those before it.
   * Undefined when `before` is not theirs.
   */
  lines(memberId: string, options: { before?: string | undefined; limit: number }): Promise<MoneyLine[] | undefined>;
  /**
   * Stores an unpaid recharge, in one transaction that holds the member's row: `pending` when `maxUnpaid` of theirs
   * are unpaid already, `missing` when the member is gone; nothing changed then.
   */
  recharge(
    record: Omit<RechargeRecord, 'status' | 'reason' | 'reference' | 'closedAt' | 'orderCode'> & { orderCode?: string },
    maxUnpaid: number,
  ): Promise<RechargeOutcome>;
  /** Cancels the member's recharge `id` if it is unpaid; undefined, and nothing changed, otherwise. */
  cancel(memberId: string, id: string, now: number): Promise<RechargeRecord | undefined>;
  /**
   * The payment of recharge `id`, as the operator reports it. Paid: an unpaid, cancelled or abnormal recharge (money
   * that arrives after a cancel is still the member's) becomes `success` with `reference`, and its amount enters the
   * ledger (a `recharge` line) in the same transaction. Not paid: an unpaid or abnormal one becomes `failed` with
   * `reason`. Undefined, and nothing changed, otherwise; so a payment reported twice is credited once.
   */
  settle(
    id: string,
    params: { paid: boolean; reason: string; reference: string; now: number },
  ): Promise<RechargeRecord | undefined>;
  /**
   * The member's recharges, newest first, at most `limit`; with `before` (an id of theirs), only those before it.
   * Undefined when `before` is not theirs.
   */
  recharges(
    memberId: string,
    options: { before?: string | undefined; limit: number },
  ): Promise<RechargeRecord[] | undefined>;
  /**
   * Recharges in `status`, oldest first, at most `limit`; with `after` (an id listed), only those after it.
   * Undefined when `after` is not in that status.
   */
  list(params: {
    status: RechargeStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<RechargeRecord[] | undefined>;
  /** Recharge `id`, whatever its status; undefined when there is none. */
  find(id: string): Promise<RechargeRecord | undefined>;
  /** The member's newest recharge that pays the orders of checkout `code`, whatever its status; undefined if none. */
  forOrder(memberId: string, code: string): Promise<RechargeRecord | undefined>;
  /**
   * PAY-8: recharge `id` becomes `abnormal` with `reason` and the payment's `reference`, if it is not paid, not
   * abnormal already; undefined, and nothing changed, otherwise.
   */
  flag(id: string, params: { reason: string; reference: string; now: number }): Promise<RechargeRecord | undefined>;
}

type WalletTables = {
  member_recharges: {
    id: string;
    member_id: string;
    amount: number | string;
    method: string;
    status: string;
    reason: string;
    reference: string;
    created_at: number;
    closed_at: number | null;
    order_code: string;
  };
  member_money: {
    id: string;
    member_id: string;
    amount: number | string;
    kind: string;
    ref: string;
    created_at: number;
  };
};

const recordOf = (row: WalletTables['member_recharges']): RechargeRecord => ({
  id: row.id,
  memberId: row.member_id,
  amount: Number(row.amount),
  method: row.method as RechargeMethod,
  status: row.status as RechargeStatus,
  reason: row.reason,
  reference: row.reference,
  createdAt: Number(row.created_at),
  ...(row.closed_at !== null && { closedAt: Number(row.closed_at) }),
  orderCode: row.order_code,
});

const lineOf = (row: WalletTables['member_money']): MoneyLine => ({
  id: row.id,
  amount: Number(row.amount),
  kind: row.kind as MoneyKind,
  ref: row.ref,
  createdAt: Number(row.created_at),
});

/** The Kysely implementation of {@link WalletStore}. */
export function createWalletStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): WalletStore {
  const db = base.withTables<WalletTables>();
  const sum = (table: 'member_money' | 'member_recharges', memberId: string) =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
      .where('member_id', '=', memberId);
  return {
    async find(id) {
      const row = await db.selectFrom('member_recharges').selectAll().where('id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async forOrder(memberId, code) {
      const row = await db
        .selectFrom('member_recharges')
        .selectAll()
        .where('member_id', '=', memberId)
        .where('order_code', '=', code)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async balance(memberId) {
      const [money, unpaid] = await Promise.all([
        sum('member_money', memberId).executeTakeFirstOrThrow(),
        sum('member_recharges', memberId).where('status', '=', 'unpaid').executeTakeFirstOrThrow(),
      ]);
      return { balance: Number(money.total ?? 0), unpaid: Number(unpaid.total ?? 0) };
    },
    async lines(memberId, { before, limit }) {
      const cursor = await keysetOf(db, 'member_money', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_money')
        .selectAll()
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(lineOf);
    },
    async recharge(record, maxUnpaid) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, record.memberId, dialect))) return 'missing';
        const { unpaid } = await trx
          .selectFrom('member_recharges')
          .select((eb) => eb.fn.countAll<string | number>().as('unpaid'))
          .where('member_id', '=', record.memberId)
          .where('status', '=', 'unpaid')
          .executeTakeFirstOrThrow();
        if (Number(unpaid) >= maxUnpaid) return 'pending';
        await trx
          .insertInto('member_recharges')
          .values({
            id: record.id,
            member_id: record.memberId,
            amount: record.amount,
            method: record.method,
            status: 'unpaid',
            reason: '',
            reference: '',
            created_at: record.createdAt,
            closed_at: null,
            order_code: record.orderCode ?? '',
          })
          .execute();
        return 'ok';
      });
    },
    async cancel(memberId, id, now) {
      const row = await db
        .updateTable('member_recharges')
        .set({ status: 'cancelled', closed_at: now })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .where('status', '=', 'unpaid')
        .returningAll()
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async settle(id, { paid, reason, reference, now }) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('member_recharges')
          .set(
            paid
              ? { status: 'success', reason: '', reference, closed_at: now }
              : { status: 'failed', reason, closed_at: now },
          )
          .where('id', '=', id)
          .where('status', 'in', paid ? ['unpaid', 'cancelled', 'abnormal'] : ['unpaid', 'abnormal'])
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        const record = recordOf(row);
        if (paid)
          await addMoneyLine(trx, { memberId: record.memberId, amount: record.amount, kind: 'recharge', ref: id, now });
        return record;
      });
    },
    async flag(id, { reason, reference, now }) {
      const row = await db
        .updateTable('member_recharges')
        .set({ status: 'abnormal', reason, reference, closed_at: now })
        .where('id', '=', id)
        .where('status', 'in', ['unpaid', 'cancelled', 'failed'])
        .returningAll()
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async recharges(memberId, { before, limit }) {
      const cursor = await keysetOf(db, 'member_recharges', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_recharges')
        .selectAll()
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async list({ status, after, limit }) {
      const cursor = await keysetOf(db, 'member_recharges', after, { column: 'status', value: status });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('member_recharges')
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
