/**
 * The store contract for the shop's guarantee claims (spec §9 "Damage refund: within 72 hours (24 hours for food and
 * fresh items)", "Counterfeit compensation: four times"); registered by `describeStoreContract` so that it runs on
 * SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { ClaimKind, Store } from '../src/store/index.js';
import { market, place, stock } from './store-contract-orders.js';

const LOGISTICS = { company: 'SF', number: 'SF1234' };

/** m3's order of `quantity` of `productId` under `code`, paid at `at` and shipped at `at + 10`; its id. */
async function shippedOrder(store: Store, code: string, productId: string, quantity: number, at: number) {
  const placed = await place(store, [{ productId, quantity }], { code, now: at });
  if (!placed.ok) throw new Error(placed.failure);
  expect((await store.orders.pay('m3', code, at)).ok).toBe(true);
  const id = placed.value[0]?.id ?? '';
  const sellerId = placed.value[0]?.sellerId ?? '';
  expect(await store.orders.ship(sellerId, id, LOGISTICS, at + 10)).toMatchObject({ status: 'shipped' });
  return id;
}

/** m3's order as {@link shippedOrder}, received at `at + 20`. */
async function completedOrder(store: Store, code: string, productId: string, quantity: number, at: number) {
  const id = await shippedOrder(store, code, productId, quantity, at);
  expect(await store.orders.confirm('m3', id, at + 20)).toMatchObject({ status: 'completed' });
  return id;
}

const balance = async (store: Store, memberId: string) => (await store.wallet.balance(memberId)).balance;

/** The member's ledger lines of order `ref` as `[kind, amount]`, sorted. */
const linesOf = async (store: Store, memberId: string, ref: string) =>
  ((await store.wallet.lines(memberId, { limit: 50 })) ?? [])
    .filter((line) => line.ref === ref)
    .map((line) => [line.kind, line.amount])
    .sort();

