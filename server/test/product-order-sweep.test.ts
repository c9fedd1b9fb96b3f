import { describe, expect, it, vi } from 'vitest';
import { SERVICE_GUARANTEES } from '../src/shop/guarantees.js';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import { market, type Order, productServer } from './product-support.js';

const SHIPMENT = { company: 'SF', number: 'SF1234' };

describe('orders moved by time alone', () => {
  it('the server’s sweep expires, compensates, completes and pays with no call to prompt it, and tells each', async () => {
    // A session lifetime of a second makes the server's sweep, which settles orders too, run twice a second.
    const p = await productServer({ sessionTtlMs: 1_000 });
    const m = await market(p, { stock: 5, balance: 100 });
    const call = (path: string, body: Record<string, unknown>, token = m.buyer.token) =>
      p.call(path, { token, ...body });
    const order = async (pay: boolean) => {
      const placed = await call('shop/code', { items: [{ id: m.product, num: 1 }], address: m.address });
      if (pay) await call('shop/pay_payment', { code: placed.ret, type: 'balance' });
      return (placed['orders'] as Order[])[0]?.id ?? '';
    };
    const unpaid = await order(false);
    const waiting = await order(true);
    const shipped = await order(true);
    await call('shop/business_send', { id: shipped, ...SHIPMENT }, m.seller.token);
    /** What each side was told of the order, `[order, status]`: the notice list itself settles nothing. */
    const told = async (token: string) =>
      ((await call('member/notify_list', {}, token)).ret as Array<{ kind: string; data: Record<string, unknown> }>)
        .filter((n) => n.kind === 'order')
        .map((n) => [n.data['order'], n.data['status']]);

    const stock = async () => ((await call('shop/view', { id: m.product })).ret as { stock: number }).stock;
    expect(await stock()).toBe(2);

    p.advance(ORDER_LIMITS.receiptMs + 1);
    // No order or wallet call: the sweep cancels the unpaid one (its stock returns), compensates the late one and
    // completes the shipped one.
    await vi.waitFor(
      async () => {
        expect(await told(m.buyer.token)).toEqual(expect.arrayContaining([[waiting, 'compensated']]));
        expect(await told(m.seller.token)).toEqual(expect.arrayContaining([[shipped, 'completed']]));
        expect(await stock()).toBe(3);
      },
      { timeout: 5_000, interval: 100 },
    );

    p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
    // The completed order's return window passed: its seller hears that the proceeds came.
    await vi.waitFor(
      async () => expect(await told(m.seller.token)).toEqual(expect.arrayContaining([[shipped, 'settled']])),
      { timeout: 5_000, interval: 100 },
    );
    expect((await call('shop/order_view', { id: unpaid })).ret).toMatchObject({ status: 'cancelled' });
    expect((await call('shop/order_view', { id: shipped }, m.seller.token)).ret).toMatchObject({
      status: 'completed',
      settled_at: expect.any(Number),
    });
    // Told once each, however many sweeps ran since.
    const seller = await told(m.seller.token);
    expect(seller.filter(([id, status]) => id === shipped && status === 'settled')).toHaveLength(1);
  });
});
