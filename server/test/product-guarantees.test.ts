import { describe, expect, it } from 'vitest';
import { SERVICE_GUARANTEES } from '../src/shop/guarantees.js';
import { market, type Order, type ProductServer, productServer, uploadImage } from './product-support.js';

type Market = Awaited<ReturnType<typeof market>>;

/** Calls as the buyer (or as `token`), and a balance, which settles what time settled first. */
function sides(p: ProductServer, { buyer }: Market) {
  const call = (path: string, body: Record<string, unknown>, token = buyer.token) => p.call(path, { token, ...body });
  const balance = async (token: string) => ((await call('member/money', {}, token)).ret as { balance: number }).balance;
  return { call, balance };
}

/** An order of `num` of the market's product, paid by the buyer; its id. */
async function paidOrder(p: ProductServer, m: Market, num: number) {
  const { call } = sides(p, m);
  const placed = await call('shop/code', { items: [{ id: m.product, num }], address: m.address });
  await call('shop/pay_payment', { code: placed.ret, type: 'balance' });
  return (placed['orders'] as Order[])[0]?.id ?? '';
}

const SHIPMENT = { company: 'SF', number: 'SF1234' };

describe('product service guarantees (spec §9)', () => {
  it('no-reason return: a completed order is returned within 7 days, with return only; the seller is never paid it', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, balance } = sides(p, m);
    const imgs = [await uploadImage(p, m.buyer.token)];
    const complete = async (num: number) => {
      const id = await paidOrder(p, m, num);
      await call('shop/business_send', { id, ...SHIPMENT }, m.seller.token);
      await call('shop/order_confirm', { id });
      return id;
    };
    const id = await complete(2);
    const ask = { id, amount: 25, reason: 'Unwanted', description: 'Changed my mind', imgs };
    p.advance(SERVICE_GUARANTEES.returnWindowMs);
    expect(await call('shop/drawback', ask)).toMatchObject({
      ret: { status: 'completed', refund: { status: 'pending', amount: 25 } },
    });
    // The buyer has the goods: the seller agrees only with their return.
    expect(await call('shop/business_drawback', { id, agree: true }, m.seller.token)).toEqual({
      status: 200,
      code: 'refund_return_required',
      err: 'the buyer has received the goods: agree to the refund with return of goods',
    });
    expect(await call('shop/business_drawback', { id, agree: true, return: true }, m.seller.token)).toMatchObject({
      ret: { refund: { status: 'returning' } },
    });
    await call('shop/drawback_send', { id, company: 'YTO', number: 'YT123456' });
    expect(await call('shop/business_drawback_receive', { id }, m.seller.token)).toMatchObject({
      ret: { status: 'refunded', refund: { status: 'refunded' }, return_until: null },
    });
    expect(await balance(m.buyer.token)).toBe(100);
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(0);

    // Past its 7 days, a completed order has ended; its seller was paid.
    const late = await complete(1);
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await call('shop/drawback', { ...ask, id: late, amount: 12.5 })).toEqual({
      status: 200,
      code: 'refund_ended',
      err: 'the order has ended and refund cannot be applied for',
    });
    expect(await balance(m.seller.token)).toBe(12.5);
  });

  it('late delivery: shipped or still waiting past 48 hours, the buyer gets 3 yuan once, charged to the seller', async () => {
    const p = await productServer();
    const m = await market(p, { stock: 5, balance: 100 });
    const { call, balance } = sides(p, m);
    const waiting = await paidOrder(p, m, 1);
    const paidAt = p.now();
    expect(await call('shop/order_view', { id: waiting })).toMatchObject({
      ret: { ship_by: paidAt + SERVICE_GUARANTEES.shipWithinMs, compensation: 0, compensated_at: null },
    });
    p.advance(SERVICE_GUARANTEES.shipWithinMs);
    expect(await call('shop/order_view', { id: waiting })).toMatchObject({ ret: { compensation: 0 } });
    p.advance(1);
    // Still waiting: the buyer is compensated, and both sides see it.
    expect(await call('shop/order_view', { id: waiting })).toMatchObject({
      ret: { status: 'paid', compensation: 3, compensated_at: p.now() },
    });
    expect(await call('shop/order_view', { id: waiting }, m.seller.token)).toMatchObject({ ret: { compensation: 3 } });
    expect(await balance(m.buyer.token)).toBe(100 - 12.5 + 3);
    const told = async (token: string) =>
      ((await call('member/notify_list', {}, token)).ret as Array<{ kind: string; data: Record<string, unknown> }>)
        .filter((n) => n.kind === 'order' && (n.data['status'] === 'compensated' || n.data['status'] === 'settled'))
        .map((n) => n.data);
    expect(await told(m.buyer.token)).toEqual([
      expect.objectContaining({ order: waiting, status: 'compensated', total: 3 }),
    ]);
    // Shipped afterwards: not twice.
    expect(await call('shop/business_send', { id: waiting, ...SHIPMENT }, m.seller.token)).toMatchObject({
      ret: { status: 'shipped', compensation: 3 },
    });
    expect(await balance(m.buyer.token)).toBe(100 - 12.5 + 3);
    const lines = (await call('member/money_list', {})).ret as Array<Record<string, unknown>>;
    expect(lines.filter((l) => l['kind'] === 'compensation')).toMatchObject([{ amount: 3, ref: waiting }]);

    // Shipped in time: nothing.
    const onTime = await paidOrder(p, m, 1);
    p.advance(SERVICE_GUARANTEES.shipWithinMs);
    expect(await call('shop/business_send', { id: onTime, ...SHIPMENT }, m.seller.token)).toMatchObject({
      ret: { compensation: 0 },
    });

    // The seller pays it out of the order's proceeds when they come.
    for (const id of [waiting, onTime]) await call('shop/order_confirm', { id });
    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    expect(await balance(m.seller.token)).toBe(12.5 * 2 - 3);
    // Each proceeds' arrival is told to the seller, once; the buyer was told of the compensation once.
    expect(await told(m.seller.token)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ order: waiting, status: 'settled', total: 9.5 }),
        expect.objectContaining({ order: onTime, status: 'settled', total: 12.5 }),
      ]),
    );
    expect(await told(m.seller.token)).toHaveLength(2);
    expect(await told(m.buyer.token)).toHaveLength(1);
    const sold = (await call('member/money_list', {}, m.seller.token)).ret as Array<Record<string, unknown>>;
    expect(sold.filter((l) => l['ref'] === waiting).map((l) => [l['kind'], l['amount']])).toEqual(
      expect.arrayContaining([
        ['sale', 12.5],
        ['late_charge', -3],
      ]),
    );
  });
});
