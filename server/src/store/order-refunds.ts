import type { Kysely, Transaction } from 'kysely';
import {
  OPEN_REFUND,
  type Logistics,
  type OrderDatabase,
  type OrderRecord,
  orderDatabase,
  type OrderRow,
  type RefundRow,
  type RefundStatus,
  restock,
  withItems,
} from './orders.js';
import { payProceeds } from './order-guarantees.js';
import type { Database } from './schema.js';
import { addMoneyLine } from './wallet.js';

/**
 * Why a refund was refused, nothing changed: no such order of the buyer's (`missing`), one not paid yet (`unpaid`),
 * one that has ended (`ended`: refunded, cancelled, or completed and past its return window), one with a refund under
 * way (`open`), one with a claim waiting for the operator (`claim`), or an amount above what was paid (`amount`).
 */
export type RefundApplyFailure = 'missing' | 'unpaid' | 'ended' | 'open' | 'claim' | 'amount';

/** What the seller decides on a refund waiting for them. */
export type RefundDecision = { agree: true; withReturn: boolean } | { agree: false; reason: string };

/** The refund steps of {@link OrderStore}: each one transaction, each taken once. */
export interface RefundSteps {
  /**
   * The buyer asks for a refund of `amount` fen of their paid or shipped order, or of their completed one completed
   * at or after `returnSince` whose seller was not paid yet (spec §9 "No-reason return"), none under way and no claim
   * of it pending: the refund waits for the seller, and the order waits for the refund (it is neither shipped,
   * completed nor settled meanwhile).
   */
  applyRefund(params: {
    id: string;
    orderId: string;
    buyerId: string;
    amount: number;
    reason: string;
    description: string;
    images: string[];
    /** The earliest completion whose order may still be returned. */
    returnSince: number;
    now: number;
  }): Promise<{ ok: true; value: OrderRecord } | { ok: false; failure: RefundApplyFailure }>;
  /** The buyer cancels the refund of their order, waiting for the seller or for the goods. */
  cancelRefund(buyerId: string, orderId: string, now: number): Promise<OrderRecord | undefined>;
  /** The buyer sends the goods back, as the seller agreed: `logistics` of the parcel. */
  sendBack(buyerId: string, orderId: string, logistics: Logistics, now: number): Promise<OrderRecord | undefined>;
  /**
   * The seller decides on the refund waiting for them: agreed without return, the money goes back (the order is
   * refunded and ends), never for a completed order, whose goods the buyer has (undefined then); agreed with return,
   * it waits for the goods; refused, with a reason.
   */
  decideRefund(
    sellerId: string,
    orderId: string,
    decision: RefundDecision,
    now: number,
  ): Promise<OrderRecord | undefined>;
  /** The seller received the goods sent back: the money goes back, the order is refunded and ends. */
  receiveReturn(sellerId: string, orderId: string, now: number): Promise<OrderRecord | undefined>;
  /**
   * What time settles, at most `limit` of each, each refund moved from the state it was found in: a refund waiting
   * for the seller since before `repliedBefore` is agreed, without return (the money goes back) or, for a completed
   * order, with return; one waiting for the
   * goods since before `sentBefore` is cancelled; goods sent back before `receivedBefore` count as received (the
   * money goes back). Answers the orders it changed.
   */
  settleRefunds(params: {
    repliedBefore: number;
    sentBefore: number;
    receivedBefore: number;
    now: number;
    limit: number;
  }): Promise<OrderRecord[]>;
}

/** Whose order a step is taken on: the buyer's, the seller's, or any (time's). */
type Side = { buyerId: string } | { sellerId: string } | Record<string, never>;

