import { describe, expect, it } from 'vitest';
import { openShop, operator, type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

const categories = (p: ProductServer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  operator(p, 'product-categories', method, path, body);
const decide = (p: ProductServer, id: string, body: unknown) => operator(p, 'products', 'POST', `/${id}/review`, body);

describe('product shop: classifications, products, review and the shelf', () => {
  it('keeps the operator classifications: unique names, in order, bounded, fresh or not; removed ones take no products', async () => {
    const p = await productServer();
    const tea = await categories(p, 'POST', '', { name: ' Tea ', position: 2 });
    expect(tea).toMatchObject({ status: 200, content: { name: 'Tea', position: 2, fresh: false } });
    const cups = await categories(p, 'POST', '', { name: 'Cups', position: 1 });
    const fruit = await categories(p, 'POST', '', { name: 'Fruit', position: 3, fresh: true });
    expect(fruit).toMatchObject({ status: 200, content: { name: 'Fruit', position: 3, fresh: true } });
    const fruitId = (fruit.content as { id: string }).id;
    expect(await categories(p, 'PATCH', `/${fruitId}`, { fresh: false })).toMatchObject({
      content: { name: 'Fruit', fresh: false },
    });
    expect(await categories(p, 'PATCH', `/${fruitId}`, { fresh: true })).toMatchObject({ content: { fresh: true } });
    expect(await categories(p, 'PATCH', `/${fruitId}`, { fresh: 'yes' })).toEqual({
      status: 400,
      code: 400,
      content: 'fresh must be true or false.',
    });
    expect((await categories(p, 'GET', '')).content).toEqual([
      expect.objectContaining({ name: 'Cups', fresh: false }),
      expect.objectContaining({ name: 'Tea', fresh: false }),
      expect.objectContaining({ name: 'Fruit', fresh: true }),
    ]);
    expect(await categories(p, 'DELETE', `/${fruitId}`)).toMatchObject({ status: 200 });
    expect(await categories(p, 'POST', '', { name: 'Tea' })).toEqual({
      status: 400,
      code: 400,
      content: 'a classification of that name exists.',
    });
    for (const bad of [
      { name: '' },
      { name: 'x'.repeat(11) },
      { name: 'Pots', position: -1 },
      { name: 'Pots', position: 1.5 },
      { name: 'Pots', fresh: 1 },
    ]) {
      expect(await categories(p, 'POST', '', bad)).toMatchObject({ status: 400 });
    }
    expect((await p.call('shop/typeid', {})).ret).toEqual([
      { id: (cups.content as { id: string }).id, name: 'Cups', fresh: false },
      { id: (tea.content as { id: string }).id, name: 'Tea', fresh: false },
    ]);
    const teaId = (tea.content as { id: string }).id;
    expect(await categories(p, 'PATCH', `/${teaId}`, { position: 0 })).toMatchObject({ content: { position: 0 } });
    expect(await categories(p, 'DELETE', `/${teaId}`)).toMatchObject({ status: 200 });
    expect(await categories(p, 'DELETE', `/${teaId}`)).toMatchObject({ status: 404 });
    expect((await p.call('shop/typeid', {})).ret).toEqual([
      { id: (cups.content as { id: string }).id, name: 'Cups', fresh: false },
    ]);
  });

  it('takes a product from an open shop only, checked field by field, to be reviewed', async () => {
    const p = await productServer();
    const typeid = ((await categories(p, 'POST', '', { name: 'Tea' })).content as { id: string }).id;
    const visitor = await signIn(p, '13700137000');
    const imgs = [await uploadImage(p, visitor.token)];
    const good = { imgs, title: ' Spring green tea ', price: 12.5, typeid, stock: 30, content: 'Picked in April.' };
    expect(await p.call('shop/business_add', { token: visitor.token, ...good })).toEqual({
      status: 200,
      err: 'please open a shop first',
      code: 'shop_not_open',
    });

    const alice = await openShop(p);
    const mine = [await uploadImage(p, alice.token), await uploadImage(p, alice.token)];
    const base = { ...good, imgs: mine };
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await p.call('shop/business_add', { token: alice.token, ...base, ...body })).toEqual({
        status: 200,
        err,
        code,
      });
    const images = 'please upload 1 to 9 product images';
    for (const bad of [[], imgs, [mine[0], mine[0]], 'x', Array.from({ length: 10 }, () => mine[0])]) {
      await refused({ imgs: bad }, 'product_images_invalid', images);
    }
    for (const title of ['', 'x', 'x'.repeat(61), 'a\nb', 5]) {
      await refused({ title }, 'product_title_invalid', 'please enter the product title: 2 to 60 characters');
    }
    for (const price of [0, -1, 0.001, 1_000_000.01, '12', Number.NaN, null]) {
      await refused({ price }, 'product_price_invalid', 'please enter a correct price');
    }
    for (const bad of ['nope', 7, undefined]) {
      await refused({ typeid: bad }, 'category_missing', 'the classification does not exist, reselect');
    }
    for (const stock of [-1, 1.5, 1_000_000, '3']) {
      await refused({ stock }, 'product_stock_invalid', 'please enter the stock: a whole number');
    }
    for (const content of ['', '  ', 'x'.repeat(5001)]) {
      await refused({ content }, 'product_content_invalid', 'please enter the product details');
    }

    const added = await p.call('shop/business_add', { token: alice.token, ...base });
    expect(added).toEqual({
      status: 200,
      ret: {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        shop_id: alice.shopId,
        typeid,
        title: 'Spring green tea',
        price: 12.5,
        stock: 30,
        images: mine,
        status: 'pending',
        reason: '',
        created_at: p.now(),
      },
    });
    const id = (added.ret as { id: string }).id;
    // To be reviewed: its seller sees it, nobody else.
    expect(await p.call('shop/view', { token: alice.token, id })).toMatchObject({
      ret: { id, content: 'Picked in April.' },
      shop: { id: alice.shopId, name: `Shop ${alice.id}` },
    });
    expect(await p.call('shop/view', { id })).toMatchObject({
      code: 'product_missing',
      err: 'the product does not exist, return to the cart',
    });
    expect((await p.call('shop/list', {})).ret).toEqual([]);
  });

  it('is put on sale by the operator, listed, shelved by its seller, banned; the seller is told', async () => {
    const p = await productServer();
    const typeid = ((await categories(p, 'POST', '', { name: 'Tea' })).content as { id: string }).id;
    const alice = await openShop(p);
    const add = async (title: string) => {
      const imgs = [await uploadImage(p, alice.token)];
      const body = { token: alice.token, imgs, title, price: 9.9, typeid, stock: 1, content: 'Good' };
      return ((await p.call('shop/business_add', body)).ret as { id: string }).id;
    };
    const first = await add('First tea');
    p.advance(1000);
    const second = await add('Second tea');

    const queue = await operator(p, 'products', 'GET', '');
    expect(
      (queue.content as Array<{ id: string; price: number; memberId: string }>).map((q) => [q.id, q.price, q.memberId]),
    ).toEqual([
      [first, 9.9, alice.id],
      [second, 9.9, alice.id],
    ]);
    expect(await decide(p, first, { decision: 'reject' })).toMatchObject({
      status: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    expect(await decide(p, first, { decision: 'maybe' })).toMatchObject({ status: 400 });
    expect(await decide(p, first, { decision: 'ban', reason: 'x' })).toEqual({
      status: 404,
      code: 404,
      content: 'no such product in a state to decide on',
    });
    expect(await decide(p, first, { decision: 'pass' })).toMatchObject({ status: 200, content: { status: 'on_sale' } });
    expect(await decide(p, second, { decision: 'reject', reason: 'Blurred photos' })).toMatchObject({
      content: { status: 'rejected', reason: 'Blurred photos' },
    });

    const bob = await signIn(p, '13700137001');
    expect((await p.call('shop/list', { token: bob.token })).ret).toMatchObject([{ id: first, title: 'First tea' }]);
    expect((await p.call('shop/list', { typeid })).ret).toMatchObject([{ id: first }]);
    expect((await p.call('shop/list', { typeid: 'other' })).ret).toEqual([]);
    expect(await p.call('shop/list', { before: 'nope' })).toMatchObject({ code: 'bad_params' });
    // Searched by title, in any case; the rejected one never.
    expect((await p.call('shop/list', { keyword: ' FIRST ' })).ret).toMatchObject([{ id: first }]);
    expect((await p.call('shop/list', { keyword: 'tea' })).ret).toMatchObject([{ id: first }]);
    expect((await p.call('shop/list', { keyword: 'second' })).ret).toEqual([]);
    expect(await p.call('shop/list', { keyword: 'x'.repeat(21) })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('shop/view', { token: bob.token, id: first })).toMatchObject({ ret: { status: 'on_sale' } });
    // A block either way hides it from the list and its page.
    const carol = await signIn(p, '13700137002');
    expect(await p.call(`member/lahei/uid_s/${carol.id}`, { token: alice.token, block: true })).toMatchObject({
      ret: { blocked: true },
    });
    expect((await p.call('shop/list', { token: carol.token })).ret).toEqual([]);
    expect(await p.call('shop/view', { token: carol.token, id: first })).toMatchObject({ code: 'product_missing' });
    // The shop's page: open shops only, hidden by a block too; its products by `shop`.
    expect(await p.call('shop/shop', { token: bob.token, id: alice.shopId })).toEqual({
      status: 200,
      ret: {
        id: alice.shopId,
        name: `Shop ${alice.id}`,
        icon: expect.any(String) as string,
        intro: 'Tea',
        opened_at: p.now() - 1000,
      },
    });
    expect((await p.call('shop/list', { shop: alice.shopId })).ret).toMatchObject([{ id: first }]);
    expect((await p.call('shop/list', { shop: 'other' })).ret).toEqual([]);
    expect(await p.call('shop/list', { shop: 7 })).toMatchObject({ code: 'bad_params' });
    const closed = { status: 200, err: 'the shop does not exist or is closed', code: 'shop_missing' };
    expect(await p.call('shop/shop', { token: carol.token, id: alice.shopId })).toEqual(closed);
    for (const id of ['nope', undefined, 7]) expect(await p.call('shop/shop', { id })).toEqual(closed);
    expect((await p.call('shop/business_list', { token: alice.token, status: 'rejected' })).ret).toMatchObject([
      { id: second, reason: 'Blurred photos' },
    ]);
    expect(await p.call('shop/business_list', { token: alice.token, status: 'sold' })).toMatchObject({
      code: 'bad_params',
    });

    // The shelf is the seller's: off, not listed, back on.
    expect(await p.call('shop/business_shelf', { token: bob.token, id: first, on: false })).toMatchObject({
      code: 'product_missing',
    });
    expect(await p.call('shop/business_shelf', { token: alice.token, id: first, on: 'no' })).toMatchObject({
      code: 'bad_params',
    });
    expect(await p.call('shop/business_shelf', { token: alice.token, id: first, on: false })).toMatchObject({
      ret: { status: 'off_shelf' },
    });
    expect((await p.call('shop/list', {})).ret).toEqual([]);
    expect(await p.call('shop/business_shelf', { token: alice.token, id: first, on: true })).toMatchObject({
      ret: { status: 'on_sale' },
    });
    expect(await decide(p, first, { decision: 'ban', reason: 'Counterfeit' })).toMatchObject({
      content: { status: 'banned', reason: 'Counterfeit' },
    });
    expect(await p.call('shop/business_shelf', { token: alice.token, id: first, on: true })).toMatchObject({
      code: 'product_missing',
    });
    expect((await p.call('shop/list', {})).ret).toEqual([]);

    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    // All at one time here: compared in any order.
    const told = notices.filter((n) => n['kind'] === 'product').map((n) => n['data'] as { status: string });
    expect(told.sort((x, y) => x.status.localeCompare(y.status))).toEqual([
      { product: first, status: 'banned', reason: 'Counterfeit', title: 'First tea' },
      { product: first, status: 'on_sale', reason: '', title: 'First tea' },
      { product: second, status: 'rejected', reason: 'Blurred photos', title: 'Second tea' },
    ]);
    for (const route of ['shop/business_add', 'shop/business_list', 'shop/business_shelf', 'shop/business_edit']) {
      expect(await p.call(route, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }
  });

  it('is changed by its seller: price and stock at once, what is reviewed back to review; a rejected one resubmitted', async () => {
    const p = await productServer();
    const typeid = ((await categories(p, 'POST', '', { name: 'Tea' })).content as { id: string }).id;
    const other = ((await categories(p, 'POST', '', { name: 'Cups' })).content as { id: string }).id;
    const alice = await openShop(p);
    const imgs = [await uploadImage(p, alice.token)];
    const fields = { imgs, title: 'Green tea', price: 9.9, typeid, stock: 5, content: 'Good' };
    const add = async () =>
      ((await p.call('shop/business_add', { token: alice.token, ...fields })).ret as { id: string }).id;
    const edit = (id: string, changes: Record<string, unknown>, token = alice.token) =>
      p.call('shop/business_edit', { token, id, ...fields, ...changes });
    const onSale = await add();
    await decide(p, onSale, { decision: 'pass' });

    // Checked as when added, in the same order; nothing changed by a refusal.
    expect(await edit(onSale, { title: 'x' })).toMatchObject({ code: 'product_title_invalid' });
    expect(await edit(onSale, { price: 0, stock: -1 })).toMatchObject({ code: 'product_price_invalid' });
    expect(await edit(onSale, { typeid: 'gone' })).toMatchObject({ code: 'category_missing' });
    expect(await edit(onSale, { imgs: [] })).toMatchObject({ code: 'product_images_invalid' });
    // Not the seller's, or no such product.
    const bob = await openShop(p, '13700137009');
    const missing = { status: 200, err: 'the product does not exist, return to the cart', code: 'product_missing' };
    expect(await edit(onSale, { imgs: [await uploadImage(p, bob.token)] }, bob.token)).toEqual(missing);
    for (const id of ['nope', 7, undefined]) expect(await edit(id as string, {})).toEqual(missing);
    expect(await p.call('shop/view', { id: onSale })).toMatchObject({ ret: { price: 9.9, stock: 5 } });

    // Price and stock alone: still on sale, as the buyers see it.
    expect(await edit(onSale, { price: 12, stock: 40 })).toMatchObject({
      ret: { id: onSale, price: 12, stock: 40, status: 'on_sale' },
    });
    expect(await p.call('shop/view', { id: onSale })).toMatchObject({ ret: { price: 12, stock: 40 } });
    // What the operator reviews, each alone: back to review, off the shop until passed again.
    const more = [...imgs, await uploadImage(p, alice.token)];
    let now: Record<string, unknown> = { price: 12, stock: 40 };
    for (const change of [{ title: 'Green tea, 2026' }, { imgs: more }, { content: 'Better' }, { typeid: other }]) {
      await decide(p, onSale, { decision: 'pass' });
      expect(await edit(onSale, now)).toMatchObject({ ret: { status: 'on_sale' } });
      now = { ...now, ...change };
      expect(await edit(onSale, now)).toMatchObject({ ret: { status: 'pending' } });
      expect(await p.call('shop/view', { id: onSale })).toMatchObject({ code: 'product_missing' });
    }
    expect((await operator(p, 'products', 'GET', '')).content).toMatchObject([
      { id: onSale, categoryId: other, title: 'Green tea, 2026', content: 'Better', images: more },
    ]);

    // A rejected one, changed in any way, is resubmitted: to be reviewed, its reason gone.
    const rejected = await add();
    await decide(p, rejected, { decision: 'reject', reason: 'Blurred photos' });
    expect(await edit(rejected, { stock: 6 })).toMatchObject({ ret: { status: 'pending', reason: '' } });
    // A prohibited one is not the seller's to change.
    await decide(p, rejected, { decision: 'pass' });
    await decide(p, rejected, { decision: 'ban', reason: 'Counterfeit' });
    expect(await edit(rejected, { stock: 7 })).toEqual(missing);
    expect(await p.call('shop/view', { token: alice.token, id: rejected })).toMatchObject({
      ret: { status: 'banned', stock: 6, reason: 'Counterfeit' },
    });
  });
});
