import { describe, expect, it } from 'vitest';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import { alipayServer } from './alipay-support.js';
import { market, type Order, type ProductServer, productServer } from './product-support.js';

/** A market on a server with Alipay set up: a buyer with no money, a product of 12.5 yuan, and a checkout of two. */
async function checkout() {
  const { p, notify, gateway } = await alipayServer();
  const m = await market(p, { balance: 0 });
  const call = (path: string, body: Record<string, unknown> = {}, token = m.buyer.token) =>
    p.call(path, { token, ...body });
  const placed = await call('shop/code', { items: [{ id: m.product, num: 2 }], address: m.address });
  const code = placed.ret as string;
  const money = async () => ((await call('member/money')).ret as { balance: number }).balance;
  const ledger = async () => (await call('member/money_list')).ret as Array<{ amount: number; kind: string }>;
  const state = async () =>
    (await call('shop/pay_state', { code })) as { ret: Record<string, unknown>; orders: Order[] };
  return { p, m, call, code, notify, gateway, money, ledger, state };
}

const refusal = (code: string, err: string) => ({ status: 200, err, code });

describe('product orders paid by a provider: shop/pay_payment by alipay or wechat, shop/pay_state', () => {
  it('refuses a provider that is not set up, and says which ones are', async () => {
    const p: ProductServer = await productServer();
    const { buyer, product, address } = await market(p, { balance: 0 });
    const code = (await p.call('shop/code', { token: buyer.token, items: [{ id: product, num: 1 }], address })).ret;
    expect((await p.call('member/money', { token: buyer.token })).ret).toMatchObject({ providers: [] });
    const unavailable = refusal('payment_unavailable', 'this payment method is not available; pay by balance');
    for (const type of ['alipay', 'wechat', 'card', undefined]) {
      expect(await p.call('shop/pay_payment', { token: buyer.token, code, type })).toEqual(unavailable);
    }
  });

  it('opens the provider’s page for the orders’ total; once paid, the orders are paid by it and the money spent once', async () => {
    const { p, m, call, code, notify, money, ledger, state } = await checkout();
    expect((await call('member/money')).ret).toMatchObject({ providers: ['alipay'] });
    expect(await call('shop/pay_payment', { code, type: 'wechat' })).toMatchObject({ code: 'payment_unavailable' });

    const started = await call('shop/pay_payment', { code, type: 'alipay' });
    const ret = started.ret as { code: string; type: string; pay_url: string; recharge: string };
    expect(ret).toMatchObject({ code, type: 'alipay' });
    expect((started.orders as Order[]).map((o) => o.status)).toEqual(['unpaid']);
    const params = Object.fromEntries(new URL(ret.pay_url).searchParams);
    expect(params['return_url']).toBe(`${p.url}/h5/#/shop/success?code=${code}`);
    expect(JSON.parse(params['biz_content'] as string)).toMatchObject({
      out_trade_no: ret.recharge,
      total_amount: '25.00',
      subject: '订单支付',
    });
    // Back without paying and asked again: the same payment, not a second one.
    expect(((await call('shop/pay_payment', { code, type: 'alipay' })).ret as typeof ret).recharge).toBe(ret.recharge);
    const recharges = (await call('member/recharge_list')).ret as Array<Record<string, unknown>>;
    expect(recharges).toEqual([expect.objectContaining({ id: ret.recharge, amount: 25, order_code: code })]);
    expect(await state()).toMatchObject({
      ret: { paid: false, recharge: { id: ret.recharge, type: 'alipay', status: 'unpaid', reason: '' } },
      orders: [{ code, status: 'unpaid' }],
    });

    const paid = { out_trade_no: ret.recharge, total_amount: '25.00', trade_status: 'TRADE_SUCCESS' };
    expect(await notify(paid)).toBe('success');
    expect(await notify(paid)).toBe('success');
    expect(await state()).toMatchObject({
      ret: { paid: true, recharge: { status: 'success' } },
      orders: [{ code, status: 'paid', pay_method: 'alipay', total: 25 }],
    });
    expect(await money()).toBe(0);
    // One moment, so in no order of time: the payment in, the orders' payment out.
    expect((await ledger()).map((line) => `${line.kind} ${line.amount}`).sort()).toEqual(['order -25', 'recharge 25']);
    const sellerNotices = (await call('member/notify_list', {}, m.seller.token)).ret as Array<Record<string, unknown>>;
    expect(sellerNotices).toContainEqual(
      expect.objectContaining({ kind: 'order', data: expect.objectContaining({ status: 'paid', total: 25 }) }),
    );
    // Paid: nothing more to pay, by either way.
    expect(await call('shop/pay_payment', { code, type: 'alipay' })).toMatchObject({ code: 'order_state' });
    expect(await call('shop/pay_payment', { code, type: 'balance' })).toMatchObject({ code: 'order_state' });
  });

  it('finds a payment whose notification has not come by asking the provider when the payer is back', async () => {
    const { call, code, gateway, state } = await checkout();
    const { recharge } = (await call('shop/pay_payment', { code, type: 'alipay' })).ret as { recharge: string };
    gateway.trades.set(recharge, {
      out_trade_no: recharge,
      trade_no: '2026120122001404000000000001',
      total_amount: '25.00',
      trade_status: 'TRADE_SUCCESS',
    });
    expect(await state()).toMatchObject({ ret: { paid: true }, orders: [{ status: 'paid', pay_method: 'alipay' }] });
  });

  it('keeps a payment that comes after its orders were cancelled in the buyer’s balance', async () => {
    const { call, code, notify, money, state } = await checkout();
    const { recharge } = (await call('shop/pay_payment', { code, type: 'alipay' })).ret as { recharge: string };
    const [order] = (await state()).orders;
    expect((await call('shop/order_cancel', { id: order?.id })).ret).toMatchObject({ status: 'cancelled' });
    expect(await call('shop/pay_payment', { code, type: 'alipay' })).toMatchObject({ code: 'order_state' });
    expect(await notify({ out_trade_no: recharge, total_amount: '25.00', trade_status: 'TRADE_SUCCESS' })).toBe(
      'success',
    );
    expect(await state()).toMatchObject({ ret: { paid: false, recharge: { status: 'success' } } });
    expect(await money()).toBe(25);
  });

  it('refuses orders past their time to pay, codes not the buyer’s, and bad codes', async () => {
    const { p, m, call, code } = await checkout();
    const missing = refusal('order_missing', 'the order does not exist');
    for (const bad of [undefined, '', 42, 'x'.repeat(40), 'ffffffffffffffff']) {
      expect(await call('shop/pay_payment', { code: bad, type: 'alipay' })).toEqual(missing);
      expect(await call('shop/pay_state', { code: bad })).toEqual(missing);
    }
    expect(await call('shop/pay_payment', { code, type: 'alipay' }, m.seller.token)).toEqual(missing);
    expect(await call('shop/pay_state', { code }, m.seller.token)).toEqual(missing);
    p.advance(ORDER_LIMITS.unpaidMs);
    expect(await call('shop/pay_payment', { code, type: 'alipay' })).toMatchObject({ code: 'order_state' });
  });
});
