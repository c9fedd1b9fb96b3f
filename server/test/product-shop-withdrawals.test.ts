import { describe, expect, it } from 'vitest';
import { SERVICE_GUARANTEES } from '../src/shop/guarantees.js';
import { ORDER_LIMITS } from '../src/shop/orders.js';
import { market, operator, type Order, type ProductServer, productServer } from './product-support.js';

const ALIPAY = { type: 'alipay', name: '王小明', account: '13700137000' };

const info = async (p: ProductServer, token: string) =>
  (await p.call('shop/business_tixian_info', { token })).ret as Record<string, unknown>;
const withdraw = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('shop/business_tixian', { token, agree: true, type: 'alipay', ...body });
const mine = async (p: ProductServer, token: string) =>
  (await p.call('shop/business_tixian_list', { token })).ret as Array<Record<string, unknown>>;
const queue = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown) =>
  operator(p, 'withdrawals', method, path, body);
const balance = async (p: ProductServer, token: string) =>
  ((await p.call('member/money', { token })).ret as { balance: number }).balance;

/** A seller who sold `num` of a 12.5 yuan product (completed) and recharged `recharge` yuan; bound to Alipay. */
async function seller(p: ProductServer, { num = 2, recharge = 0 } = {}) {
  const { seller, buyer, product, address } = await market(p, { stock: 10, balance: 200 });
  const placed = await p.call('shop/code', { token: buyer.token, items: [{ id: product, num }], address });
  await p.call('shop/pay_payment', { token: buyer.token, code: placed.ret, type: 'balance' });
  const id = (placed['orders'] as Order[])[0]?.id;
  await p.call('shop/business_send', { token: seller.token, id, company: 'SF', number: 'SF1234' });
  p.advance(ORDER_LIMITS.receiptMs + 1);
  // Reading the seller's orders settles the ones whose receipt time passed.
  await p.call('shop/business_order', { token: seller.token, status: 'completed' });
  // The proceeds are withdrawable only once the order's return window passed.
  expect(await info(p, seller.token)).toMatchObject({ balance: 0, withdrawable: 0 });
  p.advance(SERVICE_GUARANTEES.returnWindowMs + 1);
  // The withdrawal page settles what time settled: the window passed, the proceeds are the seller's.
  expect(await info(p, seller.token)).toMatchObject({ balance: 12.5 * num, withdrawable: 12.5 * num });
  if (recharge > 0) {
    const asked = await p.call('member/recharge', {
      token: seller.token,
      money: recharge,
      type: 'alipay',
      agree: true,
    });
    await operator(p, 'recharges', 'POST', `/${(asked.ret as { id: string }).id}/review`, { paid: true });
  }
  await p.call('renwu/tixian_band', { token: seller.token, ...ALIPAY });
  p.advance(1000);
  return { ...seller, buyer };
}

