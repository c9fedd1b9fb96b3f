/**
 * The store contract for the shop's service guarantees (spec §9 "No-reason return: 7 days", "Late-delivery
 * compensation coupon: at least 3 yuan"); registered by `describeStoreContract` so that it runs on SQLite and on
 * PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { Store } from '../src/store/index.js';
import { market, place, stock } from './store-contract-orders.js';

const LOGISTICS = { company: 'SF', number: 'SF1234' };

/** m3's order of `quantity` of `productId` under `code`, paid at `at`; its id. */
async function paidOrder(store: Store, code: string, productId: string, quantity: number, at: number) {
  const placed = await place(store, [{ productId, quantity }], { code, now: at });
  if (!placed.ok) throw new Error(placed.failure);
  expect((await store.orders.pay('m3', code, at)).ok).toBe(true);
  return placed.value[0]?.id ?? '';
}

/** m3's order as {@link paidOrder}, shipped at `at + 10` and received at `at + 20`. */
async function completedOrder(store: Store, code: string, productId: string, quantity: number, at: number) {
  const id = await paidOrder(store, code, productId, quantity, at);
  const sellerId = (await store.orders.byId(id))?.sellerId ?? '';
  await store.orders.ship(sellerId, id, LOGISTICS, at + 10);
  expect(await store.orders.confirm('m3', id, at + 20)).toMatchObject({ status: 'completed' });
  return id;
}

const balance = async (store: Store, memberId: string) => (await store.wallet.balance(memberId)).balance;

/** The member's newest ledger lines as `[kind, amount, ref]`. */
const lines = async (store: Store, memberId: string, limit: number) =>
  ((await store.wallet.lines(memberId, { limit })) ?? []).map((l) => [l.kind, l.amount, l.ref]);