/** Registers the claims part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeClaimStoreContract(fresh: () => Promise<{ store: Store }>): void {
  /** m3's claim `id` of `kind` on `orderId` at `now`, the window's earliest completions `since` and `freshSince`. */
  const claimOn =
    (store: Store) =>
    (id: string, orderId: string, kind: ClaimKind, now: number, since = 0, freshSince = 0, buyerId = 'm3') =>
      store.orders.fileClaim({
        id,
        orderId,
        buyerId,
        kind,
        description: 'The box was crushed',
        images: ['https://x/proof.png'],
        since,
        freshSince,
        now,
      });

  it('claims: on a shipped or completed order of the buyer, one pending at a time even filed at once; it holds the order and refunds; cancelled and filed again', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);

    const unpaid = await place(store, [{ productId: 'cup', quantity: 1 }], { code: 'k0', now: 50 });
    expect(await file('c0', unpaid.ok ? (unpaid.value[0]?.id ?? '') : '', 'damage', 60)).toEqual({
      ok: false,
      failure: 'state',
    });
    const a = await shippedOrder(store, 'k1', 'tea', 2, 100);
    expect(await file('c0', a, 'damage', 120, 0, 0, 'm1')).toEqual({ ok: false, failure: 'missing' });
    expect(await file('c0', 'nope', 'damage', 120)).toEqual({ ok: false, failure: 'missing' });
    const filed = await Promise.all([file('c1', a, 'damage', 120), file('c2', a, 'counterfeit', 120)]);
    expect(filed.filter((r) => r.ok)).toHaveLength(1);
    expect(filed.filter((r) => !r.ok)).toEqual([{ ok: false, failure: 'open' }]);
    const first = filed.find((r) => r.ok);
    const claimId = first?.ok ? first.value.claim?.id : undefined;
    expect(first).toMatchObject({
      ok: true,
      value: {
        id: a,
        status: 'shipped',
        claimsDecided: [],
        fresh: false,
        claim: {
          id: claimId,
          orderId: a,
          orderCode: 'k1',
          buyerId: 'm3',
          sellerId: 'm1',
          shopId: 's-m1',
          total: 2_500,
          description: 'The box was crushed',
          images: ['https://x/proof.png'],
          status: 'pending',
          reason: '',
          refund: 0,
          compensation: 0,
          createdAt: 120,
        },
      },
    });
    expect(first?.ok && first.value.claim?.decidedAt).toBeUndefined();
    expect(await store.orders.byId(a)).toMatchObject({ claim: { id: claimId, status: 'pending' } });

    // Pending: no refund is asked for, and time does not complete the order.
    const refund = (id: string, now: number) =>
      store.orders.applyRefund({
        id,
        orderId: a,
        buyerId: 'm3',
        amount: 2_500,
        reason: 'Damaged',
        description: 'Crushed',
        images: ['https://x/proof.png'],
        returnSince: 0,
        now,
      });
    expect(await refund('f1', 130)).toEqual({ ok: false, failure: 'claim' });
    expect(await store.orders.settleStale({ unpaidBefore: 0, shippedBefore: 10_000, now: 140, limit: 10 })).toEqual([]);
    expect(await store.orders.byId(a)).toMatchObject({ status: 'shipped' });

    // Only the buyer cancels it, once; then a refund may be asked for, which in turn holds claims off.
    expect(await store.orders.cancelClaim('m1', a)).toBeUndefined();
    expect(await store.orders.cancelClaim('m3', a)).toMatchObject({ claim: { status: 'cancelled' } });
    expect(await store.orders.cancelClaim('m3', a)).toBeUndefined();
    expect(await refund('f1', 150)).toMatchObject({ ok: true, value: { refund: { status: 'pending' } } });
    expect(await file('c3', a, 'damage', 160)).toEqual({ ok: false, failure: 'refund' });
    await store.orders.cancelRefund('m3', a, 170);
    // Filed again after a cancel, and again time waits for it; the buyer may still confirm receipt.
    expect(await file('c3', a, 'damage', 180)).toMatchObject({ ok: true, value: { claim: { id: 'c3' } } });
    expect(await store.orders.confirm('m3', a, 190)).toMatchObject({ status: 'completed', claim: { id: 'c3' } });
  });

  it('claims: a claim and a refund asked for at once on one order: one of them is, and the other hears which', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);
    const outcomes = new Set<string>();
    // Five: the tea in stock.
    for (let i = 0; i < 5; i += 1) {
      const a = await shippedOrder(store, `r${i}`, 'tea', 1, 100 + i * 100);
      const [claim, refund] = await Promise.all([
        file(`c${i}`, a, 'damage', 150 + i * 100),
        store.orders.applyRefund({
          id: `f${i}`,
          orderId: a,
          buyerId: 'm3',
          amount: 100,
          reason: 'Damaged',
          description: 'Crushed',
          images: [],
          returnSince: 0,
          now: 150 + i * 100,
        }),
      ]);
      // The one that lost names the other: a claim waits (`claim`), or a refund is under way (`refund`).
      if (claim.ok) expect(refund).toEqual({ ok: false, failure: 'claim' });
      else expect([claim, refund.ok]).toEqual([{ ok: false, failure: 'refund' }, true]);
      const order = await store.orders.byId(a);
      expect(claim.ok ? order?.claim?.status : order?.refund?.status).toBe('pending');
      outcomes.add(claim.ok ? 'claim' : 'refund');
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('claims: an account with a claim waiting, or a return under way, on a completed order cannot be cancelled', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const a = await completedOrder(store, 'k1', 'tea', 1, 100);
    expect((await claimOn(store)('c1', a, 'damage', 130)).ok).toBe(true);
    // Neither its buyer nor its seller.
    expect(await store.members.cancel('m3', { reason: 'x', now: 140 })).toBe('orders');
    expect(await store.members.cancel('m1', { reason: 'x', now: 140 })).toBe('orders');
    await store.orders.cancelClaim('m3', a);
    const back = await store.orders.applyRefund({
      id: 'f1',
      orderId: a,
      buyerId: 'm3',
      amount: 1_250,
      reason: 'No reason',
      description: 'Changed my mind',
      images: [],
      returnSince: 0,
      now: 150,
    });
    expect(back).toMatchObject({ ok: true, value: { status: 'completed', refund: { status: 'pending' } } });
    expect(await store.members.cancel('m3', { reason: 'x', now: 160 })).toBe('orders');
    await store.orders.cancelRefund('m3', a, 170);
    expect(await store.members.cancel('m3', { reason: 'x', now: 180 })).toBe(true);
  });

  it('claims: a completed order within each kind’s time, the shorter one for a fresh category; a kind decided once', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);
    // Completed at 120.
    const a = await completedOrder(store, 'k1', 'tea', 1, 100);
    expect(await file('c1', a, 'damage', 500, 121, 0)).toEqual({ ok: false, failure: 'window' });
    expect(await file('c1', a, 'damage', 500, 120, 200)).toMatchObject({ ok: true, value: { fresh: false } });
    await store.orders.cancelClaim('m3', a);

    // Its product's category marked fresh: the fresh time counts; a category removed does not.
    expect(await store.products.updateCategory('c1', { fresh: true })).toBe('ok');
    expect(await store.products.category('c1')).toMatchObject({ fresh: true });
    expect(await store.orders.byId(a)).toMatchObject({ fresh: true });
    expect(await file('c2', a, 'damage', 500, 0, 121)).toEqual({ ok: false, failure: 'window' });
    expect(await file('c2', a, 'damage', 500, 200, 120)).toMatchObject({ ok: true, value: { claim: { id: 'c2' } } });

    // Rejected: the order goes on, and that kind is not claimed again; the other kind may be.
    expect(
      await store.orders.decideClaim('c2', { uphold: false, reason: 'No damage on the photos' }, 510),
    ).toMatchObject({
      id: a,
      status: 'completed',
      claimsDecided: ['damage'],
      claim: { id: 'c2', status: 'rejected', reason: 'No damage on the photos', refund: 0, decidedAt: 510 },
    });
    expect(await store.orders.decideClaim('c2', { uphold: true, reason: '', times: 4 }, 520)).toBeUndefined();
    expect(await store.orders.decideClaim('nope', { uphold: true, reason: '', times: 4 }, 520)).toBeUndefined();
    expect(await file('c3', a, 'damage', 530)).toEqual({ ok: false, failure: 'decided' });
    expect(await file('c3', a, 'counterfeit', 530)).toMatchObject({ ok: true });
    await store.orders.decideClaim('c3', { uphold: false, reason: 'Genuine' }, 540);
    expect(await store.orders.byId(a)).toMatchObject({ claimsDecided: ['counterfeit', 'damage'] });
    expect(await file('c4', a, 'counterfeit', 550)).toEqual({ ok: false, failure: 'decided' });

    // Category changes keep their other fields; the store reads the flag back.
    expect(await store.products.updateCategory('c1', { fresh: false })).toBe('ok');
    expect(await store.products.category('c1')).toMatchObject({ name: 'Tea', fresh: false });
    expect(await store.orders.byId(a)).toMatchObject({ fresh: false });
  });

  it('claims: a pending one holds the settlement; upheld, the order is refunded, the goods stay out, the seller is paid nothing', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);
    const settle = (returnBefore: number, now: number) =>
      store.orders.settleGuarantees({ returnBefore, lateBefore: 0, compensation: 300, now, limit: 10 });
    const a = await completedOrder(store, 'k1', 'tea', 2, 100);
    const teaLeft = await stock(store, 'tea');
    expect((await file('c1', a, 'damage', 130)).ok).toBe(true);
    expect(await settle(10_000, 140)).toEqual([]);
    expect(await store.orders.byId(a)).toMatchObject({ status: 'completed' });
    expect((await store.orders.byId(a))?.settledAt).toBeUndefined();

    const decided = await Promise.all([
      store.orders.decideClaim('c1', { uphold: true, reason: '', times: 4 }, 150),
      store.orders.decideClaim('c1', { uphold: true, reason: '', times: 4 }, 150),
    ]);
    expect(decided.filter((r) => r !== undefined)).toMatchObject([
      {
        id: a,
        status: 'refunded',
        closedAt: 150,
        settledAt: 150,
        claimsDecided: ['damage'],
        claim: { id: 'c1', status: 'upheld', reason: '', refund: 2_500, compensation: 0, decidedAt: 150 },
      },
    ]);
    expect(await balance(store, 'm3')).toBe(50_000);
    expect(await linesOf(store, 'm3', a)).toEqual([['refund', 2_500]]);
    expect(await balance(store, 'm1')).toBe(0);
    expect(await linesOf(store, 'm1', a)).toEqual([]);
    expect(await stock(store, 'tea')).toBe(teaLeft);
    expect(await settle(10_000, 160)).toEqual([]);
    expect(await file('c2', a, 'counterfeit', 170)).toEqual({ ok: false, failure: 'state' });

    // Rejected: the settlement it held comes with time.
    const b = await completedOrder(store, 'k2', 'pot', 1, 200);
    expect((await file('c3', b, 'damage', 230)).ok).toBe(true);
    expect(await settle(10_000, 240)).toEqual([]);
    await store.orders.decideClaim('c3', { uphold: false, reason: 'Intact' }, 250);
    expect(await settle(10_000, 260)).toMatchObject([{ id: b, status: 'completed', settledAt: 260 }]);
    expect(await balance(store, 'm2')).toBe(10_000);
  });

  it('claims: an upheld counterfeit pays the buyer four times on top, charged to the seller, before or after the settlement', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);
    const uphold = (id: string, now: number) =>
      store.orders.decideClaim(id, { uphold: true, reason: 'Fake label', times: 4 }, now);

    // Not settled yet, compensated for its late delivery: the seller is paid nothing, charged the late delivery and
    // the compensation.
    const placed = await place(store, [{ productId: 'tea', quantity: 1 }], { code: 'k1', now: 100 });
    const a = placed.ok ? (placed.value[0]?.id ?? '') : '';
    await store.orders.pay('m3', 'k1', 100);
    await store.orders.ship('m1', a, LOGISTICS, 500, { paidBefore: 101, amount: 300 });
    expect((await file('c1', a, 'counterfeit', 510)).ok).toBe(true);
    expect(await uphold('c1', 520)).toMatchObject({
      status: 'refunded',
      settledAt: 520,
      claim: { status: 'upheld', reason: 'Fake label', refund: 1_250, compensation: 5_000 },
    });
    expect(await linesOf(store, 'm3', a)).toEqual(
      [
        ['claim_compensation', 5_000],
        ['compensation', 300],
        ['refund', 1_250],
      ].sort(),
    );
    expect(await linesOf(store, 'm1', a)).toEqual(
      [
        ['claim_charge', -5_000],
        ['late_charge', -300],
      ].sort(),
    );
    expect(await balance(store, 'm1')).toBe(-5_300);
    expect(await store.withdrawals.income('m1')).toEqual({ balance: -5_300, withdrawable: 0 });

    // Settled already: the seller gives back what they were paid, and the compensation.
    const b = await completedOrder(store, 'k2', 'pot', 1, 600);
    await store.orders.settleGuarantees({
      returnBefore: 10_000,
      lateBefore: 0,
      compensation: 300,
      now: 700,
      limit: 10,
    });
    expect(await balance(store, 'm2')).toBe(10_000);
    expect((await file('c2', b, 'counterfeit', 800)).ok).toBe(true);
    expect(await uphold('c2', 810)).toMatchObject({
      status: 'refunded',
      closedAt: 810,
      settledAt: 700,
      claim: { refund: 10_000, compensation: 40_000 },
    });
    expect(await linesOf(store, 'm2', b)).toEqual(
      [
        ['claim_charge', -10_000],
        ['claim_charge', -40_000],
        ['sale', 10_000],
      ].sort(),
    );
    expect(await linesOf(store, 'm3', b)).toEqual(
      [
        ['claim_compensation', 40_000],
        ['refund', 10_000],
      ].sort(),
    );
    expect(await store.withdrawals.income('m2')).toEqual({ balance: -40_000, withdrawable: 0 });
    expect(await balance(store, 'm3')).toBe(50_000 - 1_250 + 300 + 1_250 + 5_000 - 10_000 + 10_000 + 40_000);
  });

  it('claims: the operator’s queue by state, oldest first, a page after another', async () => {
    const { store } = await fresh();
    await market(store, 50_000);
    const file = claimOn(store);
    const a = await shippedOrder(store, 'k1', 'tea', 1, 100);
    const b = await shippedOrder(store, 'k2', 'pot', 1, 100);
    const c = await shippedOrder(store, 'k3', 'cup', 1, 100);
    await file('q1', a, 'damage', 200);
    await file('q2', b, 'counterfeit', 210);
    await file('q3', c, 'damage', 210);
    await store.orders.decideClaim('q2', { uphold: false, reason: 'Genuine' }, 220);
    await file('q4', b, 'damage', 230);

    const pending = await store.orders.claims({ status: 'pending', limit: 2 });
    expect(pending?.map((claim) => claim.id)).toEqual(['q1', 'q3']);
    expect(pending?.[0]).toMatchObject({ orderId: a, orderCode: 'k1', shopId: 's-m1', total: 1_250, kind: 'damage' });
    expect((await store.orders.claims({ status: 'pending', after: 'q3', limit: 2 }))?.map((x) => x.id)).toEqual(['q4']);
    expect(await store.orders.claims({ status: 'rejected', limit: 5 })).toMatchObject([
      { id: 'q2', orderId: b, sellerId: 'm2', status: 'rejected', reason: 'Genuine', decidedAt: 220 },
    ]);
    expect(await store.orders.claims({ status: 'pending', after: 'q2', limit: 2 })).toBeUndefined();
    expect(await store.orders.claims({ status: 'pending', after: 'nope', limit: 2 })).toBeUndefined();
    expect(await store.orders.claims({ status: 'upheld', limit: 2 })).toEqual([]);
  });
}