describe('product seller withdrawal: shop/business_tixian', () => {
  it('refuses in spec §5 order, in the spec words; without a shop, the shop is missing', async () => {
    const p = await productServer();
    const alice = await seller(p);
    const refused = async (body: Record<string, unknown>, code: string, err: string, token = alice.token) =>
      expect(await withdraw(p, token, body)).toEqual({ status: 200, err, code });
    const agreement = 'please agree to the withdrawal agreement';
    await refused({ amount: 1, agree: false }, 'withdraw_agreement_required', agreement);
    await refused({ amount: 1.5, agree: 'yes' }, 'withdraw_agreement_required', agreement);
    for (const amount of [1.5, '1', null, Number.NaN]) {
      await refused({ amount }, 'withdraw_amount_invalid', 'the amount must be an integer');
    }
    for (const amount of [0, -1, 50_001]) {
      await refused({ amount }, 'shop_withdraw_amount_range', 'withdraw 1 to 50000 yuan at a time');
    }
    await refused({ amount: 1, type: 'bank' }, 'payout_type_invalid', 'parameter error');
    await refused(
      { amount: 1, type: 'wechat' },
      'withdraw_account_missing',
      'please bind the withdrawal account first',
    );
    await refused({ amount: 26 }, 'income_insufficient', 'not enough income to withdraw');

    const buyer = alice.buyer;
    await refused({ amount: 1 }, 'shop_not_open', 'please open a shop first', buyer.token);
    expect(await p.call('shop/business_tixian_info', { token: buyer.token })).toMatchObject({ code: 'shop_not_open' });
    expect(await p.call('shop/business_tixian_list', { token: buyer.token })).toMatchObject({ code: 'shop_not_open' });
  });

  it('withdraws sales income only, never recharged money, one under review at a time even asked at once', async () => {
    const p = await productServer();
    const alice = await seller(p, { recharge: 100 });
    expect(await info(p, alice.token)).toEqual({
      accounts: { alipay_name: '王小明', alipay_account: '13700137000', wechat_code: '' },
      balance: 125,
      withdrawable: 25,
      rules: { min: 1, max: 50_000 },
    });
    // 100 recharged yuan are in the balance but are not income.
    expect(await withdraw(p, alice.token, { amount: 26 })).toMatchObject({ code: 'income_insufficient' });

    const asked = await Promise.all([1, 2, 3].map(() => withdraw(p, alice.token, { amount: 20 })));
    const ok = asked.filter((a) => a.ret !== undefined);
    expect(ok).toHaveLength(1);
    expect(asked.filter((a) => a['code'] === 'withdraw_pending')).toHaveLength(2);
    const pending = {
      id: (ok[0]?.ret as { id: string }).id,
      amount: 20,
      coins: 0,
      type: 'alipay',
      account: '137****7000',
      status: 'pending',
      reason: '',
      created_at: p.now(),
      reviewed_at: null,
    };
    expect(ok[0]).toEqual({ status: 200, ret: pending, withdrawable: 5 });
    expect(await balance(p, alice.token)).toBe(105);
    expect(await mine(p, alice.token)).toEqual([pending]);
    // Coin withdrawals list their own, and a pending shop withdrawal does not hold a coin one back.
    expect((await p.call('renwu/tixian_list', { token: alice.token })).ret).toEqual([]);
    expect(await p.call('renwu/tixian', { token: alice.token, agree: true, type: 'alipay', amount: 1 })).toMatchObject({
      code: 'coins_insufficient',
    });
    const lines = (await p.call('member/money_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(lines[0]).toMatchObject({ kind: 'withdraw', amount: -20, ref: pending.id });
  });

  it('the operator queue lists the source; a rejection returns the money once, a payment keeps it out', async () => {
    const p = await productServer();
    const alice = await seller(p);
    const first = (await withdraw(p, alice.token, { amount: 25 })).ret as { id: string };
    expect((await queue(p, 'GET', '')).content).toMatchObject([
      { id: first.id, memberId: alice.id, source: 'shop', amount: 25, coins: 0, account: '13700137000' },
    ]);
    p.advance(1000);
    const reviews = await Promise.all(
      [1, 2, 3].map(() => queue(p, 'POST', `/${first.id}/review`, { paid: false, reason: 'wrong name' })),
    );
    expect(reviews.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    expect(await balance(p, alice.token)).toBe(25);
    expect(await info(p, alice.token)).toMatchObject({ withdrawable: 25 });
    expect((await mine(p, alice.token))[0]).toMatchObject({ status: 'rejected', reason: 'wrong name' });
    const lines = (await p.call('member/money_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(lines.slice(0, 2).map((l) => [l['kind'], l['amount']])).toEqual([
      ['withdraw_return', 25],
      ['withdraw', -25],
    ]);

    p.advance(1000);
    const second = (await withdraw(p, alice.token, { amount: 10 })).ret as { id: string };
    expect(await queue(p, 'POST', `/${second.id}/review`, { paid: true })).toMatchObject({ status: 200 });
    expect(await balance(p, alice.token)).toBe(15);
    expect(await info(p, alice.token)).toMatchObject({ withdrawable: 15 });
    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(notices.filter((n) => n['kind'] === 'withdrawal').map((n) => n['data'])).toEqual([
      { amount: 10, status: 'paid', reason: '', source: 'shop' },
      { amount: 25, status: 'rejected', reason: 'wrong name', source: 'shop' },
    ]);
  });
});
