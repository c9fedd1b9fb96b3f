import type { Kysely } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { keysetOf, olderThan } from './keyset.js';
import {
  orderDatabase,
  type OrderDb,
  type OrderRecord,
  type OrderReview,
  reviewOf,
  type ReviewRow,
  withItems,
} from './orders.js';
import type { Database } from './schema.js';

/** A review with whose it is and what it is of: the order's products as they were bought. */
export interface ReviewRecord extends OrderReview {
  /** The order's id, which is the review's. */
  orderId: string;
  buyerId: string;
  sellerId: string;
  shopId: string;
  items: { productId: string; title: string; image: string }[];
}

/** How a product's buyers rated it: how many reviews, and the average of each rating (0 without any). */
export interface ReviewSummary {
  count: number;
  quality: number;
  service: number;
  logistics: number;
}

/**
 * Why a review was refused, nothing changed: no such order of the buyer's (`missing`), one not completed (`state`),
 * one reviewed already (`done`), or one completed before the window (`closed`).
 */
export type ReviewFailure = 'missing' | 'state' | 'done' | 'closed';

/** The buyers' reviews of their completed orders and the sellers' answers (spec §3 Review). */
export interface ReviewStore {
  /**
   * The buyer reviews their order, completed at or after `since`, once: one transaction that marks the order and its
   * items reviewed and stores the review. Answers the order with it.
   */
  add(params: {
    orderId: string;
    buyerId: string;
    quality: number;
    service: number;
    logistics: number;
    content: string;
    since: number;
    now: number;
  }): Promise<{ ok: true; value: OrderRecord } | { ok: false; failure: ReviewFailure }>;
  /** The seller answers the review of their order `orderId`, once. `missing` or `replied`, and nothing changed, else. */
  reply(
    sellerId: string,
    orderId: string,
    content: string,
    now: number,
  ): Promise<{ ok: true; value: ReviewRecord } | { ok: false; failure: 'missing' | 'replied' }>;
  /**
   * The reviews of a buyer's orders (`side` buyer) or of a seller's, newest first, at most `limit`; for a seller,
   * with `replied`, only those answered (true) or not (false); with `before` (a review of theirs), only those before
   * it. Undefined when `before` is not theirs.
   */
  list(params: {
    side: 'buyer' | 'seller';
    memberId: string;
    replied?: boolean | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<ReviewRecord[] | undefined>;
  /**
   * The reviews of orders that held product `productId`, newest first, at most `limit`, after `before` (a review);
   * with `viewerId`, none by a member a block stands between them and the viewer. Undefined when `before` is no
   * review.
   */
  ofProduct(params: {
    productId: string;
    viewerId?: string | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<ReviewRecord[] | undefined>;
  /** How product `productId` was rated, over the reviews {@link ReviewStore.ofProduct} lists to `viewerId`. */
  summary(productId: string, viewerId?: string): Promise<ReviewSummary>;
}

/** The Kysely implementation of {@link ReviewStore} over the order tables. */
export function createReviewStore(base: Kysely<Database>): ReviewStore {
  const db = orderDatabase(base);

  /** The reviews of `rows` with their orders' items, in the rows' order. */
  const withProducts = async (trx: OrderDb, rows: ReviewRow[]): Promise<ReviewRecord[]> => {
    if (rows.length === 0) return [];
    const items = await trx
      .selectFrom('order_items')
      .select(['order_id', 'product_id', 'title', 'image'])
      .where(
        'order_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('order_id')
      .orderBy('position')
      .execute();
    return rows.map((row) => ({
      ...reviewOf(row),
      orderId: row.id,
      buyerId: row.buyer_id,
      sellerId: row.seller_id,
      shopId: row.shop_id,
      items: items
        .filter((item) => item.order_id === row.id)
        .map((item) => ({ productId: item.product_id, title: item.title, image: item.image })),
    }));
  };

  /** Rounds an average to one decimal. */
  const tenth = (value: number | string | null) => Math.round(Number(value ?? 0) * 10) / 10;

  return {
    async add({ orderId, buyerId, quality, service, logistics, content, since, now }) {
      const outcome = await db.transaction().execute(async (trx) => {
        const order = await trx
          .selectFrom('orders')
          .select(['id', 'seller_id', 'shop_id', 'status', 'completed_at'])
          .where('id', '=', orderId)
          .where('buyer_id', '=', buyerId)
          .executeTakeFirst();
        if (!order) return 'missing' as const;
        if (order.status !== 'completed') return 'state' as const;
        if (Number(order.completed_at) < since) return 'closed' as const;
        // Marked before the review is stored, so that of two at once one marks it and the other finds it done.
        const marked = await trx
          .updateTable('orders')
          .set({ reviewed_at: now })
          .where('id', '=', orderId)
          .where('reviewed_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!marked) return 'done' as const;
        await trx.updateTable('order_items').set({ reviewed_at: now }).where('order_id', '=', orderId).execute();
        await trx
          .insertInto('order_reviews')
          .values({
            id: orderId,
            buyer_id: buyerId,
            seller_id: order.seller_id,
            shop_id: order.shop_id,
            quality,
            service,
            logistics,
            content,
            reply: '',
            replied_at: null,
            created_at: now,
          })
          .execute();
        return marked;
      });
      if (typeof outcome === 'string') return { ok: false, failure: outcome };
      const [record] = await withItems(db, [outcome]);
      return { ok: true, value: record as OrderRecord };
    },

    async reply(sellerId, orderId, content, now) {
      const row = await db
        .updateTable('order_reviews')
        .set({ reply: content, replied_at: now })
        .where('id', '=', orderId)
        .where('seller_id', '=', sellerId)
        .where('replied_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row) return { ok: true, value: (await withProducts(db, [row]))[0] as ReviewRecord };
      const found = await db
        .selectFrom('order_reviews')
        .select('id')
        .where('id', '=', orderId)
        .where('seller_id', '=', sellerId)
        .executeTakeFirst();
      return { ok: false, failure: found ? 'replied' : 'missing' };
    },

    async list({ side, memberId, replied, before, limit }) {
      const column = side === 'buyer' ? 'buyer_id' : 'seller_id';
      const cursor = await keysetOf(db, 'order_reviews', before, { column, value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('order_reviews')
        .selectAll()
        .where(column, '=', memberId)
        .$if(replied === true, (q) => q.where('replied_at', 'is not', null))
        .$if(replied === false, (q) => q.where('replied_at', 'is', null))
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return withProducts(db, rows);
    },

    async ofProduct({ productId, viewerId, before, limit }) {
      const cursor = await keysetOf(db, 'order_reviews', before);
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('order_items')
        .innerJoin('order_reviews', 'order_reviews.id', 'order_items.order_id')
        .selectAll('order_reviews')
        .where('order_items.product_id', '=', productId)
        .where('order_items.reviewed_at', 'is not', null)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'order_reviews.buyer_id')))
        .where(olderThan(cursor, { time: 'order_items.reviewed_at', id: 'order_items.order_id' }))
        .orderBy('order_items.reviewed_at', 'desc')
        .orderBy('order_items.order_id', 'desc')
        .limit(limit)
        .execute();
      return withProducts(db, rows);
    },

    async summary(productId, viewerId) {
      const row = await db
        .selectFrom('order_items')
        .innerJoin('order_reviews', 'order_reviews.id', 'order_items.order_id')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('count'),
          eb.fn.avg<number | string | null>('order_reviews.quality').as('quality'),
          eb.fn.avg<number | string | null>('order_reviews.service').as('service'),
          eb.fn.avg<number | string | null>('order_reviews.logistics').as('logistics'),
        ])
        .where('order_items.product_id', '=', productId)
        .where('order_items.reviewed_at', 'is not', null)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'order_reviews.buyer_id')))
        .executeTakeFirstOrThrow();
      return {
        count: Number(row.count),
        quality: tenth(row.quality),
        service: tenth(row.service),
        logistics: tenth(row.logistics),
      };
    },
  };
}
