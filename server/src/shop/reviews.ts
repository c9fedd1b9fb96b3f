import { writtenText } from '../content/text.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import type { OrderRecord, ReviewFailure, ReviewRecord, ReviewStore, ReviewSummary } from '../store/index.js';
import type { OrderService } from './orders.js';
import type { ProductService } from './products.js';

/** Bounds of reviews (docs/limits.md; spec §5 "Review: text up to 200 characters; all three ratings required"). */
export const REVIEW_LIMITS = {
  /** Each rating: a whole number from 1 to this. */
  ratingMax: 5,
  /** What the buyer writes: at most this many characters, possibly none. */
  contentMax: 200,
  /** The seller's answer: 1 to this many characters. */
  replyMax: 200,
  /** A completed order may be reviewed for this long after it completed. */
  windowMs: 15 * 86_400_000,
  /** A page of a list. */
  pageSize: 20,
} as const;

/** The ratings and the words of a review, as the product API hands them over, unchecked. */
export interface ReviewInput {
  quality: unknown;
  service: unknown;
  logistics: unknown;
  content: unknown;
}

/**
 * Reviews of completed orders (spec §2 shop user-ping-add, view-ping, user-ping, business-ping; §3 Review; §5). No
 * HTTP here. The buyer reviews an order once, within {@link REVIEW_LIMITS.windowMs} of its completion; the seller
 * answers a review once.
 */
export interface ReviewService {
  /** The buyer reviews their completed order: three ratings from 1 to 5, and up to 200 characters. */
  add(buyerId: string, orderId: unknown, input: ReviewInput): Promise<MemberResult<OrderRecord>>;
  /** The seller answers the review of their order, 1 to 200 characters. */
  reply(sellerId: string, orderId: unknown, content: unknown): Promise<MemberResult<ReviewRecord>>;
  /** The member's reviews (`side` buyer) or those of their orders as a seller (`replied` true, false or undefined). */
  list(
    side: 'buyer' | 'seller',
    memberId: string,
    before: unknown,
    replied?: unknown,
  ): Promise<MemberResult<ReviewRecord[]>>;
  /** The reviews of a product the viewer can see, newest first, and how it was rated. */
  ofProduct(
    viewerId: string | undefined,
    productId: unknown,
    before: unknown,
  ): Promise<MemberResult<{ reviews: ReviewRecord[]; summary: ReviewSummary }>>;
}

/** A rating, checked: a whole number from 1 to 5. */
const ratingOf = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= REVIEW_LIMITS.ratingMax
    ? value
    : undefined;

const FAILURES = {
  missing: 'order_missing',
  state: 'review_state',
  done: 'review_done',
  closed: 'review_closed',
} as const satisfies Record<ReviewFailure, string>;

/** Creates the review service over the store, the orders (which settle what time settled) and the products. */
export function createReviewService(deps: {
  reviews: ReviewStore;
  orders: OrderService;
  products: ProductService;
  now: () => number;
  /** Told of each review, after it is stored (the order with it). */
  onReviewed?: (order: OrderRecord) => Promise<void>;
  /** Told of each answer, after it is stored. */
  onReplied?: (review: ReviewRecord) => Promise<void>;
}): ReviewService {
  const { reviews } = deps;
  return {
    async add(buyerId, orderId, input) {
      const quality = ratingOf(input.quality);
      const service = ratingOf(input.service);
      const logistics = ratingOf(input.logistics);
      if (quality === undefined || service === undefined || logistics === undefined) {
        return { ok: false, failure: 'review_ratings_invalid' };
      }
      const raw = input.content ?? '';
      const content = typeof raw === 'string' && raw.trim() === '' ? '' : writtenText(raw, REVIEW_LIMITS.contentMax);
      if (content === undefined) return { ok: false, failure: 'review_content_invalid' };
      // Viewing settles the order's time first: a shipped order past its receipt time completes, and may be reviewed.
      const order = await deps.orders.view(buyerId, orderId);
      if (!order.ok) return order;
      if (order.value.buyerId !== buyerId) return { ok: false, failure: 'order_missing' };
      const now = deps.now();
      const added = await reviews.add({
        orderId: order.value.id,
        buyerId,
        quality,
        service,
        logistics,
        content,
        since: now - REVIEW_LIMITS.windowMs,
        now,
      });
      if (!added.ok) return { ok: false, failure: FAILURES[added.failure] };
      await deps.onReviewed?.(added.value);
      return added;
    },

    async reply(sellerId, orderId, content) {
      const words = writtenText(content, REVIEW_LIMITS.replyMax);
      if (words === undefined) return { ok: false, failure: 'review_reply_invalid' };
      if (typeof orderId !== 'string' || !isRowKey(orderId)) return { ok: false, failure: 'review_missing' };
      const replied = await reviews.reply(sellerId, orderId, words, deps.now());
      if (!replied.ok)
        return { ok: false, failure: replied.failure === 'replied' ? 'review_replied' : 'review_missing' };
      await deps.onReplied?.(replied.value);
      return replied;
    },

    async list(side, memberId, before, replied) {
      if (!isRowKey(before) || (replied !== undefined && typeof replied !== 'boolean')) {
        return { ok: false, failure: 'bad_params' };
      }
      const page = await reviews.list({
        side,
        memberId,
        replied: side === 'seller' ? replied : undefined,
        before,
        limit: REVIEW_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },

    async ofProduct(viewerId, productId, before) {
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const product = await deps.products.view(viewerId, productId);
      if (!product.ok) return product;
      const [page, summary] = await Promise.all([
        reviews.ofProduct({ productId: product.value.id, viewerId, before, limit: REVIEW_LIMITS.pageSize }),
        reviews.summary(product.value.id, viewerId),
      ]);
      return page ? { ok: true, value: { reviews: page, summary } } : { ok: false, failure: 'bad_params' };
    },
  };
}
