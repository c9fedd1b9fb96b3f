import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import { REVIEW_LIMITS } from '../src/shop/reviews.js';
import { market, type Order, type ProductServer, productServer, signIn } from './product-support.js';

type Review = Record<string, unknown> & { id: string };

/** Places, pays for and ships `num` of the product; with `confirm`, the buyer confirms receipt. Answers the order. */
async function bought(
  p: ProductServer,
  parties: { seller: { token: string }; buyer: { token: string }; product: string; address: string },
  { num = 1, confirm = true } = {},
): Promise<Order> {
  const { seller, buyer, product, address } = parties;
  const placed = await p.call('shop/code', { token: buyer.token, items: [{ id: product, num }], address });
  await p.call('shop/pay_payment', { token: buyer.token, code: placed.ret, type: 'balance' });
  const id = (placed['orders'] as Order[])[0]?.id ?? '';
  await p.call('shop/business_send', { token: seller.token, id, company: 'SF', number: 'SF1234' });
  if (!confirm) return (await p.call('shop/order_view', { token: buyer.token, id })).ret as Order;
  return (await p.call('shop/order_confirm', { token: buyer.token, id })).ret as Order;
}

const reviewNotices = async (p: ProductServer, token: string) =>
  ((await p.call('member/notify_list', { token })).ret as Array<{ kind: string; data: unknown }>).filter(
    (n) => n.kind === 'review',
  );