/** Registers the guarantees part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeGuaranteeStoreContract(fresh: () => Promise<{ store: Store }>): void {
  it('guarantees: a completed order is returned within its window, money back only once the goods are; the seller paid what is left, once', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const refund = (id: string, orderId: string, amount: number, now: number, returnSince: number) =>
      store.orders.applyRefund({
        id,
        orderId,
        buyerId: 'm3',
        amount,
        reason: 'Unwanted',
        description: 'Changed my mind',
        images: ['https://x/proof.png'],
        returnSince,
        now,
      });
    const settle = (returnBefore: number, now: number) =>
      store.orders.settleGuarantees({ returnBefore, lateBefore: 0, compensation: 300, now, limit: 10 });

    // Completed at 120: a window that began after it has passed.
    const a = await completedOrder(store, 'k1', 'tea', 2, 100);
    const teaLeft = await stock(store, 'tea');
    expect(await refund('f0', a, 2_500, 200, 121)).toEqual({ ok: false, failure: 'ended' });
    expect(await refund('f1', a, 2_500, 200, 120)).toMatchObject({
      ok: true,
      value: { status: 'completed', refund: { id: 'f1', status: 'pending' } },
    });
    // While the return is under way, the window passing pays the seller nothing.
    expect(await settle(1_000, 210)).toEqual([]);
    expect(await balance(store, 'm1')).toBe(0);
    // The buyer has the goods: agreed without return is refused, by the seller or by time; with return it waits.
    expect(await store.orders.decideRefund('m1', a, { agree: true, withReturn: false }, 220)).toBeUndefined();
    const byTime = await store.orders.settleRefunds({
      repliedBefore: 1_000,
      sentBefore: 0,
      receivedBefore: 0,
      now: 230,
      limit: 10,
    });
    expect(byTime.map((o) => [o.id, o.status, o.refund?.status])).toEqual([[a, 'completed', 'returning']]);
    await store.orders.sendBack('m3', a, { company: 'YTO', number: 'YT0001' }, 240);
    const received = await Promise.all([
      store.orders.receiveReturn('m1', a, 250),
      store.orders.receiveReturn('m1', a, 250),
    ]);
    expect(received.filter((r) => r !== undefined)).toMatchObject([
      { status: 'refunded', closedAt: 250, settledAt: 250, refund: { status: 'refunded' } },
    ]);
    expect(await balance(store, 'm3')).toBe(50_000);
    expect(await stock(store, 'tea')).toBe((teaLeft ?? 0) + 2);
    // Refunded in full: the seller gets nothing, now or when the window passes.
    expect(await settle(1_000, 260)).toEqual([]);
    expect(await balance(store, 'm1')).toBe(0);
    expect(await refund('f2', a, 100, 270, 0)).toEqual({ ok: false, failure: 'ended' });

    // A part returned: the seller is paid the rest when the money goes back, once.
    const b = await completedOrder(store, 'k2', 'pot', 1, 300);
    expect((await refund('f3', b, 4_000, 330, 300)).ok).toBe(true);
    await store.orders.decideRefund('m2', b, { agree: true, withReturn: true }, 340);
    await store.orders.sendBack('m3', b, { company: 'YTO', number: 'YT0002' }, 350);
    await store.orders.receiveReturn('m2', b, 360);
    expect(await balance(store, 'm2')).toBe(6_000);
    expect(await lines(store, 'm2', 10)).toEqual([['sale', 6_000, b]]);
    expect(await settle(10_000, 370)).toEqual([]);
    expect(await balance(store, 'm2')).toBe(6_000);

    // A return refused: the seller is paid in full once the window passed, and then it cannot be returned.
    const c = await completedOrder(store, 'k3', 'cup', 1, 400);
    expect((await refund('f4', c, 800, 430, 400)).ok).toBe(true);
    await store.orders.decideRefund('m1', c, { agree: false, reason: 'Opened' }, 440);
    expect(await settle(420, 450)).toEqual([]);
    expect(await settle(421, 460)).toMatchObject([{ id: c, status: 'completed', settledAt: 460 }]);
    expect(await lines(store, 'm1', 10)).toEqual([['sale', 800, c]]);
    expect(await refund('f5', c, 800, 470, 0)).toEqual({ ok: false, failure: 'ended' });
  });

  it('guarantees: a late delivery compensates the buyer once, charged to the seller when the order settles; nothing withdrawable before', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const settle = (lateBefore: number, now: number, returnBefore = 0) =>
      store.orders.settleGuarantees({ returnBefore, lateBefore, compensation: 300, now, limit: 10 });

    // Not shipped: compensated once its promise has passed, and only once.
    const a = await paidOrder(store, 'k1', 'tea', 1, 100);
    expect(await settle(100, 150)).toEqual([]);
    expect(await settle(101, 160)).toMatchObject([{ id: a, status: 'paid', compensation: 300, compensatedAt: 160 }]);
    expect(await settle(101, 170)).toEqual([]);
    expect(await lines(store, 'm3', 1)).toEqual([['compensation', 300, a]]);
    // Shipped late afterwards: no second compensation.
    const late = { paidBefore: 10_000, amount: 300 };
    expect(await store.orders.ship('m1', a, LOGISTICS, 180, late)).toMatchObject({ compensatedAt: 160 });
    expect(await balance(store, 'm3')).toBe(50_000 - 1_250 + 300);

    // Shipped late before time noticed: compensated as it ships; shipped in time: not.
    const b = await paidOrder(store, 'k2', 'pot', 1, 200);
    const c = await paidOrder(store, 'k3', 'cup', 1, 200);
    expect(await store.orders.ship('m2', b, LOGISTICS, 300, { paidBefore: 201, amount: 300 })).toMatchObject({
      status: 'shipped',
      compensation: 300,
      compensatedAt: 300,
    });
    expect(await store.orders.ship('m1', c, LOGISTICS, 300, { paidBefore: 200, amount: 300 })).toMatchObject({
      status: 'shipped',
      compensation: 0,
    });
    expect(await balance(store, 'm3')).toBe(50_000 - 1_250 - 10_000 - 800 + 600);

    // A paid order with a refund under way waits for it, and is not compensated meanwhile.
    const d = await paidOrder(store, 'k4', 'tea', 1, 400);
    const asked = await store.orders.applyRefund({
      id: 'f1',
      orderId: d,
      buyerId: 'm3',
      amount: 1_250,
      reason: 'Unwanted',
      description: 'Too slow',
      images: ['https://x/proof.png'],
      returnSince: 0,
      now: 410,
    });
    expect(asked.ok).toBe(true);
    expect(await settle(10_000, 420)).toEqual([]);

    // Received: the proceeds wait for the return window, then come less the compensation, once.
    for (const id of [a, c]) await store.orders.confirm('m3', id, 500);
    await store.orders.confirm('m3', b, 500);
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 0, withdrawable: 0 });
    expect((await settle(0, 600, 501)).map((o) => o.id).sort()).toEqual([a, b, c].sort());
    expect(await settle(0, 610, 10_000)).toEqual([]);
    expect(await store.withdrawals.income('m1')).toEqual({ balance: 1_250 - 300 + 800, withdrawable: 1_750 });
    expect((await lines(store, 'm1', 3)).sort()).toEqual(
      [
        ['sale', 1_250, a],
        ['late_charge', -300, a],
        ['sale', 800, c],
      ].sort(),
    );
    expect(await store.withdrawals.income('m2')).toEqual({ balance: 9_700, withdrawable: 9_700 });
  });
}
