import { sql, type Kysely, type QueryExecutorProvider, type Transaction } from 'kysely';
import { keysetOf, newerThan } from './keyset.js';
import { payProceeds } from './order-guarantees.js';
import {
  OPEN_REFUND,
  type OrderDatabase,
  type OrderDb,
  type OrderRecord,
  orderDatabase,
  type OrderRow,
  withItems,
} from './orders.js';
import type { Database } from './schema.js';
import { addMoneyLine } from './wallet.js';

/** What a buyer claims under the service guarantees (spec §9): goods that arrived damaged, or counterfeit goods. */
export type ClaimKind = 'damage' | 'counterfeit';

/** Every kind of claim. */
export const CLAIM_KINDS: readonly ClaimKind[] = ['damage', 'counterfeit'];

/**
 * Where a claim stands: waiting for the operator (`pending`), upheld (the money went back, and for a counterfeit the
 * compensation too), rejected with a reason, or cancelled by the buyer.
 */
export type ClaimStatus = 'pending' | 'upheld' | 'rejected' | 'cancelled';

/** Every state of a claim. */
export const CLAIM_STATUSES: readonly ClaimStatus[] = ['pending', 'upheld', 'rejected', 'cancelled'];

/** A buyer's claim on their order, as they filed it and as the operator decided it. Money in fen. */
export interface ClaimRecord {
  id: string;
  orderId: string;
  /** The order's checkout code. */
  orderCode: string;
  kind: ClaimKind;
  buyerId: string;
  sellerId: string;
  shopId: string;
  /** What the buyer paid for the order. */
  total: number;
  description: string;
  /** The buyer's photos. */
  images: string[];
  status: ClaimStatus;
  /** The operator's reason; empty when none was given. */
  reason: string;
  /** What went back to the buyer: the order's total once upheld, 0 otherwise. */
  refund: number;
  /** The counterfeit compensation the buyer got: 0 unless an upheld counterfeit claim. */
  compensation: number;
  createdAt: number;
  /** When the operator decided it. */
  decidedAt?: number;
}

/**
 * Why a claim was refused, nothing changed: no such order of the buyer's (`missing`), one neither shipped nor
 * completed (`state`), a claim of it pending (`open`), a refund of it under way (`refund`), this kind decided on it
 * already (`decided`), or a completed order past the kind's time (`window`).
 */
export type ClaimFileFailure = 'missing' | 'state' | 'open' | 'refund' | 'decided' | 'window';

/** The operator's decision on a claim: upheld (a counterfeit's compensation `times` what was paid), or rejected. */
export type ClaimDecision = { uphold: true; reason: string; times: number } | { uphold: false; reason: string };