describe('product reviews: shop/ping_add, ping_list, user_ping, business_ping, business_ping_reply', () => {
  it('a buyer reviews a completed order once, checked in order; the seller answers once; each side is told', async () => {
    const p = await productServer();
    const parties = await market(p);
    const { seller, buyer, product, imgs } = parties;
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const refused = async (path: string, body: Record<string, unknown>, code: string, err: string, token?: string) =>
      expect(await call(path, body, token)).toEqual({ status: 200, err, code });

    const shipped = await bought(p, parties, { confirm: false });
    const ratings = { quality: 5, service: 4, logistics: 4 };
    await refused(
      'shop/ping_add',
      { id: shipped.id, ...ratings, content: 'Fine' },
      'review_state',
      'only a completed order can be reviewed',
    );
    p.advance(1_000);
    const order = (await call('shop/order_confirm', { id: shipped.id })).ret as Order;
    expect(order).toMatchObject({ review: null, review_until: p.now() + REVIEW_LIMITS.windowMs });
    expect(await call('shop/order_list', { status: 'unreviewed' })).toMatchObject({ ret: [{ id: order.id }] });
    expect(await call('shop/business_order', { status: 'unreviewed' }, seller.token)).toMatchObject({
      ret: [{ id: order.id }],
    });

    const badRatings = 'please rate quality, service and logistics from 1 to 5';
    for (const bad of [
      {},
      { ...ratings, quality: 0 },
      { ...ratings, service: 6 },
      { ...ratings, logistics: 2.5 },
      { ...ratings, quality: '5' },
      { ...ratings, service: null },
    ]) {
      await refused(
        'shop/ping_add',
        { id: order.id, ...bad, content: 'x'.repeat(201) },
        'review_ratings_invalid',
        badRatings,
      );
    }
    const badContent = 'a review is at most 200 characters';
    for (const content of ['x'.repeat(REVIEW_LIMITS.contentMax + 1), 'a\u0007b', 42, ['text']]) {
      await refused('shop/ping_add', { id: order.id, ...ratings, content }, 'review_content_invalid', badContent);
    }
    await refused(
      'shop/ping_add',
      { id: order.id, ...ratings },
      'order_missing',
      'the order does not exist',
      seller.token,
    );
    await refused('shop/ping_add', { id: 'nope', ...ratings }, 'order_missing', 'the order does not exist');
    expect(await p.call('shop/ping_add', { id: order.id, ...ratings })).toMatchObject({ code: 'token_invalid' });

    p.advance(1_000);
    const content = '  Fresh and fragrant.\r\nWill buy again.  ';
    const reviewed = await call('shop/ping_add', { id: order.id, ...ratings, content });
    const review = {
      ...ratings,
      content: 'Fresh and fragrant.\nWill buy again.',
      reply: '',
      replied_at: null,
      created_at: p.now(),
    };
    expect(reviewed).toMatchObject({ ret: { id: order.id, status: 'completed', review } });
    await refused('shop/ping_add', { id: order.id, ...ratings }, 'review_done', 'this order has been reviewed');
    expect(await call('shop/order_list', { status: 'unreviewed' })).toMatchObject({ ret: [] });
    expect(await call('shop/order_view', { id: order.id }, seller.token)).toMatchObject({ ret: { review } });
    expect(await reviewNotices(p, seller.token)).toMatchObject([
      { data: { order: order.id, status: 'reviewed', quality: 5, title: 'Green tea' } },
    ]);

    // As the lists give it: with the buyer, the products and the shop.
    const listed: Review = {
      id: order.id,
      order_id: order.id,
      ...review,
      member: { id: buyer.id, username: expect.any(String) as string, img: expect.any(String) as string },
      items: [{ product_id: product, title: 'Green tea', image: imgs[0] }],
      shop: { id: seller.shopId, name: `Shop ${seller.id}`, icon: expect.any(String) as string },
    };
    expect(await call('shop/user_ping', {})).toEqual({ status: 200, ret: [listed] });
    expect(await call('shop/business_ping', { replied: false }, seller.token)).toEqual({ status: 200, ret: [listed] });
    expect(await call('shop/business_ping', { replied: true }, seller.token)).toEqual({ status: 200, ret: [] });
    expect(await call('shop/business_ping', { replied: 'no' }, seller.token)).toMatchObject({ code: 'bad_params' });
    expect(await call('shop/user_ping', { before: 'nope' })).toMatchObject({ code: 'bad_params' });
    // A visitor reads a product's reviews and how it was rated.
    expect(await p.call('shop/ping_list', { id: product })).toEqual({
      status: 200,
      ret: [listed],
      summary: { count: 1, quality: 5, service: 4, logistics: 4 },
    });
    expect(await p.call('shop/ping_list', { id: 'nope' })).toMatchObject({ code: 'product_missing' });

    // The seller answers, once; the buyer hears of it.
    const badReply = 'please enter a reply of 1 to 200 characters';
    for (const bad of ['', '   ', 'x'.repeat(REVIEW_LIMITS.replyMax + 1), 7]) {
      await refused(
        'shop/business_ping_reply',
        { id: order.id, content: bad },
        'review_reply_invalid',
        badReply,
        seller.token,
      );
    }
    await refused(
      'shop/business_ping_reply',
      { id: order.id, content: 'Thanks' },
      'review_missing',
      'the review does not exist',
    );
    await refused(
      'shop/business_ping_reply',
      { id: 'nope', content: 'Thanks' },
      'review_missing',
      'the review does not exist',
      seller.token,
    );
    p.advance(1_000);
    const answered = await call('shop/business_ping_reply', { id: order.id, content: ' Thank you! ' }, seller.token);
    expect(answered).toEqual({ status: 200, ret: { ...listed, reply: 'Thank you!', replied_at: p.now() } });
    await refused(
      'shop/business_ping_reply',
      { id: order.id, content: 'Again' },
      'review_replied',
      'this review has been answered',
      seller.token,
    );
    expect(await reviewNotices(p, buyer.token)).toMatchObject([
      { data: { order: order.id, status: 'replied', quality: 5, title: 'Green tea' } },
    ]);
    expect(await call('shop/business_ping', { replied: false }, seller.token)).toEqual({ status: 200, ret: [] });
    expect(await call('shop/order_view', { id: order.id })).toMatchObject({ ret: { review: { reply: 'Thank you!' } } });
  });

  it('the time to review: 15 days after completion, also for an order completed by time', async () => {
    const p = await productServer();
    const parties = await market(p);
    const { buyer } = parties;
    const call = (path: string, body: Record<string, unknown>) => p.call(path, { token: buyer.token, ...body });
    const ratings = { quality: 4, service: 4, logistics: 4, content: '' };
    const early = await bought(p, parties);
    // Lists are newest first: the second order is placed a moment later, so the order of the two is known.
    p.advance(1_000);
    const late = await bought(p, parties, { confirm: false });
    // The second completes by itself after 10 days; the first's time to review ends 5 days later.
    p.advance(ORDER_LIMITS.receiptMs + 1);
    expect(await call('shop/order_list', { status: 'unreviewed' })).toMatchObject({
      ret: [{ id: late.id }, { id: early.id }],
    });
    p.advance(REVIEW_LIMITS.windowMs - ORDER_LIMITS.receiptMs);
    expect(await call('shop/order_list', { status: 'unreviewed' })).toMatchObject({ ret: [{ id: late.id }] });
    expect(await call('shop/ping_add', { id: early.id, ...ratings })).toMatchObject({
      code: 'review_closed',
      err: 'the time to review this order has passed',
    });
    // Without words: the ratings are enough.
    expect(await call('shop/ping_add', { id: late.id, ...ratings })).toMatchObject({
      ret: { review: { quality: 4, content: '' } },
    });
  });

  it("a product's reviews: twenty a page, newest first, averages over all, none by a member blocked either way", async () => {
    const p = await productServer();
    const parties = await market(p, { stock: 30, balance: 1_000 });
    const { buyer, product } = parties;
    const ids: string[] = [];
    for (let i = 0; i < REVIEW_LIMITS.pageSize + 1; i += 1) {
      const order = await bought(p, parties);
      p.advance(1_000);
      const quality = (i % 5) + 1;
      await p.call('shop/ping_add', {
        token: buyer.token,
        id: order.id,
        quality,
        service: 5,
        logistics: 3,
        content: `#${i}`,
      });
      ids.unshift(order.id);
    }
    const first = await p.call('shop/ping_list', { id: product });
    const page = first.ret as Review[];
    expect(page.map((r) => r.id)).toEqual(ids.slice(0, REVIEW_LIMITS.pageSize));
    // Qualities 1..5 four times, then 1: 61 / 21.
    expect(first['summary']).toEqual({ count: 21, quality: 2.9, service: 5, logistics: 3 });
    const next = await p.call('shop/ping_list', { id: product, before: page.at(-1)?.id });
    expect((next.ret as Review[]).map((r) => r.id)).toEqual(ids.slice(REVIEW_LIMITS.pageSize));
    expect(await p.call('shop/ping_list', { id: product, before: 'nope' })).toMatchObject({ code: 'bad_params' });

    const viewer = await signIn(p, '13500135000');
    expect(await p.call(`member/lahei/uid_s/${buyer.id}`, { token: viewer.token, block: true })).toMatchObject({
      ret: { blocked: true },
    });
    expect(await p.call('shop/ping_list', { token: viewer.token, id: product })).toEqual({
      status: 200,
      ret: [],
      summary: { count: 0, quality: 0, service: 0, logistics: 0 },
    });
  });
});
