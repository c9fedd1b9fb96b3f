import { describe, expect, it } from 'vitest';
import { operator, type ProductServer, productServer, signIn } from './product-support.js';

const money = async (p: ProductServer, token: string) => (await p.call('member/money', { token })).ret as unknown;
const recharge = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('member/recharge', { token, agree: true, type: 'alipay', ...body });
const mine = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('member/recharge_list', { token, ...(before !== undefined && { before }) })).ret as Array<
    Record<string, unknown>
  >;
const ledger = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('member/money_list', { token, ...(before !== undefined && { before }) })).ret as Array<
    Record<string, unknown>
  >;
const payments = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown, secret?: string) =>
  operator(p, 'recharges', method, path, body, secret);

describe('product wallet: member/money, member/recharge', () => {
  it('checks a recharge in the order of spec §5, and keeps at most three waiting for payment', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    expect(await money(p, alice.token)).toEqual({
      balance: 0,
      unpaid: 0,
      rules: { min: 1, max: 100000, max_unpaid: 3 },
      providers: [],
    });
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await recharge(p, alice.token, body)).toEqual({ status: 200, err, code });
    const agreement = 'please agree to the recharge agreement';
    await refused({ money: 10, agree: false }, 'recharge_agreement_required', agreement);
    await refused({ money: 10, agree: 'yes' }, 'recharge_agreement_required', agreement);
    const whole = 'the amount must be a whole number of yuan';
    for (const bad of [1.5, '10', null, Number.NaN, [10]]) {
      await refused({ money: bad }, 'recharge_amount_invalid', whole);
    }
    const range = 'recharge at least 1 yuan and at most 100000 yuan';
    for (const bad of [0, -5, 100001]) await refused({ money: bad }, 'recharge_amount_range', range);
    await refused({ money: 10, type: 'bank' }, 'recharge_type_invalid', 'parameter error');

    const first = await recharge(p, alice.token, { money: 100000 });
    expect(first).toEqual({
      status: 200,
      ret: {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        amount: 100000,
        type: 'alipay',
        status: 'unpaid',
        reason: '',
        created_at: p.now(),
        closed_at: null,
        // Alipay is not set up on this server: the operator reports the payment (PAY-1).
        payable: false,
        order_code: '',
        pay_url: null,
      },
    });
    expect(await recharge(p, alice.token, { money: 1, type: 'wechat' })).toMatchObject({ ret: { type: 'wechat' } });
    expect(await recharge(p, alice.token, { money: 5 })).toMatchObject({ ret: { amount: 5 } });
    await refused(
      { money: 5 },
      'recharge_pending',
      'too many recharges are waiting for payment: pay or cancel one first',
    );
    expect(await money(p, alice.token)).toMatchObject({ balance: 0, unpaid: 100006 });

    // Cancelling one makes room; what is not theirs, or not unpaid, cannot be cancelled.
    const bob = await signIn(p, '13900139000');
    const id = (first as { ret: { id: string } }).ret.id;
    const gone = 'the recharge does not exist or is no longer waiting for payment';
    expect(await p.call('member/recharge_cancel', { token: bob.token, id })).toMatchObject({
      code: 'recharge_missing',
    });
    p.advance(1000);
    expect(await p.call('member/recharge_cancel', { token: alice.token, id })).toEqual({
      status: 200,
      ret: expect.objectContaining({ id, status: 'cancelled', closed_at: p.now() }),
    });
    expect(await p.call('member/recharge_cancel', { token: alice.token, id })).toEqual({
      status: 200,
      err: gone,
      code: 'recharge_missing',
    });
    for (const bad of [undefined, 7, '', 'x'.repeat(33)]) {
      expect(await p.call('member/recharge_cancel', { token: alice.token, id: bad })).toMatchObject({
        code: 'bad_params',
      });
    }
    expect(await recharge(p, alice.token, { money: 5 })).toMatchObject({ ret: { status: 'unpaid' } });
    expect(await money(p, alice.token)).toMatchObject({ unpaid: 11 });
  });

  it('credits a reported payment once, fails one with a reason, and tells the member', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const first = ((await recharge(p, alice.token, { money: 50 })).ret as { id: string; created_at: number }).id;
    p.advance(1000);
    const second = ((await recharge(p, alice.token, { money: 20, type: 'wechat' })).ret as { id: string }).id;

    const queue = await payments(p, 'GET', '');
    expect(queue).toMatchObject({ status: 200, code: 200 });
    expect(queue.content).toEqual([
      {
        id: first,
        memberId: alice.id,
        amount: 50,
        method: 'alipay',
        status: 'unpaid',
        reason: '',
        reference: '',
        createdAt: p.now() - 1000,
        closedAt: null,
      },
      expect.objectContaining({ id: second, method: 'wechat', amount: 20 }),
    ]);
    expect(await payments(p, 'POST', `/${first}/review`, { paid: false })).toEqual({
      status: 400,
      code: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    expect(await payments(p, 'POST', `/${first}/review`, { paid: 'yes' })).toMatchObject({ status: 400 });
    expect(await payments(p, 'POST', `/${first}/review`, { paid: true, reference: 'x'.repeat(65) })).toMatchObject({
      status: 400,
      content: 'reference must be 1 to 64 characters.',
    });
    p.advance(1000);
    expect(await payments(p, 'POST', `/${first}/review`, { paid: true, reference: ' 2026112722001 ' })).toMatchObject({
      status: 200,
      content: { status: 'success', reference: '2026112722001', closedAt: p.now() },
    });
    // The provider's retry of the same payment lands nowhere: the money is in once.
    expect(await payments(p, 'POST', `/${first}/review`, { paid: true })).toEqual({
      status: 404,
      code: 404,
      content: 'no such recharge waiting for payment',
    });
    const paidAt = p.now();
    // Later, so that the notifications come newest first in a known order.
    p.advance(1000);
    expect(await payments(p, 'POST', `/${second}/review`, { paid: false, reason: 'payment timed out' })).toMatchObject({
      status: 200,
      content: { status: 'failed', reason: 'payment timed out' },
    });
    expect(await money(p, alice.token)).toMatchObject({ balance: 50, unpaid: 0 });
    expect((await mine(p, alice.token)).map((r) => [r['id'], r['status'], r['reason']])).toEqual([
      [second, 'failed', 'payment timed out'],
      [first, 'success', ''],
    ]);
    expect(await ledger(p, alice.token)).toEqual([
      { id: expect.any(String), amount: 50, kind: 'recharge', ref: first, created_at: paidAt },
    ]);
    expect((await payments(p, 'GET', '?status=success')).content).toMatchObject([{ id: first }]);
    expect((await payments(p, 'GET', '?status=failed')).content).toMatchObject([{ id: second }]);
    expect((await payments(p, 'GET', '')).content).toEqual([]);

    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(notices.map((n) => [n['kind'], n['data']])).toEqual([
      ['recharge', { amount: 20, status: 'failed', reason: 'payment timed out' }],
      ['recharge', { amount: 50, status: 'success', reason: '' }],
    ]);
  });

  it('pages both lists, refuses bad pages, missing tokens and wrong secrets; cancelling keeps the books', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const asked = (await recharge(p, alice.token, { money: i + 1 })).ret as { id: string };
      ids.push(asked.id);
      await payments(p, 'POST', `/${asked.id}/review`, { paid: true });
      p.advance(1000);
    }
    expect((await mine(p, alice.token)).map((r) => r['id'])).toEqual([...ids].reverse());
    expect((await mine(p, alice.token, ids[2])).map((r) => r['id'])).toEqual([ids[1], ids[0]]);
    const lines = await ledger(p, alice.token);
    expect(lines.map((line) => line['amount'])).toEqual([3, 2, 1]);
    expect((await ledger(p, alice.token, String(lines[0]?.['id']))).map((line) => line['amount'])).toEqual([2, 1]);
    expect(await money(p, alice.token)).toMatchObject({ balance: 6 });
    for (const path of ['member/recharge_list', 'member/money_list']) {
      for (const before of ['nope', 7]) {
        expect(await p.call(path, { token: alice.token, before })).toMatchObject({ code: 'bad_params' });
      }
    }
    expect((await payments(p, 'GET', `?status=success&after=${ids[0]}`)).content).toMatchObject([
      { id: ids[1] },
      { id: ids[2] },
    ]);
    expect(await payments(p, 'GET', '?status=maybe')).toMatchObject({ status: 400 });
    expect(await payments(p, 'GET', '?after=nope')).toMatchObject({ status: 400 });
    const denied = { status: 401, code: 401, content: 'No permission' };
    expect(await payments(p, 'GET', '', undefined, 'wrong')).toEqual(denied);
    expect(await payments(p, 'POST', `/${ids[0]}/review`, { paid: true }, 'wrong')).toEqual(denied);
    for (const path of [
      'member/money',
      'member/recharge',
      'member/recharge_cancel',
      'member/recharge_list',
      'member/money_list',
    ]) {
      expect(await p.call(path, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }

    const waiting = ((await recharge(p, alice.token, { money: 9 })).ret as { id: string }).id;
    expect(await p.call('member/out', { token: alice.token, reason: 'moving', agree: true })).toMatchObject({
      status: 200,
    });
    expect((await payments(p, 'GET', '?status=success')).content).toHaveLength(3);
    // A payment that arrives after the account is gone is still booked where the operator can see it.
    expect(await payments(p, 'POST', `/${waiting}/review`, { paid: true })).toMatchObject({
      status: 200,
      content: { memberId: alice.id, status: 'success', amount: 9 },
    });
  });
});
