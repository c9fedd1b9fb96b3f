import { http, HttpResponse } from 'msw';
import { PAGE_SIZE } from '../api/paged';
import type { FakeRefundKit } from './fake-refunds';
import type { Order } from './orders';
import { REVIEW_LIMITS, REVIEW_RATINGS, type Review, type ReviewSummary } from './reviews';

/** The buyer of the fake shop's orders, as their reviews name them. */
export const FAKE_BUYER = { id: '42', username: 'Alice', img: 'https://files.test/alice.png' };

/** A review of order `o1` (one `Product p1` of shop `s1`) by {@link FAKE_BUYER}: 5, 4 and 3 stars, not answered. */
export function fakeReview(extra: Partial<Review> = {}): Review {
  return {
    id: 'o1',
    order_id: 'o1',
    quality: 5,
    service: 4,
    logistics: 3,
    content: 'Fresh and fragrant.',
    reply: '',
    replied_at: null,
    created_at: 1_700_000_400_000,
    member: FAKE_BUYER,
    items: [{ product_id: 'p1', title: 'Product p1', image: 'https://files.test/p1.png' }],
    shop: { id: 's1', name: 'Hill Tea House', icon: 'https://files.test/icon.png' },
    ...extra,
  };
}

/** What the review handlers share with the rest of the fake shop: the same as the refund handlers. */
export type FakeReviewKit = FakeRefundKit;

/** The reviews of `orders`, newest first. */
const reviewsOf = (orders: readonly Order[]): Review[] =>
  orders
    .flatMap((order) => (order.review ? [order.review] : []))
    .sort((a, b) => b.created_at - a.created_at || b.id.localeCompare(a.id));

/** The page of `reviews` after the one with id `before` (from the first without it). */
const pageOf = (reviews: Review[], before: unknown): Review[] => {
  const from = before === undefined ? 0 : reviews.findIndex((review) => review.id === before) + 1;
  return reviews.slice(from, from + PAGE_SIZE);
};

/** How `reviews` rated, each average to one decimal. */
const summaryOf = (reviews: readonly Review[]): ReviewSummary => {
  const average = (pick: (review: Review) => number) =>
    reviews.length === 0
      ? 0
      : Math.round((reviews.reduce((sum, review) => sum + pick(review), 0) / reviews.length) * 10) / 10;
  return {
    count: reviews.length,
    quality: average((review) => review.quality),
    service: average((review) => review.service),
    logistics: average((review) => review.logistics),
  };
};

/**
 * The review calls of the fake shop (spec §3 Review), each checked and answered as the server does: the buyer
 * reviews a completed order within its window, once; a product's reviews, the buyer's and the seller's are listed a
 * page at a time, newest first; the seller answers a review once. The buyer is always {@link FAKE_BUYER}; the seller's
 * orders are those of `state.myShop`.
 */
export function reviewHandlers({ state, record, refused }: FakeReviewKit) {
  const mine = () => state.orders.filter((order) => order.shop !== null && order.shop.id === state.myShop?.id);

  return [
    http.post('*/index.php/api/shop/ping_add', async ({ request }) => {
      const { body, refusal } = await record('shop/ping_add', request);
      if (refusal) return HttpResponse.json(refusal);
      const order = state.orders.find((item) => item.id === body['id']);
      if (!order) return refused('order_missing', 'the order does not exist');
      if (order.status !== 'completed') return refused('review_state', 'only a completed order can be reviewed');
      if (order.review) return refused('review_done', 'this order has been reviewed');
      if (order.review_until === null || Date.now() >= order.review_until) {
        return refused('review_closed', 'the time to review this order has passed');
      }
      const ratings = REVIEW_RATINGS.map((rating) => body[rating]);
      if (!ratings.every((value) => Number.isInteger(value) && Number(value) >= 1 && Number(value) <= 5)) {
        return refused('review_ratings_invalid', 'please rate quality, service and logistics from 1 to 5');
      }
      const content = body['content'];
      if (typeof content !== 'string' || [...content].length > REVIEW_LIMITS.contentMax) {
        return refused('review_content_invalid', 'a review is at most 200 characters');
      }
      const review = fakeReview({
        id: order.id,
        order_id: order.id,
        quality: Number(body['quality']),
        service: Number(body['service']),
        logistics: Number(body['logistics']),
        content,
        created_at: Date.now(),
        items: order.items.map(({ product_id, title, image }) => ({ product_id, title, image })),
        shop: order.shop,
      });
      const reviewed = { ...order, review };
      state.orders = state.orders.map((item) => (item.id === order.id ? reviewed : item));
      return HttpResponse.json({ ret: reviewed });
    }),
    http.post('*/index.php/api/shop/ping_list', async ({ request }) => {
      const { body, refusal } = await record('shop/ping_list', request);
      if (refusal) return HttpResponse.json(refusal);
      const id = body['id'];
      if (!state.products.some((product) => product.id === id)) {
        return refused('product_missing', 'the product does not exist, return to the cart');
      }
      const reviews = reviewsOf(state.orders.filter((order) => order.items.some((item) => item.product_id === id)));
      return HttpResponse.json({ ret: pageOf(reviews, body['before']), summary: summaryOf(reviews) });
    }),
    http.post('*/index.php/api/shop/user_ping', async ({ request }) => {
      const { body, refusal } = await record('shop/user_ping', request);
      if (refusal) return HttpResponse.json(refusal);
      return HttpResponse.json({ ret: pageOf(reviewsOf(state.orders), body['before']) });
    }),
    http.post('*/index.php/api/shop/business_ping', async ({ request }) => {
      const { body, refusal } = await record('shop/business_ping', request);
      if (refusal) return HttpResponse.json(refusal);
      const replied = body['replied'];
      const reviews = reviewsOf(mine()).filter(
        (review) => typeof replied !== 'boolean' || (review.reply !== '') === replied,
      );
      return HttpResponse.json({ ret: pageOf(reviews, body['before']) });
    }),
    http.post('*/index.php/api/shop/business_ping_reply', async ({ request }) => {
      const { body, refusal } = await record('shop/business_ping_reply', request);
      if (refusal) return HttpResponse.json(refusal);
      const content = body['content'];
      const length = typeof content === 'string' ? [...content.trim()].length : 0;
      if (typeof content !== 'string' || length < 1 || length > REVIEW_LIMITS.replyMax) {
        return refused('review_reply_invalid', 'please enter a reply of 1 to 200 characters');
      }
      const order = mine().find((item) => item.review?.id === body['id']);
      if (!order?.review) return refused('review_missing', 'the review does not exist');
      if (order.review.reply !== '') return refused('review_replied', 'this review has been answered');
      const review = { ...order.review, reply: content.trim(), replied_at: Date.now() };
      state.orders = state.orders.map((item) => (item.id === order.id ? { ...order, review } : item));
      return HttpResponse.json({ ret: review });
    }),
  ];
}
