/**
 * The store contract for the shop's orders; registered by `describeStoreContract` so that it runs on SQLite and on
 * PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { OrderAddress, OrderLine, Store } from '../src/store/index.js';

const ADDRESS: OrderAddress = { name: 'Li Lei', phone: '13800138000', region: 'Beijing', detail: '1 Road' };

/** Three members: m1 and m2 sell (one product each unless told), m3 buys; m3 has `balance` fen. */
export async function market(store: Store, balance = 0) {
  for (const [i, id] of ['m1', 'm2', 'm3'].entries()) {
    await store.members.insert({
      id,
      phone: `1370013700${i}`,
      username: `user${i}`,
      img: '',
      notifyBadge: 0,
      createdAt: 0,
      usernameChangedAt: null,
    });
  }
  await store.products.addCategory({ id: 'c1', name: 'Tea', position: 0, fresh: false, createdAt: 0 }, 10);
  for (const seller of ['m1', 'm2']) {
    await store.certifications.submit({
      memberId: seller,
      type: 'personal',
      name: 'Wang',
      number: '11010519491231002X',
      images: ['a.png', 'b.png'],
      submittedAt: 10,
    });
    await store.certifications.review(seller, { submittedAt: 10, pass: true, reason: '', now: 20 });
    const shop = `s-${seller}`;
    await store.shops.apply({ id: shop, memberId: seller, name: shop, icon: 'i', intro: 'x', submittedAt: 30 });
    await store.shops.review(shop, { submittedAt: 30, pass: true, reason: '', now: 40 });
  }
  const product = async (id: string, memberId: string, price: number, stock: number, status = 'pass') => {
    const record = {
      id,
      memberId,
      categoryId: 'c1',
      title: `Product ${id}`,
      price,
      stock,
      content: 'Details',
      images: [`https://x/${id}.png`, 'https://x/second.png'],
      createdAt: 50,
    };
    expect(await store.products.add(record, { since: 0, max: 100 })).toBe('ok');
    if (status === 'pass') await store.products.review(id, { decision: 'pass', reason: '', now: 60 });
  };
  await product('tea', 'm1', 1_250, 5);
  await product('cup', 'm1', 800, 1);
  await product('pot', 'm2', 10_000, 2);
  await product('new', 'm2', 100, 9, 'pending');
  if (balance > 0) {
    await store.wallet.recharge({ id: 'r1', memberId: 'm3', amount: balance, method: 'alipay', createdAt: 70 }, 3);
    await store.wallet.settle('r1', { paid: true, reason: '', reference: 'T', now: 80 });
  }
  return product;
}

/** The stock of product `id`. */
export const stock = async (store: Store, id: string) => (await store.products.byId(id))?.stock;

/** A checkout of m3's (unless told) of `lines` under `params.code`. */
export const place = (
  store: Store,
  lines: OrderLine[],
  params: { code: string; buyerId?: string; now?: number; max?: number },
) =>
  store.orders.place({
    code: params.code,
    buyerId: params.buyerId ?? 'm3',
    address: ADDRESS,
    lines,
    now: params.now ?? 100,
    maxUnpaid: params.max ?? 10,
  });

