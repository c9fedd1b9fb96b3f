import { describe, expect, it } from 'vitest';
import { SERVICE_GUARANTEES } from '../src/shop/guarantees.js';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import { SECURE_APP } from './helpers.js';
import {
  HOME,
  market,
  operator,
  type Order,
  type ProductServer,
  productServer,
  signIn,
  uploadImage,
} from './product-support.js';

type Market = Awaited<ReturnType<typeof market>>;

const HOUR = 3_600_000;
const SHIPMENT = { company: 'SF', number: 'SF1234' };

/** The market's calls as the buyer (or as `token`), and what the tests read back. */
function shop(p: ProductServer, m: Market) {
  const call = (path: string, body: Record<string, unknown>, token = m.buyer.token) => p.call(path, { token, ...body });
  const balance = async (token: string) => ((await call('member/money', {}, token)).ret as { balance: number }).balance;
  const view = async (id: string, token = m.buyer.token) => (await call('shop/order_view', { id }, token)).ret as Order;
  /** An order of `num` of the market's product, paid; shipped and received unless told. */
  const order = async (num: number, until: 'paid' | 'shipped' | 'completed' = 'completed') => {
    const placed = await call('shop/code', { items: [{ id: m.product, num }], address: m.address });
    await call('shop/pay_payment', { code: placed.ret, type: 'balance' });
    const id = (placed['orders'] as Order[])[0]?.id ?? '';
    if (until !== 'paid') await call('shop/business_send', { id, ...SHIPMENT }, m.seller.token);
    if (until === 'completed') await call('shop/order_confirm', { id });
    return id;
  };
  /** The member's `claim` notices' data, newest first. */
  const told = async (token: string) =>
    ((await call('member/notify_list', {}, token)).ret as Array<{ kind: string; data: Record<string, unknown> }>)
      .filter((n) => n.kind === 'claim')
      .map((n) => n.data);
  /** The member's ledger lines of order `ref` as `[kind, amount]`, sorted. */
  const lines = async (token: string, ref: string) =>
    ((await call('member/money_list', {}, token)).ret as Array<{ kind: string; amount: number; ref: string }>)
      .filter((line) => line.ref === ref)
      .map((line) => [line.kind, line.amount])
      .sort();
  return { call, balance, view, order, told, lines };
}

const decide = (p: ProductServer, id: string, body: unknown, secret?: string) =>
  operator(p, 'claims', 'POST', `/${id}/decide`, body, secret);
const queue = (p: ProductServer, query = '', secret?: string) => operator(p, 'claims', 'GET', query, undefined, secret);