/** The refund steps over the order tables. */
export function createRefundSteps(base: Kysely<Database>): RefundSteps {
  const db = orderDatabase(base);
  const one = async (row: OrderRow | undefined) => (row ? (await withItems(db, [row]))[0] : undefined);

  /**
   * Moves the latest refund of the order `orderId` of `side` from one of `from` to `to`, with `set`; at `refunded`,
   * the money goes back to the buyer (a `refund` line), the seller is paid what is left (`payProceeds`), and the
   * order ends; its goods go back in stock when they are with the seller, the order never shipped or the goods sent
   * back. A completed order is refunded only from `returned`: its goods come back first. The order's row after, or
   * undefined, nothing changed.
   */
  const step = (
    side: Side,
    orderId: string,
    move: { from: readonly RefundStatus[]; to: RefundStatus; set?: Partial<RefundRow>; now: number },
  ) =>
    db.transaction().execute(async (trx: Transaction<OrderDatabase>) => {
      const order = await trx
        .selectFrom('orders')
        .selectAll()
        .where('id', '=', orderId)
        .$if('buyerId' in side, (q) => q.where('buyer_id', '=', (side as { buyerId: string }).buyerId))
        .$if('sellerId' in side, (q) => q.where('seller_id', '=', (side as { sellerId: string }).sellerId))
        .executeTakeFirst();
      if (!order || order.refund_id === '') return undefined;
      const from =
        order.status === 'completed' && move.to === 'refunded'
          ? move.from.filter((status) => status === 'returned')
          : move.from;
      if (from.length === 0) return undefined;
      const refund = await trx
        .updateTable('order_refunds')
        .set({ ...move.set, status: move.to, updated_at: move.now })
        .where('id', '=', order.refund_id)
        .where('status', 'in', from)
        .returningAll()
        .executeTakeFirst();
      if (!refund) return undefined;
      const refunded = move.to === 'refunded';
      const row = await trx
        .updateTable('orders')
        .set({ refund_status: move.to, ...(refunded && { status: 'refunded', closed_at: move.now }) })
        .where('id', '=', order.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (refunded) {
        const amount = Number(refund.amount);
        const now = move.now;
        await addMoneyLine(trx, { memberId: row.buyer_id, amount, kind: 'refund', ref: refund.id, now });
        await payProceeds(trx, row.id, amount, now);
        if (order.status === 'paid' || refund.return_number !== '') await restock(trx, row.id);
        return { ...row, settled_at: now };
      }
      return row;
    });

  return {
    async applyRefund({ id, orderId, buyerId, amount, reason, description, images, returnSince, now }) {
      const outcome = await db.transaction().execute(async (trx) => {
        const order = await trx
          .selectFrom('orders')
          .selectAll()
          .where('id', '=', orderId)
          .where('buyer_id', '=', buyerId)
          .executeTakeFirst();
        if (!order) return 'missing' as const;
        if (order.status === 'unpaid') return 'unpaid' as const;
        const returnable =
          order.status === 'completed' && order.settled_at === null && Number(order.completed_at) >= returnSince;
        if (order.status !== 'paid' && order.status !== 'shipped' && !returnable) return 'ended' as const;
        if ((OPEN_REFUND as readonly string[]).includes(order.refund_status)) return 'open' as const;
        if (order.claim_status === 'pending') return 'claim' as const;
        if (amount > Number(order.total)) return 'amount' as const;
        const row = await trx
          .updateTable('orders')
          .set({ refund_id: id, refund_status: 'pending' })
          .where('id', '=', orderId)
          .where('status', 'in', ['paid', 'shipped', 'completed'])
          // The seller's proceeds paid meanwhile end the return window.
          .where('settled_at', 'is', null)
          .where('refund_status', 'not in', OPEN_REFUND)
          // A claim filed at the same time wins.
          .where('claim_status', '!=', 'pending')
          .returningAll()
          .executeTakeFirst();
        if (!row) {
          // A step of this order committed meanwhile, read now as it stands: a claim filed, the proceeds paid (the
          // return window over) or the order closed, or a refund asked for.
          const moved = await trx
            .selectFrom('orders')
            .select(['claim_status', 'settled_at', 'status'])
            .where('id', '=', orderId)
            .executeTakeFirst();
          if (moved?.claim_status === 'pending') return 'claim' as const;
          if (!moved || moved.settled_at !== null || !['paid', 'shipped', 'completed'].includes(moved.status)) {
            return 'ended' as const;
          }
          return 'open' as const;
        }
        await trx
          .insertInto('order_refunds')
          .values({
            id,
            order_id: orderId,
            amount,
            reason,
            description,
            images: JSON.stringify(images),
            status: 'pending',
            refuse_reason: '',
            return_company: '',
            return_number: '',
            created_at: now,
            updated_at: now,
          })
          .execute();
        return row;
      });
      if (typeof outcome === 'string') return { ok: false, failure: outcome };
      const record = await one(outcome);
      return record ? { ok: true, value: record } : { ok: false, failure: 'missing' };
    },
    async cancelRefund(buyerId, orderId, now) {
      return one(await step({ buyerId }, orderId, { from: ['pending', 'returning'], to: 'cancelled', now }));
    },
    async sendBack(buyerId, orderId, logistics, now) {
      const set = { return_company: logistics.company, return_number: logistics.number };
      return one(await step({ buyerId }, orderId, { from: ['returning'], to: 'returned', set, now }));
    },
    async decideRefund(sellerId, orderId, decision, now) {
      const to: RefundStatus = !decision.agree ? 'refused' : decision.withReturn ? 'returning' : 'refunded';
      const set = decision.agree ? {} : { refuse_reason: decision.reason };
      return one(await step({ sellerId }, orderId, { from: ['pending'], to, set, now }));
    },
    async receiveReturn(sellerId, orderId, now) {
      return one(await step({ sellerId }, orderId, { from: ['returned'], to: 'refunded', now }));
    },
    async settleRefunds({ repliedBefore, sentBefore, receivedBefore, now, limit }) {
      const due = (status: RefundStatus, before: number) =>
        db
          .selectFrom('order_refunds')
          .innerJoin('orders', 'orders.id', 'order_refunds.order_id')
          .select(['order_refunds.order_id', 'orders.status'])
          .where('order_refunds.status', '=', status)
          .where('order_refunds.updated_at', '<', before)
          .orderBy('order_refunds.updated_at')
          .limit(limit)
          .execute();
      const moves = [
        { rows: await due('pending', repliedBefore), from: 'pending', to: 'refunded' },
        { rows: await due('returning', sentBefore), from: 'returning', to: 'cancelled' },
        { rows: await due('returned', receivedBefore), from: 'returned', to: 'refunded' },
      ] as const;
      const changed: OrderRow[] = [];
      for (const { rows, from, to } of moves) {
        for (const { order_id: orderId, status } of rows) {
          // A completed order's goods are with the buyer: agreed by time, they come back first.
          const next = from === 'pending' && status === 'completed' ? 'returning' : to;
          const row = await step({}, orderId, { from: [from], to: next, now });
          if (row) changed.push(row);
        }
      }
      return withItems(db, changed);
    },
  };
}
