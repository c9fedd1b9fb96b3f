import { apiPost, type CallContext } from '../api/request';
import type { Order } from './orders';

/** The query key of everything about reviews; invalidating it refreshes every list of them. */
export const REVIEWS_QUERY = 'reviews';

/** The three things a buyer rates (spec §3 "Review: quality, service and logistics ratings (1 to 5), text"). */
export const REVIEW_RATINGS = ['quality', 'service', 'logistics'] as const;

/** One of {@link REVIEW_RATINGS}. */
export type ReviewRating = (typeof REVIEW_RATINGS)[number];

/** Bounds of a review and of its reply (spec §9 "up to 200 characters; ratings 1 to 5"); the server checks the same. */
export const REVIEW_LIMITS = { ratingMax: 5, contentMax: 200, replyMax: 200 } as const;

/** How long after its completion an order can be reviewed, in days; the server gives the end as `review_until`. */
export const REVIEW_WINDOW_DAYS = 15;

/**
 * A buyer's review of their completed order (spec §3 Review): `id` is the order's; each rating 1 to 5; the text 0 to
 * 200 characters; `reply` is the seller's answer, '' until given. The order's products as they were bought, and the
 * shop (null once closed). Times in ms.
 */
export interface Review {
  id: string;
  order_id: string;
  quality: number;
  service: number;
  logistics: number;
  content: string;
  reply: string;
  replied_at: number | null;
  created_at: number;
  member: { id: string; username: string; img: string };
  items: Array<{ product_id: string; title: string; image: string }>;
  shop: { id: string; name: string; icon: string } | null;
}

/** How a product's buyers rated it: how many reviews, and each rating's average to one decimal (0 without any). */
export interface ReviewSummary {
  count: number;
  quality: number;
  service: number;
  logistics: number;
}

/** A page of a product's reviews, with the summary of them all. */
export interface ProductReviewPage {
  reviews: Review[];
  summary: ReviewSummary;
}

/**
 * Why `order` cannot be reviewed at `now`, as the server's code, or undefined when it can: it is not completed
 * (`review_state`), it was reviewed (`review_done`), or its {@link REVIEW_WINDOW_DAYS} days have passed
 * (`review_closed`).
 */
export function reviewBlock(
  order: Order,
  now: number = Date.now(),
): 'review_state' | 'review_done' | 'review_closed' | undefined {
  if (order.status !== 'completed') return 'review_state';
  if (order.review !== null) return 'review_done';
  if (order.review_until === null || now >= order.review_until) return 'review_closed';
  return undefined;
}

/** Whether the buyer can review `order` now: completed, not reviewed, within its window. */
export function canReview(order: Order, now: number = Date.now()): boolean {
  return reviewBlock(order, now) === undefined;
}

/** What the review form holds: each rating (0 until one is picked) and the text. */
export type ReviewDraft = Record<ReviewRating, number> & { content: string };

/**
 * What is wrong with a review before it is sent, or undefined, in the form's order: all three ratings, each a whole
 * number of 1 to 5, then a text of at most 200 characters after trimming (spec §5 "Review: text up to 200
 * characters; all three ratings required").
 */
export function reviewProblem(draft: ReviewDraft): 'review_ratings_invalid' | 'review_content_invalid' | undefined {
  const rated = (value: number) => Number.isInteger(value) && value >= 1 && value <= REVIEW_LIMITS.ratingMax;
  if (!REVIEW_RATINGS.every((rating) => rated(draft[rating]))) return 'review_ratings_invalid';
  if ([...draft.content.trim()].length > REVIEW_LIMITS.contentMax) return 'review_content_invalid';
  return undefined;
}

/** The buyer reviews their completed order, checked with {@link reviewProblem}; resolves with the order reviewed. */
export async function reviewOrder(id: string, draft: ReviewDraft, context: CallContext): Promise<Order> {
  const body = {
    id,
    quality: draft.quality,
    service: draft.service,
    logistics: draft.logistics,
    content: draft.content.trim(),
  };
  return (await apiPost<{ ret: Order }>('shop/ping_add', body, context, { loading: true })).ret;
}

/** A page of product `id`'s reviews, newest first, `before` the review with that id, and how it was rated. */
export async function productReviewPage(
  { id, before }: { id: string; before?: string | undefined },
  context: CallContext,
): Promise<ProductReviewPage> {
  const body = { id, ...(before !== undefined && { before }) };
  const answer = await apiPost<{ ret: Review[]; summary: ReviewSummary }>('shop/ping_list', body, context);
  return { reviews: answer.ret, summary: answer.summary };
}

/** A page of the member's own reviews, newest first. */
export async function myReviewPage(before: string | undefined, context: CallContext): Promise<Review[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Review[] }>('shop/user_ping', body, context)).ret;
}

/** A page of the reviews of the seller's orders, newest first: only those answered or not with `replied`, else all. */
export async function shopReviewPage(
  { replied, before }: { replied?: boolean | undefined; before?: string | undefined },
  context: CallContext,
): Promise<Review[]> {
  const body = { ...(replied !== undefined && { replied }), ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: Review[] }>('shop/business_ping', body, context)).ret;
}

/** Whether a seller's reply is 1 to 200 characters after trimming, as the server takes it. */
export function replyValid(content: string): boolean {
  const length = [...content.trim()].length;
  return length >= 1 && length <= REVIEW_LIMITS.replyMax;
}

/** The seller answers a review of their order, once, checked with {@link replyValid}; resolves with the review. */
export async function replyToReview(id: string, content: string, context: CallContext): Promise<Review> {
  const body = { id, content: content.trim() };
  return (await apiPost<{ ret: Review }>('shop/business_ping_reply', body, context, { loading: true })).ret;
}