describe('product guarantee claims: shop/claim_add, shop/claim_cancel, the operator’s claims (spec §9)', () => {
  it('files a claim on a shipped order, checked in order; one pending, none with a refund under way; the seller is told; cancelled and filed again', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, view, order, told } = shop(p, m);
    const images = [await uploadImage(p, m.buyer.token)];
    const refused = async (body: Record<string, unknown>, code: string, err: string, token = m.buyer.token) =>
      expect(await call('shop/claim_add', body, token)).toEqual({ status: 200, code, err });

    const paid = await order(1, 'paid');
    const good = { id: paid, kind: 'damage', description: 'The box was crushed', images };
    expect(await view(paid)).toMatchObject({ claim: null, claimable: { damage: false, counterfeit: false } });
    await refused(good, 'order_state', 'the order status has changed, refresh and try again');

    const id = await order(2, 'shipped');
    expect(await view(id)).toMatchObject({
      claim: null,
      claimable: { damage: true, counterfeit: true },
      damage_until: null,
      counterfeit_until: null,
    });
    expect(await view(id, m.seller.token)).toMatchObject({
      claimable: { damage: false, counterfeit: false },
      damage_until: null,
      counterfeit_until: null,
    });
    expect(await p.call('shop/claim_add', { ...good, id })).toMatchObject({ code: 'token_invalid' });
    const missing = 'the order does not exist';
    await refused({ ...good, id: 'nope' }, 'order_missing', missing);
    await refused({ ...good, id: 7 }, 'order_missing', missing);
    await refused({ ...good, id }, 'order_missing', missing, m.seller.token);
    for (const kind of ['broken', '', undefined, 1]) {
      await refused(
        { ...good, id, kind },
        'claim_kind_invalid',
        'please choose what the claim is for: damage or counterfeit',
      );
    }
    for (const description of ['', '   ', 'x'.repeat(101), 7, undefined]) {
      await refused(
        { ...good, id, description },
        'claim_description_invalid',
        'please describe what is wrong with the goods: 1 to 100 characters',
      );
    }
    const others = [await uploadImage(p, m.seller.token)];
    const four = await Promise.all([1, 2, 3, 4].map(() => uploadImage(p, m.buyer.token)));
    for (const bad of [[], undefined, others, four, [images[0], images[0]], 'x']) {
      await refused({ ...good, id, images: bad }, 'claim_images_invalid', 'please upload 1 to 3 photos of the goods');
    }

    const filed = await call('shop/claim_add', { ...good, id, description: ' The box\nwas crushed ' });
    expect(filed.ret).toMatchObject({
      id,
      status: 'shipped',
      claim: {
        kind: 'damage',
        description: 'The box\nwas crushed',
        images,
        status: 'pending',
        reason: null,
        refund: 0,
        compensation: 0,
        created_at: p.now(),
        decided_at: null,
      },
      claimable: { damage: false, counterfeit: false },
      damage_until: null,
      counterfeit_until: null,
    });
    const claim = (filed.ret as { claim: { id: string } }).claim.id;
    expect(await view(id, m.seller.token)).toMatchObject({ claim: { id: claim, status: 'pending' } });
    await refused(
      { ...good, id, kind: 'counterfeit' },
      'claim_open',
      'a claim on this order is waiting for the platform',
    );
    const refund = { id, amount: 25, reason: 'Damaged', description: 'Crushed', imgs: images };
    expect(await call('shop/drawback', refund)).toMatchObject({ code: 'claim_open' });
    expect(await told(m.seller.token)).toEqual([
      { order: id, claim, kind: 'damage', status: 'pending', reason: null, title: 'Green tea' },
    ]);
    expect(await told(m.buyer.token)).toEqual([]);

    // Only its buyer cancels it, once; then a refund may be asked for, which holds claims off until it ends.
    expect(await call('shop/claim_cancel', { id }, m.seller.token)).toMatchObject({ code: 'order_missing' });
    expect(await call('shop/claim_cancel', { id })).toMatchObject({
      ret: { claim: { id: claim, status: 'cancelled' }, claimable: { damage: true, counterfeit: true } },
    });
    expect(await call('shop/claim_cancel', { id })).toEqual({
      status: 200,
      code: 'claim_missing',
      err: 'there is no claim waiting to cancel',
    });
    expect(await call('shop/drawback', refund)).toMatchObject({ ret: { refund: { status: 'pending' } } });
    expect(await view(id)).toMatchObject({ claimable: { damage: false, counterfeit: false } });
    await refused({ ...good, id }, 'refund_open', 'a refund of this order is under way');
    await call('shop/drawback_cancel', { id });
    expect(await call('shop/claim_add', { ...good, id, kind: 'counterfeit' })).toMatchObject({
      ret: { claim: { kind: 'counterfeit', status: 'pending' } },
    });
  });

  it('windows: damage within 72 hours of completion, 24 for a fresh category, counterfeit within 90 days; time waits for a pending claim', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, view, order } = shop(p, m);
    const images = [await uploadImage(p, m.buyer.token)];
    const claim = (id: string, kind: string, token = m.buyer.token) =>
      call('shop/claim_add', { id, kind, description: 'Not as described', images }, token);
    const passed = {
      status: 200,
      code: 'claim_window_passed',
      err: 'the time to claim this guarantee on the order has passed',
    };
    expect(SERVICE_GUARANTEES.damageRefundMs).toBe(72 * HOUR);
    expect(SERVICE_GUARANTEES.damageRefundFreshMs).toBe(24 * HOUR);
    expect(SERVICE_GUARANTEES.counterfeitClaimMs).toBe(90 * 24 * HOUR);

    // Food and fresh items: 24 hours.
    const tea = ((await operator(p, 'product-categories', 'GET', '')).content as Array<{ id: string }>)[0]?.id ?? '';
    await operator(p, 'product-categories', 'PATCH', `/${tea}`, { fresh: true });
    const b = await order(1);
    expect(await view(b)).toMatchObject({
      damage_until: p.now() + SERVICE_GUARANTEES.damageRefundFreshMs,
      counterfeit_until: p.now() + SERVICE_GUARANTEES.counterfeitClaimMs,
    });
    p.advance(SERVICE_GUARANTEES.damageRefundFreshMs);
    expect(await view(b)).toMatchObject({ claimable: { damage: true } });
    p.advance(1);
    expect(await view(b)).toMatchObject({ claimable: { damage: false, counterfeit: true }, damage_until: null });
    expect(await claim(b, 'damage')).toEqual(passed);
    expect(await claim(b, 'counterfeit')).toMatchObject({ ret: { claim: { status: 'pending' } } });
    await operator(p, 'product-categories', 'PATCH', `/${tea}`, { fresh: false });

    // A shipped order with a claim pending does not complete by itself; once rejected, it does.
    const c = await order(1, 'shipped');
    expect(await claim(c, 'damage')).toMatchObject({ ret: { status: 'shipped' } });
    p.advance(ORDER_LIMITS.receiptMs + 1);
    expect(await view(c)).toMatchObject({ status: 'shipped', claim: { status: 'pending' } });
    const claimId = ((await view(c)).claim as { id: string }).id;
    expect(await decide(p, claimId, { decision: 'reject', reason: 'Intact on the photos' })).toMatchObject({
      status: 200,
    });
    expect(await view(c)).toMatchObject({
      status: 'completed',
      claim: { status: 'rejected', reason: 'Intact on the photos' },
      claimable: { damage: false, counterfeit: true },
    });

    // Otherwise 72 hours for damage, 90 days for a counterfeit.
    const a = await order(1);
    const completedAt = p.now();
    expect(await view(a)).toMatchObject({
      claimable: { damage: true, counterfeit: true },
      damage_until: completedAt + SERVICE_GUARANTEES.damageRefundMs,
      counterfeit_until: completedAt + SERVICE_GUARANTEES.counterfeitClaimMs,
    });
    p.advance(SERVICE_GUARANTEES.damageRefundMs);
    expect(await view(a)).toMatchObject({ claimable: { damage: true } });
    p.advance(1);
    expect(await view(a)).toMatchObject({ claimable: { damage: false, counterfeit: true }, damage_until: null });
    expect(await claim(a, 'damage')).toEqual(passed);
    p.advance(SERVICE_GUARANTEES.counterfeitClaimMs - SERVICE_GUARANTEES.damageRefundMs - 1);
    // Signed in again: a sign-in lasts 30 days.
    const buyer = await signIn(p, '13900139000');
    expect(await view(a, buyer.token)).toMatchObject({ claimable: { counterfeit: true } });
    p.advance(1);
    expect(await view(a, buyer.token)).toMatchObject({
      claimable: { damage: false, counterfeit: false },
      counterfeit_until: null,
    });
    expect(await claim(a, 'counterfeit', buyer.token)).toEqual(passed);
  });

  it('upheld: a damage claim refunds the order the seller was not paid for; a counterfeit one pays four times on top, after the settlement too', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, balance, view, order, told, lines } = shop(p, m);
    const images = [await uploadImage(p, m.buyer.token)];
    const claim = async (id: string, kind: string) =>
      ((await call('shop/claim_add', { id, kind, description: 'Broken', images })).ret as { claim: { id: string } })
        .claim.id;

    // Damage, before the settlement: the claim holds it; upheld, the seller is never paid.
    const a = await order(2);
    const damage = await claim(a, 'damage');
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(0);
    expect(await view(a)).toMatchObject({ status: 'completed', settled_at: null });
    const upheld = await decide(p, damage, { decision: 'uphold' });
    expect(upheld).toMatchObject({
      status: 200,
      code: 200,
      content: { id: damage, orderId: a, kind: 'damage', status: 'upheld', reason: '', total: 2_500 },
    });
    expect(await view(a)).toMatchObject({
      status: 'refunded',
      closed_at: p.now(),
      settled_at: p.now(),
      claim: { status: 'upheld', reason: null, refund: 25, compensation: 0, decided_at: p.now() },
      claimable: { damage: false, counterfeit: false },
    });
    expect(await balance(m.buyer.token)).toBe(100);
    expect(await lines(m.buyer.token, a)).toEqual([['refund', 25]]);
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(0);
    // The buyer keeps the goods: they do not go back in stock.
    expect(((await call('shop/view', { id: m.product })).ret as { stock: number }).stock).toBe(3);
    expect(await call('shop/claim_add', { id: a, kind: 'counterfeit', description: 'Fake', images })).toMatchObject({
      code: 'order_state',
    });

    // Counterfeit, after the settlement: the seller gives back what they got, and pays the compensation.
    const b = await order(1);
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(12.5);
    const counterfeit = await claim(b, 'counterfeit');
    expect(await decide(p, counterfeit, { decision: 'uphold', reason: 'Fake label' })).toMatchObject({
      content: { status: 'upheld', reason: 'Fake label' },
    });
    expect(await view(b)).toMatchObject({
      status: 'refunded',
      claim: { status: 'upheld', reason: 'Fake label', refund: 12.5, compensation: 50 },
    });
    expect(await lines(m.buyer.token, b)).toEqual(
      [
        ['claim_compensation', 50],
        ['refund', 12.5],
      ].sort(),
    );
    expect(await lines(m.seller.token, b)).toEqual(
      [
        ['claim_charge', -12.5],
        ['claim_charge', -50],
        ['sale', 12.5],
      ].sort(),
    );
    expect(await balance(m.buyer.token)).toBe(100 - 12.5 + 12.5 + 50);
    expect(await balance(m.seller.token)).toBe(-50);
    expect((await call('shop/business_tixian_info', {}, m.seller.token)).ret).toMatchObject({
      balance: -50,
      withdrawable: 0,
    });

    // Counterfeit, before the settlement: the seller is paid nothing and pays the compensation.
    const c = await order(1);
    expect(await decide(p, await claim(c, 'counterfeit'), { decision: 'uphold' })).toMatchObject({ status: 200 });
    expect(await lines(m.seller.token, c)).toEqual([['claim_charge', -50]]);
    expect(await balance(m.seller.token)).toBe(-100);

    // Both sides hear of each decision.
    const decided = { status: 'upheld', title: 'Green tea' };
    for (const token of [m.buyer.token, m.seller.token]) {
      expect(await told(token)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ ...decided, order: a, claim: damage, kind: 'damage', reason: null }),
          expect.objectContaining({
            ...decided,
            order: b,
            claim: counterfeit,
            kind: 'counterfeit',
            reason: 'Fake label',
          }),
        ]),
      );
    }
  });

  it('rejected: the order goes on and the kind is not claimed again; both sides hear the reason', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, balance, view, order, told } = shop(p, m);
    const images = [await uploadImage(p, m.buyer.token)];
    const a = await order(1);
    const filed = await call('shop/claim_add', { id: a, kind: 'damage', description: 'Dented', images });
    const claim = (filed.ret as { claim: { id: string } }).claim.id;
    p.advance(1);
    expect(await decide(p, claim, { decision: 'reject', reason: ' Intact on the photos ' })).toMatchObject({
      content: { status: 'rejected', reason: 'Intact on the photos', decidedAt: p.now() },
    });
    expect(await view(a)).toMatchObject({
      status: 'completed',
      claim: { status: 'rejected', reason: 'Intact on the photos', refund: 0, decided_at: p.now() },
      claimable: { damage: false, counterfeit: true },
    });
    expect(await call('shop/claim_add', { id: a, kind: 'damage', description: 'Dented', images })).toEqual({
      status: 200,
      code: 'claim_decided',
      err: 'a claim of this kind on this order has been decided',
    });
    const data = {
      order: a,
      claim,
      kind: 'damage',
      status: 'rejected',
      reason: 'Intact on the photos',
      title: 'Green tea',
    };
    expect(await told(m.buyer.token)).toEqual([data]);
    expect((await told(m.seller.token))[0]).toEqual(data);
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(12.5);
    expect(await balance(m.buyer.token)).toBe(87.5);
  });

  it('the operator’s claims: the product app’s secret, by state oldest first, fifty a page; 404 unless pending; 400 for a bad body', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 60, balance: 1_000 });
    const { store } = p.server;
    // Fifty-one claims, filed through the store for speed.
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) {
      const code = `k${i}`;
      const placed = await store.orders.place({
        code,
        buyerId: m.buyer.id,
        address: HOME,
        lines: [{ productId: m.product, quantity: 1 }],
        now: p.now(),
        maxUnpaid: 10,
      });
      const id = placed.ok ? (placed.value[0]?.id ?? '') : '';
      await store.orders.pay(m.buyer.id, code, p.now());
      await store.orders.ship(m.seller.id, id, SHIPMENT, p.now());
      const claimId = `q${String(i).padStart(2, '0')}`;
      const filed = await store.orders.fileClaim({
        id: claimId,
        orderId: id,
        buyerId: m.buyer.id,
        kind: 'damage',
        description: 'Broken',
        images: ['https://x/proof.png'],
        since: 0,
        freshSince: 0,
        now: p.now(),
      });
      expect(filed.ok).toBe(true);
      ids.push(claimId);
      p.advance(1);
    }

    expect(await queue(p, '', 'wrong')).toMatchObject({ status: 401, code: 401 });
    expect(await decide(p, ids[0] ?? '', { decision: 'uphold' }, 'wrong')).toMatchObject({ status: 401 });
    const res = await fetch(`${p.url}/api/v1/apps/${SECURE_APP.appkey}/claims`);
    expect(res.status).toBe(401);

    const first = await queue(p);
    expect(first).toMatchObject({ status: 200, code: 200 });
    const page = first.content as Array<Record<string, unknown>>;
    expect(page.map((c) => c['id'])).toEqual(ids.slice(0, 50));
    expect(page[0]).toEqual({
      id: 'q00',
      orderId: expect.any(String) as string,
      orderCode: 'k0',
      kind: 'damage',
      buyerId: m.buyer.id,
      sellerId: m.seller.id,
      shopId: m.seller.shopId,
      total: 1_250,
      description: 'Broken',
      images: ['https://x/proof.png'],
      status: 'pending',
      reason: '',
      createdAt: expect.any(Number) as number,
      decidedAt: null,
    });
    expect((await queue(p, '?after=q49')).content).toMatchObject([{ id: 'q50' }]);
    expect((await queue(p, '?status=pending&after=q50')).content).toEqual([]);
    expect(await queue(p, '?status=open')).toEqual({
      status: 400,
      code: 400,
      content: 'status must be pending, upheld, rejected or cancelled.',
    });
    expect(await queue(p, '?after=nope')).toEqual({
      status: 400,
      code: 400,
      content: 'after must be a claim id listed.',
    });

    const bad = async (body: unknown, content: string) =>
      expect(await decide(p, 'q00', body)).toEqual({ status: 400, code: 400, content });
    await bad([], 'body must be an object.');
    await bad({}, 'decision must be uphold or reject.');
    await bad({ decision: 'ban' }, 'decision must be uphold or reject.');
    await bad({ decision: 'reject' }, 'reason is required: 1 to 100 characters.');
    await bad({ decision: 'reject', reason: 'x'.repeat(101) }, 'reason is required: 1 to 100 characters.');
    await bad({ decision: 'uphold', reason: 'a\nb' }, 'reason must be 1 to 100 characters.');
    const gone = { status: 404, code: 404, content: 'no such claim in a state to decide on' };
    expect(await decide(p, 'nope', { decision: 'uphold' })).toEqual(gone);
    expect(await decide(p, 'x'.repeat(40), { decision: 'uphold' })).toEqual(gone);

    // Decided once, even asked at once; then it is listed by its new state.
    const both = await Promise.all([
      decide(p, 'q00', { decision: 'reject', reason: 'Intact' }),
      decide(p, 'q00', { decision: 'uphold' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await decide(p, 'q00', { decision: 'uphold' })).toEqual(gone);
    const decided = (both.find((r) => r.status === 200)?.content as { status: string }).status;
    expect((await queue(p, `?status=${decided}`)).content).toMatchObject([
      { id: 'q00', status: decided, decidedAt: p.now() },
    ]);
    expect((await queue(p)).content).toHaveLength(50);
    await p.call('shop/claim_cancel', { token: m.buyer.token, id: (page[1]?.['orderId'] as string) ?? '' });
    expect((await queue(p, '?status=cancelled')).content).toMatchObject([{ id: 'q01', decidedAt: null }]);
    expect(await decide(p, 'q01', { decision: 'uphold' })).toEqual(gone);
  });
});
