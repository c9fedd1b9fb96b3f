import { describe, expect, it } from 'vitest';
import { PRODUCT_LIMITS } from '../src/shop/products.js';
import { market, operator, type ProductServer, productServer } from './product-support.js';

type Card = Record<string, unknown> & { id: string };

/** Adds `count` more products of the seller's, on sale, over days when they are many; answers their ids, oldest first. */
async function moreProducts(p: ProductServer, token: string, imgs: string[], count: number) {
  const typeid = ((await p.call('shop/typeid', {})).ret as Array<{ id: string }>)[0]?.id;
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // A seller adds at most so many a day.
    if (i > 0 && i % (PRODUCT_LIMITS.maxPerWindow - 10) === 0) p.advance(PRODUCT_LIMITS.windowMs);
    const added = await p.call('shop/business_add', {
      token,
      imgs,
      title: `Tea ${i}`,
      price: 1,
      typeid,
      stock: 5,
      content: 'Tea.',
    });
    const id = (added.ret as { id: string }).id;
    await operator(p, 'products', 'POST', `/${id}/review`, { decision: 'pass' });
    ids.push(id);
  }
  return ids;
}

describe('product favourites and browsing history: shop/shoucang*, shop/history*', () => {
  it('keeps a product as a favourite and lets it go; lists them latest first; removes some or all', async () => {
    const p = await productServer();
    const { seller, buyer, product, imgs } = await market(p);
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });

    expect(await call('shop/view', { id: product })).toMatchObject({ ret: { id: product, collected: false } });
    expect(await p.call('shop/view', { id: product })).toMatchObject({ ret: { collected: false } });
    expect(await call('shop/shoucang', { id: product, shoucang: 'yes' })).toMatchObject({ code: 'bad_params' });
    expect(await call('shop/shoucang', { id: 'nope', shoucang: true })).toMatchObject({ code: 'product_missing' });
    expect(await p.call('shop/shoucang', { id: product, shoucang: true })).toMatchObject({ code: 'token_invalid' });

    p.advance(1_000);
    expect(await call('shop/shoucang', { id: product, shoucang: true })).toEqual({
      status: 200,
      ret: { collected: true },
    });
    expect(await call('shop/view', { id: product })).toMatchObject({ ret: { collected: true } });
    const [second, third] = await moreProducts(p, seller.token, imgs, 2);
    p.advance(1_000);
    await call('shop/shoucang', { id: second, shoucang: true });
    p.advance(1_000);
    await call('shop/shoucang', { id: third, shoucang: true });
    const listed = (await call('shop/shoucang_list', {})).ret as Card[];
    expect(listed.map((c) => c.id)).toEqual([third, second, product]);
    expect(listed[0]).toMatchObject({ title: 'Tea 1', price: 1, status: 'on_sale', marked_at: p.now() });
    expect((await call('shop/shoucang_list', { before: second })).ret).toMatchObject([{ id: product }]);
    expect(await call('shop/shoucang_list', { before: 'nope' })).toMatchObject({ code: 'bad_params' });

    // Taken off the shelf, it stays, as it is now; let go, it leaves.
    await p.call('shop/business_shelf', { token: seller.token, id: third, on: false });
    expect((await call('shop/shoucang_list', {})).ret).toMatchObject([{ id: third, status: 'off_shelf' }, {}, {}]);
    expect(await call('shop/shoucang', { id: third, shoucang: false })).toMatchObject({ ret: { collected: false } });
    for (const bad of [[], 'abc', [''], [7], Array.from({ length: PRODUCT_LIMITS.unmarkMax + 1 }, (_, i) => `p${i}`)]) {
      expect(await call('shop/shoucang_del', { ids: bad })).toMatchObject({ code: 'bad_params' });
    }
    expect(await call('shop/shoucang_del', { ids: [second, 'nope'] })).toEqual({ status: 200, ret: { removed: 1 } });
    expect((await call('shop/shoucang_list', {})).ret).toMatchObject([{ id: product }]);
    expect(await call('shop/shoucang_del', {})).toEqual({ status: 200, ret: { removed: 1 } });
    expect((await call('shop/shoucang_list', {})).ret).toEqual([]);
  });

  it(`keeps at most ${PRODUCT_LIMITS.favouritesMax} favourites`, async () => {
    const p = await productServer();
    const { seller, buyer, product, imgs } = await market(p);
    const call = (path: string, body: Record<string, unknown>) => p.call(path, { token: buyer.token, ...body });
    // Filled up through the store, as a member who kept many over time.
    const ids = await moreProducts(p, seller.token, imgs, 1);
    for (let i = 0; i < PRODUCT_LIMITS.favouritesMax - 1; i += 1) {
      await p.server.store.products.mark(buyer.id, 'favourite', `gone${i}`, {
        now: p.now(),
        max: PRODUCT_LIMITS.favouritesMax,
      });
    }
    expect(await call('shop/shoucang', { id: product, shoucang: true })).toMatchObject({ ret: { collected: true } });
    expect(await call('shop/shoucang', { id: ids[0], shoucang: true })).toMatchObject({
      code: 'favourite_limit',
      err: 'you can keep at most 500 favourites: remove some first',
    });
    // Keeping one kept already is not one more.
    expect(await call('shop/shoucang', { id: product, shoucang: true })).toMatchObject({ ret: { collected: true } });
  });

  it(`a member's looks enter their history, the latest ${PRODUCT_LIMITS.historyMax}; their own products do not`, async () => {
    const p = await productServer();
    const { seller, buyer, product, imgs } = await market(p);
    const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
    const history = async (token = buyer.token) =>
      ((await call('shop/history', {}, token)).ret as Card[]).map((c) => c.id);

    await p.call('shop/view', { id: product });
    await call('shop/view', { id: product }, seller.token);
    expect(await history(seller.token)).toEqual([]);
    const [other] = await moreProducts(p, seller.token, imgs, 1);
    await call('shop/view', { id: product });
    p.advance(1_000);
    await call('shop/view', { id: other });
    expect(await history()).toEqual([other, product]);
    p.advance(1_000);
    await call('shop/view', { id: product });
    expect(await history()).toEqual([product, other]);
    expect((await call('shop/history', {})).ret).toMatchObject([{ id: product, marked_at: p.now() }, {}]);
    expect((await call('shop/history', { before: product })).ret).toMatchObject([{ id: other }]);

    // The latest ones stay.
    const many = await moreProducts(p, seller.token, imgs, PRODUCT_LIMITS.historyMax);
    for (const id of many) {
      p.advance(1);
      await call('shop/view', { id });
    }
    let all: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = ((await call('shop/history', { before })).ret as Card[]).map((c) => c.id);
      if (page.length === 0) break;
      all = [...all, ...page];
      before = page.at(-1);
    }
    expect(all).toEqual([...many].reverse());

    expect(await call('shop/history_del', { ids: [many[0]] })).toMatchObject({ ret: { removed: 1 } });
    expect(await call('shop/history_del', {})).toMatchObject({ ret: { removed: PRODUCT_LIMITS.historyMax - 1 } });
    expect(await history()).toEqual([]);
  });
});