/** The claim steps of {@link OrderStore}: each one transaction, each taken once. */
export interface ClaimSteps {
  /**
   * The buyer claims `kind` on their shipped or completed order, with no claim of it pending, no refund under way and
   * the kind not decided on it before; a completed order only when it completed at or after `since` (`freshSince` when
   * it holds a product of a fresh category). The order then waits for the claim: its seller is not paid and time does
   * not complete it meanwhile, and no refund is asked for.
   */
  fileClaim(params: {
    id: string;
    orderId: string;
    buyerId: string;
    kind: ClaimKind;
    description: string;
    images: string[];
    since: number;
    freshSince: number;
    now: number;
  }): Promise<{ ok: true; value: OrderRecord } | { ok: false; failure: ClaimFileFailure }>;
  /** The buyer cancels their order's pending claim; undefined, and nothing changed, when none is pending. */
  cancelClaim(buyerId: string, orderId: string): Promise<OrderRecord | undefined>;
  /**
   * The operator decides pending claim `id`. Rejected, the order goes on. Upheld, in the same transaction: the order
   * is refunded and ends (its goods stay with the buyer, out of stock), the buyer gets the total back (a `refund` line,
   * `ref` the order) and for a counterfeit `times` the total as compensation (`claim_compensation`), charged to the
   * seller (`claim_charge`); an order not settled yet settles as a refunded one does (its seller paid nothing, less
   * any late-delivery charge), one settled already charges its seller the total (`claim_charge`). The order after,
   * carrying the claim, or undefined when the claim is not pending.
   */
  decideClaim(id: string, decision: ClaimDecision, now: number): Promise<OrderRecord | undefined>;
  /**
   * Claims in `status`, oldest first, at most `limit`; with `after` (an id listed), only those after it. Undefined
   * when `after` is not in that status.
   */
  claims(params: {
    status: ClaimStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<ClaimRecord[] | undefined>;
}

/** The claims' table. */
export type ClaimTables = {
  order_claims: {
    id: string;
    order_id: string;
    kind: string;
    buyer_id: string;
    seller_id: string;
    description: string;
    images: string;
    status: string;
    reason: string;
    refund: number | string;
    compensation: number | string;
    created_at: number;
    decided_at: number | null;
  };
};

type ClaimRow = ClaimTables['order_claims'];

/** A claim as its order and the operator's queue give it, with what it needs of its order. */
export const claimOf = (row: ClaimRow, order: Pick<OrderRow, 'code' | 'shop_id' | 'total'>): ClaimRecord => ({
  id: row.id,
  orderId: row.order_id,
  orderCode: order.code,
  kind: row.kind as ClaimKind,
  buyerId: row.buyer_id,
  sellerId: row.seller_id,
  shopId: order.shop_id,
  total: Number(order.total),
  description: row.description,
  images: JSON.parse(row.images) as string[],
  status: row.status as ClaimStatus,
  reason: row.reason,
  refund: Number(row.refund),
  compensation: Number(row.compensation),
  createdAt: Number(row.created_at),
  ...(row.decided_at !== null && { decidedAt: Number(row.decided_at) }),
});

/** What an order carries of its claims, and whether it holds fresh products. */
export interface ClaimsOf {
  latest?: ClaimRecord;
  decided: ClaimKind[];
  fresh: boolean;
}

/** Those of orders `ids` that hold a product of a fresh category (one still kept). */
async function freshOrders(db: OrderDb, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('order_items')
    .innerJoin('products', 'products.id', 'order_items.product_id')
    .innerJoin('product_categories', 'product_categories.id', 'products.category_id')
    .select('order_items.order_id')
    .distinct()
    .where('order_items.order_id', 'in', ids)
    .where('product_categories.fresh', '=', 1)
    .where('product_categories.deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.order_id));
}

/**
 * What the orders of `rows` carry of their claims: each one's latest and the kinds decided on it (read only for the
 * orders that ever had one), and whether each holds fresh products.
 */
export async function claimsOf(db: OrderDb, rows: readonly OrderRow[]): Promise<Map<string, ClaimsOf>> {
  const claimed = rows.filter((row) => row.claim_id !== '');
  const claims =
    claimed.length === 0
      ? []
      : await db
          .selectFrom('order_claims')
          .selectAll()
          .where(
            'order_id',
            'in',
            claimed.map((row) => row.id),
          )
          .where((eb) =>
            eb.or([
              eb(
                'id',
                'in',
                claimed.map((row) => row.claim_id),
              ),
              eb('status', 'in', ['upheld', 'rejected']),
            ]),
          )
          .execute();
  const fresh = await freshOrders(
    db,
    rows.map((row) => row.id),
  );
  const byOrder = new Map<string, ClaimsOf>();
  for (const row of rows) {
    const own = claims.filter((claim) => claim.order_id === row.id);
    const latest = own.find((claim) => claim.id === row.claim_id);
    const decided = own.filter((claim) => claim.status === 'upheld' || claim.status === 'rejected');
    byOrder.set(row.id, {
      ...(latest && { latest: claimOf(latest, row) }),
      decided: [...new Set(decided.map((claim) => claim.kind as ClaimKind))].sort(),
      fresh: fresh.has(row.id),
    });
  }
  return byOrder;
}

/**
 * Holds order `id`'s row until `trx` ends, so that a claim, a refund and the order's settlement asked for at once
 * take their turns: on PostgreSQL by locking it; SQLite writes one transaction at a time anyway.
 */
async function holdOrder(trx: QueryExecutorProvider, id: string, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select id from orders where id = ${id} for update`.execute(trx);
}

/** The claim steps over the order tables. */
export function createClaimSteps(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ClaimSteps {
  const db = orderDatabase(base);
  const one = async (row: OrderRow | undefined) => (row ? (await withItems(db, [row]))[0] : undefined);
  const orderRow = (trx: Transaction<OrderDatabase>, id: string) =>
    trx.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();

  /** Upholds claim `claim` of order `order` in `trx`: the order ends, and the money moves. */
  const upholdIn = async (trx: Transaction<OrderDatabase>, order: OrderRow, claim: ClaimRow, now: number) => {
    const { id, buyer_id: buyerId, seller_id: sellerId } = order;
    const total = Number(order.total);
    const compensation = Number(claim.compensation);
    await trx
      .updateTable('orders')
      .set({ status: 'refunded', closed_at: now, claim_status: 'upheld' })
      .where('id', '=', id)
      .execute();
    await addMoneyLine(trx, { memberId: buyerId, amount: total, kind: 'refund', ref: id, now });
    // Not settled yet, the seller is paid what the refund left (nothing); settled, they give back what they had.
    if (order.settled_at === null) await payProceeds(trx, id, total, now);
    else await addMoneyLine(trx, { memberId: sellerId, amount: -total, kind: 'claim_charge', ref: id, now });
    if (compensation > 0) {
      await addMoneyLine(trx, { memberId: buyerId, amount: compensation, kind: 'claim_compensation', ref: id, now });
      await addMoneyLine(trx, { memberId: sellerId, amount: -compensation, kind: 'claim_charge', ref: id, now });
    }
  };

  return {
    async fileClaim({ id, orderId, buyerId, kind, description, images, since, freshSince, now }) {
      const outcome = await db.transaction().execute(async (trx) => {
        await holdOrder(trx, orderId, dialect);
        const order = await orderRow(trx, orderId);
        if (!order || order.buyer_id !== buyerId) return 'missing' as const;
        if (order.status !== 'shipped' && order.status !== 'completed') return 'state' as const;
        if (order.claim_status === 'pending') return 'open' as const;
        if ((OPEN_REFUND as readonly string[]).includes(order.refund_status)) return 'refund' as const;
        const decided = await trx
          .selectFrom('order_claims')
          .select('id')
          .where('order_id', '=', orderId)
          .where('kind', '=', kind)
          .where('status', 'in', ['upheld', 'rejected'])
          .executeTakeFirst();
        if (decided) return 'decided' as const;
        if (order.status === 'completed') {
          const earliest = (await freshOrders(trx, [orderId])).has(orderId) ? freshSince : since;
          if (Number(order.completed_at) < earliest) return 'window' as const;
        }
        await trx
          .insertInto('order_claims')
          .values({
            id,
            order_id: orderId,
            kind,
            buyer_id: buyerId,
            seller_id: order.seller_id,
            description,
            images: JSON.stringify(images),
            status: 'pending',
            reason: '',
            refund: 0,
            compensation: 0,
            created_at: now,
            decided_at: null,
          })
          .execute();
        return trx
          .updateTable('orders')
          .set({ claim_id: id, claim_status: 'pending' })
          .where('id', '=', orderId)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      if (typeof outcome === 'string') return { ok: false, failure: outcome };
      const record = await one(outcome);
      return record ? { ok: true, value: record } : { ok: false, failure: 'missing' };
    },

    async cancelClaim(buyerId, orderId) {
      const row = await db.transaction().execute(async (trx) => {
        await holdOrder(trx, orderId, dialect);
        const order = await orderRow(trx, orderId);
        if (!order || order.buyer_id !== buyerId || order.claim_status !== 'pending') return undefined;
        await trx
          .updateTable('order_claims')
          .set({ status: 'cancelled' })
          .where('id', '=', order.claim_id)
          .where('status', '=', 'pending')
          .execute();
        return trx
          .updateTable('orders')
          .set({ claim_status: 'cancelled' })
          .where('id', '=', orderId)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return one(row);
    },

    async decideClaim(id, decision, now) {
      const row = await db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('order_claims')
          .select(['order_id', 'kind'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!found) return undefined;
        await holdOrder(trx, found.order_id, dialect);
        const order = await orderRow(trx, found.order_id);
        if (!order || order.claim_id !== id) return undefined;
        const total = Number(order.total);
        const counterfeit = decision.uphold && found.kind === 'counterfeit';
        const claim = await trx
          .updateTable('order_claims')
          .set({
            status: decision.uphold ? 'upheld' : 'rejected',
            reason: decision.reason,
            decided_at: now,
            refund: decision.uphold ? total : 0,
            compensation: counterfeit ? total * decision.times : 0,
          })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returningAll()
          .executeTakeFirst();
        if (!claim) return undefined;
        if (decision.uphold) await upholdIn(trx, order, claim, now);
        else await trx.updateTable('orders').set({ claim_status: 'rejected' }).where('id', '=', order.id).execute();
        return orderRow(trx, order.id);
      });
      return one(row);
    },

    async claims({ status, after, limit }) {
      const cursor = await keysetOf(db, 'order_claims', after, { column: 'status', value: status });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('order_claims')
        .innerJoin('orders', 'orders.id', 'order_claims.order_id')
        .selectAll('order_claims')
        .select(['orders.code', 'orders.shop_id', 'orders.total'])
        .where('order_claims.status', '=', status)
        .where(newerThan(cursor, { time: 'order_claims.created_at', id: 'order_claims.id' }))
        .orderBy('order_claims.created_at', 'asc')
        .orderBy('order_claims.id', 'asc')
        .limit(limit)
        .execute();
      return rows.map((row) => claimOf(row, row));
    },
  };
}
