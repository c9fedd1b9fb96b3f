import type { Kysely, Transaction } from 'kysely';
import {
  OPEN_REFUND,
  type OrderDatabase,
  type OrderRecord,
  orderDatabase,
  type OrderRow,
  withItems,
} from './orders.js';
import type { Database } from './schema.js';
import { addMoneyLine } from './wallet.js';

/** The late-delivery compensation of an order shipped late: one paid before `paidBefore` gives `amount` fen. */
export interface LateDelivery {
  paidBefore: number;
  amount: number;
}

/**
 * The service guarantees' steps of {@link OrderStore} (spec §9 "No-reason return: 7 days", "Late-delivery
 * compensation coupon: at least 3 yuan"): each one transaction, each taken once.
 */
export interface GuaranteeSteps {
  /**
   * What time settles of the guarantees, at most `limit` of each, each order moved from the state it was found in:
   * a completed order completed before `returnBefore` (its return window passed), not settled, with no refund under
   * way and no claim pending, pays its seller their proceeds; a paid order paid before `lateBefore`, not shipped, not
   * compensated and with no refund under way, gives its buyer `compensation` fen. Answers the orders it changed.
   */
  settleGuarantees(params: {
    returnBefore: number;
    lateBefore: number;
    compensation: number;
    now: number;
    limit: number;
  }): Promise<OrderRecord[]>;
}

/**
 * Pays the seller of order `id` its proceeds in `trx`, once: what the buyer paid less what was `refunded` (a `sale`
 * line, when anything is left) and less the late-delivery compensation its buyer got (a `late_charge` line,
 * taken from the proceeds, and from the seller's balance when a refund left too little). Answers whether it paid,
 * false when the order was settled already.
 */
export async function payProceeds(
  trx: Transaction<OrderDatabase>,
  id: string,
  refunded: number,
  now: number,
): Promise<boolean> {
  const settled = await trx
    .updateTable('orders')
    .set({ settled_at: now })
    .where('id', '=', id)
    .where('settled_at', 'is', null)
    // A refund asked for or a claim filed at the same time wins: the proceeds wait for it.
    .where('refund_status', 'not in', OPEN_REFUND)
    .where('claim_status', '!=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!settled) return false;
  const memberId = settled.seller_id;
  const rest = Number(settled.total) - refunded;
  if (rest > 0) await addMoneyLine(trx, { memberId, amount: rest, kind: 'sale', ref: settled.id, now });
  const compensation = Number(settled.compensation);
  if (compensation > 0) {
    await addMoneyLine(trx, { memberId, amount: -compensation, kind: 'late_charge', ref: settled.id, now });
  }
  return true;
}

/**
 * Gives the buyer of order `id` the late-delivery compensation of `amount` fen in `trx`, once (a `compensation`
 * line). The order's row after, or undefined when it was compensated already.
 */
export async function compensateIn(
  trx: Transaction<OrderDatabase>,
  id: string,
  amount: number,
  now: number,
): Promise<OrderRow | undefined> {
  const row = await trx
    .updateTable('orders')
    .set({ compensation: amount, compensated_at: now })
    .where('id', '=', id)
    .where('compensated_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (row) await addMoneyLine(trx, { memberId: row.buyer_id, amount, kind: 'compensation', ref: row.id, now });
  return row;
}

/** The guarantee steps over the order tables. */
export function createGuaranteeSteps(base: Kysely<Database>): GuaranteeSteps {
  const db = orderDatabase(base);
  return {
    async settleGuarantees({ returnBefore, lateBefore, compensation, now, limit }) {
      const [returned, late] = await Promise.all([
        db
          .selectFrom('orders')
          .select('id')
          .where('status', '=', 'completed')
          .where('completed_at', '<', returnBefore)
          .where('settled_at', 'is', null)
          .where('refund_status', 'not in', OPEN_REFUND)
          .where('claim_status', '!=', 'pending')
          .orderBy('completed_at')
          .limit(limit)
          .execute(),
        db
          .selectFrom('orders')
          .select('id')
          .where('status', '=', 'paid')
          .where('paid_at', '<', lateBefore)
          .where('compensated_at', 'is', null)
          .where('refund_status', 'not in', OPEN_REFUND)
          .orderBy('paid_at')
          .limit(limit)
          .execute(),
      ]);
      if (returned.length === 0 && late.length === 0) return [];
      const changed = await db.transaction().execute(async (trx) => {
        const rows: OrderRow[] = [];
        // Each moves only from the state it was found in, so that a refund or a shipment at the same time wins.
        for (const { id } of returned) {
          const row = await trx
            .selectFrom('orders')
            .selectAll()
            .where('id', '=', id)
            .where('status', '=', 'completed')
            .executeTakeFirst();
          if (row && (await payProceeds(trx, id, 0, now))) rows.push(row);
        }
        for (const { id } of late) {
          const paid = await trx
            .selectFrom('orders')
            .select('id')
            .where('id', '=', id)
            .where('status', '=', 'paid')
            .where('refund_status', 'not in', OPEN_REFUND)
            .executeTakeFirst();
          const row = paid && (await compensateIn(trx, id, compensation, now));
          if (row) rows.push(row);
        }
        return rows;
      });
      if (changed.length === 0) return [];
      // Read again: a row taken before its own settlement would show it unsettled.
      const fresh = await db
        .selectFrom('orders')
        .selectAll()
        .where(
          'id',
          'in',
          changed.map((row) => row.id),
        )
        .execute();
      const byId = new Map(fresh.map((row) => [row.id, row]));
      return withItems(
        db,
        changed.flatMap((row) => byId.get(row.id) ?? []),
      );
    },
  };
}