/** Registers the orders part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeOrderStoreContract(fresh: () => Promise<{ store: Store }>): void {
  it('orders: a checkout is one order per shop under one code, holding stock, all or nothing', async () => {
    const { store } = await fresh();
    await market(store);
    // Refusals change nothing, even when an earlier product of the checkout could be taken.
    expect(await place(store, [{ productId: 'new', quantity: 1 }], { code: 'k0' })).toEqual({
      ok: false,
      failure: 'product_missing',
    });
    expect(await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k0', buyerId: 'm1' })).toEqual({
      ok: false,
      failure: 'own',
    });
    expect(
      await place(
        store,
        [
          { productId: 'tea', quantity: 2 },
          { productId: 'cup', quantity: 2 },
        ],
        { code: 'k0' },
      ),
    ).toEqual({ ok: false, failure: 'stock' });
    expect(await stock(store, 'tea')).toBe(5);
    expect(await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k0', buyerId: 'nobody' })).toEqual({
      ok: false,
      failure: 'missing',
    });

    const placed = await place(
      store,
      [
        { productId: 'tea', quantity: 2 },
        { productId: 'pot', quantity: 1 },
        { productId: 'cup', quantity: 1 },
      ],
      { code: 'k1' },
    );
    expect(placed.ok).toBe(true);
    const orders = placed.ok ? placed.value : [];
    expect(orders).toHaveLength(2);
    const bySeller = new Map(orders.map((o) => [o.sellerId, o]));
    expect(bySeller.get('m1')).toMatchObject({
      code: 'k1',
      buyerId: 'm3',
      shopId: 's-m1',
      status: 'unpaid',
      payMethod: '',
      total: 2 * 1_250 + 800,
      address: ADDRESS,
      createdAt: 100,
      items: [
        { productId: 'tea', title: 'Product tea', image: 'https://x/tea.png', price: 1_250, quantity: 2 },
        { productId: 'cup', title: 'Product cup', image: 'https://x/cup.png', price: 800, quantity: 1 },
      ],
    });
    expect(bySeller.get('m2')).toMatchObject({ shopId: 's-m2', total: 10_000, items: [{ productId: 'pot' }] });
    expect([await stock(store, 'tea'), await stock(store, 'cup'), await stock(store, 'pot')]).toEqual([3, 0, 1]);
    expect(await store.orders.byId(orders[0]?.id ?? '')).toEqual(orders[0]);

    // The last one in stock, asked for by two checkouts at once: one gets it.
    const both = await Promise.all([
      place(store, [{ productId: 'pot', quantity: 1 }], { code: 'k2' }),
      place(store, [{ productId: 'pot', quantity: 1 }], { code: 'k3' }),
    ]);
    expect(both.map((r) => (r.ok ? 'ok' : r.failure)).sort()).toEqual(['ok', 'stock']);
    expect(await stock(store, 'pot')).toBe(0);

    // A buyer's unpaid orders are bounded, counting every order a checkout would make.
    expect(await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k4', max: 3 })).toEqual({
      ok: false,
      failure: 'pending',
    });
    // A block between buyer and seller hides the product.
    await store.blocks.set('m1', 'm3', true, { now: 110, max: 100 });
    expect(await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k5' })).toEqual({
      ok: false,
      failure: 'product_missing',
    });
  });

  it('orders: paid from the balance once, all of a code or none; the seller ships, the buyer receives, the seller is paid after the return window', async () => {
    const { store } = await fresh();
    await market(store, 12_000);
    const first = await place(
      store,
      [
        { productId: 'tea', quantity: 1 },
        { productId: 'pot', quantity: 1 },
      ],
      { code: 'k1' },
    );
    expect(first.ok).toBe(true);
    // 11 250 fen of 12 000: the balance covers this one.
    const second = await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k2', now: 101 });
    expect(second.ok).toBe(true);
    expect(await store.orders.pay('m2', 'k1', 200)).toEqual({ ok: false, failure: 'missing' });
    expect(await store.orders.pay('m3', 'nope', 200)).toEqual({ ok: false, failure: 'missing' });

    // Two payments at once from a balance that covers either but not both: one lands.
    const paid = await Promise.all([store.orders.pay('m3', 'k1', 200), store.orders.pay('m3', 'k2', 200)]);
    const failures = paid.map((r) => (r.ok ? 'ok' : r.failure));
    expect([...failures].sort()).toEqual(['insufficient', 'ok']);
    const spent = failures[0] === 'ok' ? 11_250 : 1_250;
    expect(await store.wallet.balance('m3')).toEqual({ balance: 12_000 - spent, unpaid: 0 });
    const lines = (await store.wallet.lines('m3', { limit: 10 })) ?? [];
    expect(lines[0]).toMatchObject({ amount: -spent, kind: 'order', ref: failures[0] === 'ok' ? 'k1' : 'k2' });
    const landed = paid.find((r) => r.ok);
    const paidOrders = landed?.ok ? landed.value : [];
    expect(paidOrders.every((o) => o.status === 'paid' && o.payMethod === 'balance' && o.paidAt === 200)).toBe(true);
    expect(await store.orders.pay('m3', paidOrders[0]?.code ?? '', 210)).toEqual({ ok: false, failure: 'state' });

    const order = paidOrders.find((o) => o.sellerId === 'm1');
    const id = order?.id ?? '';
    const logistics = { company: 'SF Express', number: 'SF1234' };
    // A paid order cannot be cancelled; only its seller ships it, once.
    expect(await store.orders.cancel('m3', id, 300)).toBeUndefined();
    expect(await store.orders.confirm('m3', id, 300)).toBeUndefined();
    expect(await store.orders.ship('m2', id, logistics, 300)).toBeUndefined();
    expect(await store.orders.ship('m1', id, logistics, 300)).toMatchObject({
      status: 'shipped',
      logistics,
      shippedAt: 300,
    });
    expect(await store.orders.ship('m1', id, logistics, 301)).toBeUndefined();
    // Only its buyer confirms receipt, once; the seller's ledger takes the sale once the return window passed.
    expect(await store.orders.confirm('m1', id, 400)).toBeUndefined();
    const both = await Promise.all([store.orders.confirm('m3', id, 400), store.orders.confirm('m3', id, 400)]);
    expect(both.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await store.orders.byId(id)).toMatchObject({ status: 'completed', completedAt: 400 });
    expect(await store.wallet.balance('m1')).toEqual({ balance: 0, unpaid: 0 });
    const guarantees = { lateBefore: 0, compensation: 300, now: 500, limit: 10 };
    expect(await store.orders.settleGuarantees({ ...guarantees, returnBefore: 400 })).toEqual([]);
    expect(await store.orders.settleGuarantees({ ...guarantees, returnBefore: 401 })).toMatchObject([
      { id, status: 'completed', settledAt: 500 },
    ]);
    expect(await store.wallet.balance('m1')).toEqual({ balance: 1_250, unpaid: 0 });
    expect((await store.wallet.lines('m1', { limit: 10 }))?.[0]).toMatchObject({
      amount: 1_250,
      kind: 'sale',
      ref: id,
    });
  });

  it('orders: cancelled by the buyer or by time, stock back; shipped ones complete by time; listed per side', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const order = async (code: string, productId: string, now: number) => {
      const placed = await place(store, [{ productId, quantity: 1 }], { code, now });
      if (!placed.ok) throw new Error(placed.failure);
      return placed.value[0]?.id ?? '';
    };
    const a = await order('k1', 'tea', 100);
    const b = await order('k2', 'tea', 200);
    const c = await order('k3', 'pot', 300);
    const d = await order('k4', 'pot', 400);
    expect(await stock(store, 'tea')).toBe(3);
    expect(await store.orders.cancel('m1', a, 500)).toBeUndefined();
    expect(await store.orders.cancel('m3', a, 500)).toMatchObject({ status: 'cancelled', closedAt: 500 });
    expect(await store.orders.cancel('m3', a, 501)).toBeUndefined();
    expect(await stock(store, 'tea')).toBe(4);

    // c is paid and shipped; b stays unpaid; d is paid.
    expect((await store.orders.pay('m3', 'k3', 600)).ok).toBe(true);
    expect((await store.orders.pay('m3', 'k4', 600)).ok).toBe(true);
    await store.orders.ship('m2', c, { company: 'SF', number: 'SF0001' }, 700);
    // Time: unpaid before 250 are cancelled (b), shipped before 800 complete (c); d waits for its seller.
    const settled = await store.orders.settleStale({ unpaidBefore: 250, shippedBefore: 800, now: 900, limit: 10 });
    expect(settled.map((o) => [o.id, o.status]).sort()).toEqual(
      [
        [b, 'cancelled'],
        [c, 'completed'],
      ].sort(),
    );
    expect(await stock(store, 'tea')).toBe(5);
    // The seller is paid once the return window passed.
    expect(await store.wallet.balance('m2')).toEqual({ balance: 0, unpaid: 0 });
    expect(await store.orders.settleStale({ unpaidBefore: 250, shippedBefore: 800, now: 950, limit: 10 })).toEqual([]);

    // Lists: the buyer's and each seller's, newest first, by status, a page at a time.
    const ids = async (side: 'buyer' | 'seller', memberId: string, more: object = {}) =>
      (await store.orders.list({ side, memberId, limit: 10, ...more }))?.map((o) => o.id);
    expect(await ids('buyer', 'm3')).toEqual([d, c, b, a]);
    expect(await ids('buyer', 'm3', { status: 'cancelled' })).toEqual([b, a]);
    expect(await ids('buyer', 'm3', { before: c })).toEqual([b, a]);
    expect(await ids('buyer', 'm3', { limit: 1 })).toEqual([d]);
    expect(await ids('seller', 'm2')).toEqual([d, c]);
    expect(await ids('seller', 'm2', { status: 'paid' })).toEqual([d]);
    expect(await ids('seller', 'm1', { before: d })).toBeUndefined();
    expect(await ids('seller', 'm3')).toEqual([]);

    // An account with an order under way cannot be cancelled; unpaid ones go with it, their stock back.
    expect(await store.members.cancel('m2', { reason: 'x', now: 1_000 })).toBe('orders');
    expect(await store.members.cancel('m3', { reason: 'x', now: 1_000 })).toBe('orders');
    await store.orders.ship('m2', d, { company: 'SF', number: 'SF0002' }, 1_010);
    await store.orders.confirm('m3', d, 1_020);
    await order('k5', 'tea', 1_100);
    expect(await stock(store, 'tea')).toBe(4);
    expect(await store.members.cancel('m3', { reason: 'x', now: 1_200 })).toBe(true);
    expect(await stock(store, 'tea')).toBe(5);
    expect(await ids('buyer', 'm3', { status: 'unpaid' })).toEqual([]);
  });

  it('refunds: asked once at a time, decided once; the money back to the buyer, the rest to the seller; the order waits', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const order = async (code: string, productId: string, quantity: number, now: number) => {
      const placed = await place(store, [{ productId, quantity }], { code, now });
      if (!placed.ok) throw new Error(placed.failure);
      expect((await store.orders.pay('m3', code, now)).ok).toBe(true);
      return placed.value[0]?.id ?? '';
    };
    const refund = (id: string, orderId: string, amount: number, now: number, buyerId = 'm3') =>
      store.orders.applyRefund({
        id,
        orderId,
        buyerId,
        amount,
        reason: 'Damaged',
        description: 'The box was crushed',
        images: ['https://x/proof.png'],
        returnSince: 0,
        now,
      });
    const a = await order('k1', 'tea', 2, 100);
    const teaLeft = await stock(store, 'tea');
    expect(await refund('f0', a, 100, 200, 'm2')).toEqual({ ok: false, failure: 'missing' });
    expect(await refund('f0', a, 2_501, 200)).toEqual({ ok: false, failure: 'amount' });
    // Two asked at once: one waits for the seller.
    const both = await Promise.all([refund('f1', a, 1_000, 200), refund('f2', a, 1_000, 200)]);
    expect(both.map((r) => (r.ok ? 'ok' : r.failure)).sort()).toEqual(['ok', 'open']);
    const first = both.find((r) => r.ok);
    const refundId = first?.ok ? first.value.refund?.id : '';
    expect(first?.ok && first.value.refund).toMatchObject({
      orderId: a,
      amount: 1_000,
      reason: 'Damaged',
      description: 'The box was crushed',
      images: ['https://x/proof.png'],
      status: 'pending',
      refuseReason: '',
      createdAt: 200,
    });
    // While it waits the order is neither shipped nor completed, even by time; it is listed as refunding.
    expect(await store.orders.ship('m1', a, { company: 'SF', number: 'SF0001' }, 300)).toBeUndefined();
    expect(
      (await store.orders.list({ side: 'seller', memberId: 'm1', status: 'refunding', limit: 10 }))?.map((o) => o.id),
    ).toEqual([a]);
    // Only its seller decides, once; refused, the buyer may ask again.
    expect(await store.orders.decideRefund('m2', a, { agree: false, reason: 'x' }, 300)).toBeUndefined();
    expect(await store.orders.receiveReturn('m1', a, 300)).toBeUndefined();
    expect(await store.orders.decideRefund('m1', a, { agree: false, reason: 'Not damaged' }, 300)).toMatchObject({
      status: 'paid',
      refund: { id: refundId, status: 'refused', refuseReason: 'Not damaged', updatedAt: 300 },
    });
    expect(await store.orders.decideRefund('m1', a, { agree: true, withReturn: false }, 301)).toBeUndefined();
    expect(await store.orders.ship('m1', a, { company: 'SF', number: 'SF0001' }, 400)).toMatchObject({
      status: 'shipped',
    });

    // Asked again; agreed with return: the goods go back, then the money, and the order ends.
    expect((await refund('f3', a, 2_500, 500)).ok).toBe(true);
    expect(await store.orders.confirm('m3', a, 510)).toBeUndefined();
    expect(await store.orders.settleStale({ unpaidBefore: 0, shippedBefore: 10_000, now: 10_001, limit: 10 })).toEqual(
      [],
    );
    expect(await store.orders.sendBack('m3', a, { company: 'YTO', number: 'YT0001' }, 520)).toBeUndefined();
    expect(await store.orders.decideRefund('m1', a, { agree: true, withReturn: true }, 530)).toMatchObject({
      refund: { id: 'f3', status: 'returning' },
    });
    expect(await store.orders.receiveReturn('m1', a, 540)).toBeUndefined();
    expect(await store.orders.sendBack('m1', a, { company: 'YTO', number: 'YT0001' }, 550)).toBeUndefined();
    expect(await store.orders.sendBack('m3', a, { company: 'YTO', number: 'YT0001' }, 550)).toMatchObject({
      refund: { status: 'returned', returnLogistics: { company: 'YTO', number: 'YT0001' } },
    });
    expect(await store.orders.cancelRefund('m3', a, 555)).toBeUndefined();
    const received = await Promise.all([
      store.orders.receiveReturn('m1', a, 560),
      store.orders.receiveReturn('m1', a, 560),
    ]);
    expect(received.filter((r) => r !== undefined)).toHaveLength(1);
    // The goods are back with the seller: in stock again, once.
    expect(await stock(store, 'tea')).toBe((teaLeft ?? 0) + 2);
    expect(await store.orders.byId(a)).toMatchObject({
      status: 'refunded',
      closedAt: 560,
      refund: { status: 'refunded' },
    });
    expect(await store.wallet.balance('m3')).toEqual({ balance: 50_000, unpaid: 0 });
    expect((await store.wallet.lines('m3', { limit: 1 }))?.[0]).toMatchObject({
      amount: 2_500,
      kind: 'refund',
      ref: 'f3',
    });
    expect(await store.wallet.balance('m1')).toEqual({ balance: 0, unpaid: 0 });
    expect(await refund('f4', a, 100, 600)).toEqual({ ok: false, failure: 'ended' });
    expect(
      (await store.orders.list({ side: 'buyer', memberId: 'm3', status: 'refunded', limit: 10 }))?.map((o) => o.id),
    ).toEqual([a]);

    // A part refunded without return: the rest is the seller's, the order ends; a cancelled one lets the order go on.
    const b = await order('k2', 'pot', 1, 700);
    const potLeft = await stock(store, 'pot');
    expect((await refund('f5', b, 4_000, 710)).ok).toBe(true);
    expect(await store.orders.cancelRefund('m3', b, 720)).toMatchObject({
      status: 'paid',
      refund: { status: 'cancelled' },
    });
    expect((await refund('f6', b, 4_000, 730)).ok).toBe(true);
    expect(await store.orders.decideRefund('m2', b, { agree: true, withReturn: false }, 740)).toMatchObject({
      status: 'refunded',
      refund: { id: 'f6', status: 'refunded' },
    });
    expect(await store.wallet.balance('m2')).toEqual({ balance: 6_000, unpaid: 0 });
    // Never shipped, the goods never left: back in stock.
    expect(await stock(store, 'pot')).toBe((potLeft ?? 0) + 1);
    expect(await store.wallet.balance('m3')).toEqual({ balance: 50_000 - 10_000 + 4_000, unpaid: 0 });
    // Time: a refund the seller left is agreed; goods not sent back cancel it; goods not confirmed count as received.
    const c = await order('k4', 'tea', 1, 900);
    const d = await order('k5', 'tea', 1, 900);
    const e = await order('k6', 'cup', 1, 900);
    const [teaBefore, cupBefore] = [await stock(store, 'tea'), await stock(store, 'cup')];
    for (const [id, orderId] of [
      ['g1', c],
      ['g2', d],
      ['g3', e],
    ] as const) {
      expect((await refund(id, orderId, 500, 1_000)).ok).toBe(true);
    }
    await store.orders.decideRefund('m1', d, { agree: true, withReturn: true }, 1_100);
    await store.orders.decideRefund('m1', e, { agree: true, withReturn: true }, 1_100);
    await store.orders.sendBack('m3', e, { company: 'YTO', number: 'YT0002' }, 1_200);
    const settle = (now: number) =>
      store.orders.settleRefunds({ repliedBefore: 1_050, sentBefore: 1_150, receivedBefore: 1_150, now, limit: 10 });
    expect((await settle(2_000)).map((o) => [o.id, o.status, o.refund?.status])).toEqual([
      [c, 'refunded', 'refunded'],
      [d, 'paid', 'cancelled'],
    ]);
    // c never shipped: its tea is back; d goes on, its tea sold.
    expect(await stock(store, 'tea')).toBe((teaBefore ?? 0) + 1);
    expect(await settle(2_001)).toEqual([]);
    expect(
      (
        await store.orders.settleRefunds({
          repliedBefore: 0,
          sentBefore: 0,
          receivedBefore: 1_201,
          now: 2_100,
          limit: 10,
        })
      ).map((o) => [o.id, o.status]),
    ).toEqual([[e, 'refunded']]);
    expect(await stock(store, 'cup')).toBe((cupBefore ?? 0) + 1);
    // Shipped and refunded without return: the goods stay with the buyer, the stock as it was.
    const f = await order('k7', 'cup', 1, 2_200);
    await store.orders.ship('m1', f, { company: 'SF', number: 'SF0002' }, 2_300);
    const cupLeft = await stock(store, 'cup');
    expect((await refund('g4', f, 500, 2_400)).ok).toBe(true);
    expect(await store.orders.decideRefund('m1', f, { agree: true, withReturn: false }, 2_500)).toMatchObject({
      status: 'refunded',
    });
    expect(await stock(store, 'cup')).toBe(cupLeft);
    const unpaid = await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k3', now: 800 });
    expect(await refund('f7', unpaid.ok ? (unpaid.value[0]?.id ?? '') : '', 100, 800)).toEqual({
      ok: false,
      failure: 'unpaid',
    });
  });

  it('reviews: once per completed order in its time, answered once; listed per side, per product, with averages', async () => {
    const { store } = await fresh();
    await market(store, 100_000);
    /** A completed order of m3's for `lines`, placed at `at`, completed at `at + 30`. */
    const completed = async (code: string, lines: OrderLine[], at: number) => {
      const placed = await place(store, lines, { code, now: at });
      const orders = placed.ok ? placed.value : [];
      expect(await store.orders.pay('m3', code, at + 10)).toMatchObject({ ok: true });
      for (const order of orders) {
        await store.orders.ship(order.sellerId, order.id, { company: 'SF', number: 'SF1234' }, at + 20);
        await store.orders.confirm('m3', order.id, at + 30);
      }
      return orders;
    };
    const review = (orderId: string, at: number, overrides: Partial<Parameters<Store['reviews']['add']>[0]> = {}) =>
      store.reviews.add({
        orderId,
        buyerId: 'm3',
        quality: 5,
        service: 4,
        logistics: 3,
        content: 'Good tea',
        since: 0,
        now: at,
        ...overrides,
      });

    const [teaOrder] = await completed('k1', [{ productId: 'tea', quantity: 1 }], 100);
    const [both] = await completed(
      'k2',
      [
        { productId: 'tea', quantity: 1 },
        { productId: 'cup', quantity: 1 },
      ],
      200,
    );
    const unpaid = await place(store, [{ productId: 'pot', quantity: 1 }], { code: 'k3', now: 300 });
    const unpaidId = unpaid.ok ? (unpaid.value[0]?.id ?? '') : '';
    const first = teaOrder?.id ?? '';
    const second = both?.id ?? '';

    expect(await review('nope', 400)).toEqual({ ok: false, failure: 'missing' });
    expect(await review(first, 400, { buyerId: 'm1' })).toEqual({ ok: false, failure: 'missing' });
    expect(await review(unpaidId, 400)).toEqual({ ok: false, failure: 'state' });
    // Completed at 130: a window starting after it is closed.
    expect(await review(first, 400, { since: 131 })).toEqual({ ok: false, failure: 'closed' });
    const unreviewed = await store.orders.list({
      side: 'seller',
      memberId: 'm1',
      status: 'unreviewed',
      reviewSince: 130,
      limit: 10,
    });
    expect(unreviewed?.map((o) => o.id)).toEqual([second, first]);
    expect(
      (
        await store.orders.list({ side: 'buyer', memberId: 'm3', status: 'unreviewed', reviewSince: 131, limit: 10 })
      )?.map((o) => o.id),
    ).toEqual([second]);

    // Two at once: one lands.
    const twice = await Promise.all([review(first, 400, { since: 130 }), review(first, 400, { content: 'Other' })]);
    expect(twice.map((r) => (r.ok ? 'ok' : r.failure)).sort()).toEqual(['done', 'ok']);
    const landed = twice.find((r) => r.ok);
    const expected = { quality: 5, service: 4, logistics: 3, reply: '', createdAt: 400 };
    expect(landed?.ok && landed.value).toMatchObject({ id: first, status: 'completed', review: expected });
    expect((await store.orders.byId(first))?.review).toMatchObject(expected);
    expect(await review(first, 401)).toEqual({ ok: false, failure: 'done' });
    expect(await review(second, 500, { quality: 1, service: 2, logistics: 2, content: '' })).toMatchObject({
      ok: true,
    });
    expect(
      await store.orders.list({ side: 'buyer', memberId: 'm3', status: 'unreviewed', reviewSince: 0, limit: 10 }),
    ).toEqual([]);

    // Lists: newest first, each with its order's products; the seller's by answer.
    const mine = (await store.reviews.list({ side: 'buyer', memberId: 'm3', limit: 10 })) ?? [];
    expect(mine.map((r) => r.orderId)).toEqual([second, first]);
    expect(mine[0]).toMatchObject({
      buyerId: 'm3',
      sellerId: 'm1',
      shopId: 's-m1',
      content: '',
      items: [
        { productId: 'tea', title: 'Product tea', image: 'https://x/tea.png' },
        { productId: 'cup', title: 'Product cup', image: 'https://x/cup.png' },
      ],
    });
    expect(
      (await store.reviews.list({ side: 'buyer', memberId: 'm3', before: second, limit: 10 }))?.map((r) => r.orderId),
    ).toEqual([first]);
    expect(await store.reviews.list({ side: 'buyer', memberId: 'm1', before: second, limit: 10 })).toBeUndefined();
    expect(await store.reviews.list({ side: 'seller', memberId: 'm2', limit: 10 })).toEqual([]);

    // Answered once, by the seller only.
    expect(await store.reviews.reply('m2', first, 'Thanks', 600)).toEqual({ ok: false, failure: 'missing' });
    const answers = await Promise.all([
      store.reviews.reply('m1', first, 'Thanks', 600),
      store.reviews.reply('m1', first, 'Thank you', 600),
    ]);
    expect(answers.map((r) => (r.ok ? 'ok' : r.failure)).sort()).toEqual(['ok', 'replied']);
    expect((await store.orders.byId(first))?.review).toMatchObject({ repliedAt: 600 });
    const open = await store.reviews.list({ side: 'seller', memberId: 'm1', replied: false, limit: 10 });
    expect(open?.map((r) => r.orderId)).toEqual([second]);
    const answered = await store.reviews.list({ side: 'seller', memberId: 'm1', replied: true, limit: 10 });
    expect(answered?.map((r) => r.orderId)).toEqual([first]);

    // Per product: the tea was in both orders, the cup in one.
    const tea = await store.reviews.ofProduct({ productId: 'tea', limit: 1 });
    expect(tea?.map((r) => r.orderId)).toEqual([second]);
    expect(
      (await store.reviews.ofProduct({ productId: 'tea', before: second, limit: 1 }))?.map((r) => r.orderId),
    ).toEqual([first]);
    expect((await store.reviews.ofProduct({ productId: 'cup', limit: 10 }))?.map((r) => r.orderId)).toEqual([second]);
    expect(await store.reviews.ofProduct({ productId: 'tea', before: 'nope', limit: 10 })).toBeUndefined();
    expect(await store.reviews.summary('tea')).toEqual({ count: 2, quality: 3, service: 3, logistics: 2.5 });
    expect(await store.reviews.summary('pot')).toEqual({ count: 0, quality: 0, service: 0, logistics: 0 });
    // A viewer with a block between them and the buyer sees none of theirs.
    expect(await store.blocks.set('m2', 'm3', true, { now: 700, max: 10 })).toBe(true);
    expect(await store.reviews.ofProduct({ productId: 'tea', viewerId: 'm2', limit: 10 })).toEqual([]);
    expect(await store.reviews.summary('tea', 'm2')).toEqual({ count: 0, quality: 0, service: 0, logistics: 0 });
    expect(await store.reviews.ofProduct({ productId: 'tea', viewerId: 'm1', limit: 10 })).toHaveLength(2);
  });

  it('shop withdrawals: sales income only, never past the balance; once at a time even asked at once; a rejection returns it once', async () => {
    const { store } = await fresh();
    await market(store, 100_000);
    const placed = await place(store, [{ productId: 'tea', quantity: 2 }], { code: 'k1' });
    const order = placed.ok ? placed.value[0] : undefined;
    await store.orders.pay('m3', 'k1', 110);
    await store.orders.ship('m1', order?.id ?? '', { company: 'SF', number: 'SF1234' }, 120);
    await store.orders.confirm('m3', order?.id ?? '', 130);
    // Not withdrawable while the order may still be returned.
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 0, withdrawable: 0 });
    await store.orders.settleGuarantees({ returnBefore: 131, lateBefore: 0, compensation: 300, now: 135, limit: 10 });
    // m1 sold 2 500 fen and recharged 8 000: only the sales are withdrawable.
    await store.wallet.recharge({ id: 'r2', memberId: 'm1', amount: 8_000, method: 'alipay', createdAt: 140 }, 3);
    await store.wallet.settle('r2', { paid: true, reason: '', reference: 'T', now: 150 });
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 10_500, withdrawable: 2_500 });
    // The buyer's recharged money is no income at all.
    expect(await store.withdrawals.income('m3')).toEqual({ balance: 97_500, withdrawable: 0 });
    const ask = (id: string, amount: number, at: number, memberId = 'm1') =>
      store.withdrawals.requestShop({
        id,
        memberId,
        amount,
        method: 'alipay',
        accountName: 'Wang',
        account: 'a@b.cn',
        createdAt: at,
      });
    expect(await ask('w0', 26, 200)).toBe('income');
    expect(await ask('w0', 1, 200, 'nobody')).toBe('missing');
    const tries = await Promise.all(['w1', 'w2', 'w3'].map((id) => ask(id, 20, 200)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'pending')).toHaveLength(2);
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 8_500, withdrawable: 500 });
    const [first] = (await store.withdrawals.byMember('m1', { source: 'shop', limit: 10 })) ?? [];
    expect(first).toMatchObject({ source: 'shop', amount: 20, coins: 0, status: 'pending', createdAt: 200 });
    // Coin withdrawals list their own; the operator's queue holds both.
    expect(await store.withdrawals.byMember('m1', { limit: 10 })).toEqual([]);
    expect(await store.withdrawals.list({ status: 'pending', limit: 10 })).toEqual([first]);

    const reviews = await Promise.all([
      store.withdrawals.review(first?.id ?? '', { paid: false, reason: 'wrong name', now: 300 }),
      store.withdrawals.review(first?.id ?? '', { paid: false, reason: 'wrong name', now: 300 }),
    ]);
    expect(reviews.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 10_500, withdrawable: 2_500 });
    expect(((await store.wallet.lines('m1', { limit: 2 })) ?? []).map((l) => [l.kind, l.amount])).toEqual([
      ['withdraw_return', 2_000],
      ['withdraw', -2_000],
    ]);
    // Spending takes the balance under the income: the balance bounds what is withdrawable.
    expect(
      await place(store, [{ productId: 'pot', quantity: 1 }], { code: 'k2', buyerId: 'm1', now: 400 }),
    ).toMatchObject({ ok: true });
    expect(await store.orders.pay('m1', 'k2', 410)).toMatchObject({ ok: true });
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 500, withdrawable: 500 });
    expect(await ask('w4', 6, 500)).toBe('income');
    expect(await ask('w5', 5, 500)).toBe('ok');
    await store.withdrawals.review('w5', { paid: true, reason: '', now: 600 });
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 0, withdrawable: 0 });
  });

  it('product marks: favourites up to a bound, a history of the latest looks; listed latest first across statuses', async () => {
    const { store } = await fresh();
    await market(store);
    const mark = (list: 'favourite' | 'history', productId: string, now: number, max = 2) =>
      store.products.mark('m3', list, productId, { now, max });
    const ids = async (list: 'favourite' | 'history', before?: string) =>
      (await store.products.marks('m3', list, { before, limit: 10 }))?.map((p) => p.id);

    expect(await mark('favourite', 'tea', 100)).toBe('ok');
    expect(await mark('favourite', 'pot', 110)).toBe('ok');
    // Full: a third is refused, one kept already is moved to now.
    expect(await mark('favourite', 'cup', 120)).toBe('limit');
    expect(await mark('favourite', 'tea', 130)).toBe('ok');
    expect(await ids('favourite')).toEqual(['tea', 'pot']);
    expect((await store.products.marks('m3', 'favourite', { limit: 1 }))?.[0]).toMatchObject({
      id: 'tea',
      markedAt: 130,
      title: 'Product tea',
    });
    expect(await ids('favourite', 'tea')).toEqual(['pot']);
    expect(await ids('favourite', 'cup')).toBeUndefined();
    expect(await store.products.marked('m3', 'favourite', ['tea', 'cup', 'pot'])).toEqual(new Set(['tea', 'pot']));
    expect(await store.products.mark('nobody', 'favourite', 'tea', { now: 1, max: 2 })).toBe('missing');

    // Marks sent at once count against the bound: of two more on a list of one, one lands.
    expect(await store.products.unmark('m3', 'favourite', ['tea'])).toBe(1);
    const both = await Promise.all([mark('favourite', 'cup', 140), mark('favourite', 'new', 140)]);
    expect([...both].sort()).toEqual(['limit', 'ok']);

    // The history keeps the latest two looks; a look again moves one to now.
    await mark('history', 'tea', 200);
    await mark('history', 'cup', 210);
    await mark('history', 'tea', 220);
    expect(await ids('history')).toEqual(['tea', 'cup']);
    await mark('history', 'pot', 230);
    expect(await ids('history')).toEqual(['pot', 'tea']);
    // Lists are apart: the favourites did not change.
    expect(await ids('favourite')).toHaveLength(2);

    // A product off sale stays listed with its status; one across a block does not.
    await store.products.shelve('m2', 'pot', false);
    expect((await store.products.marks('m3', 'history', { limit: 10 }))?.[0]).toMatchObject({
      id: 'pot',
      status: 'off_shelf',
    });
    expect(await store.blocks.set('m3', 'm2', true, { now: 300, max: 10 })).toBe(true);
    expect(await ids('history')).toEqual(['tea']);

    expect(await store.products.unmark('m3', 'history', [])).toBe(0);
    expect(await store.products.unmark('m3', 'history', 'all')).toBe(2);
    expect(await ids('history')).toEqual([]);
    expect(await store.products.marked('m3', 'favourite', ['pot'])).toEqual(new Set(['pot']));
  });
}
