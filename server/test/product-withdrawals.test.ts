import { describe, expect, it } from 'vitest';
import { maskAccount } from '../src/api/product/withdrawals.js';
import { operator, type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

const DAY = 86_400_000;

const info = async (p: ProductServer, token: string) => (await p.call('renwu/tixian_info', { token })).ret as unknown;
const bind = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('renwu/tixian_band', { token, ...body });
const withdraw = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('renwu/tixian', { token, agree: true, type: 'alipay', ...body });
const mine = async (p: ProductServer, token: string, before?: string) =>
  (await p.call('renwu/tixian_list', { token, ...(before !== undefined && { before }) })).ret as Array<
    Record<string, unknown>
  >;
const reviews = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown, secret?: string) =>
  operator(p, 'withdrawals', method, path, body, secret);

/** Signs the member in on `days` days in a row: 10 coins a day, 50 more on the seventh. */
async function earn(p: ProductServer, token: string, days: number) {
  for (let day = 0; day < days; day += 1) {
    await p.call('renwu/sign', { token });
    p.advance(DAY);
  }
}

const ALIPAY = { type: 'alipay', name: ' 王小明 ', account: '13800138000' };

describe('product coin withdrawal: renwu/tixian', () => {
  it('binds an Alipay account and a WeChat receipt code, each checked, the one kept when the other changes', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    expect(await info(p, alice.token)).toEqual({
      accounts: { alipay_name: '', alipay_account: '', wechat_code: '' },
      coins: 0,
      rules: { coins_per_yuan: 100, min: 1, max: 200 },
    });
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await bind(p, alice.token, body)).toEqual({ status: 200, err, code });
    const noName = 'please enter the Alipay real name';
    await refused({ ...ALIPAY, name: '' }, 'payout_name_invalid', noName);
    await refused({ ...ALIPAY, name: '王' }, 'payout_name_invalid', noName);
    await refused({ ...ALIPAY, name: '王2明' }, 'payout_name_invalid', noName);
    await refused({ ...ALIPAY, name: 3 }, 'payout_name_invalid', noName);
    const noAccount = 'please enter the receiving account';
    await refused({ ...ALIPAY, account: '' }, 'payout_account_invalid', noAccount);
    await refused({ ...ALIPAY, account: '12345' }, 'payout_account_invalid', noAccount);
    await refused({ ...ALIPAY, account: 'not an email@x' }, 'payout_account_invalid', noAccount);
    await refused({ ...ALIPAY, account: `${'a'.repeat(96)}@b.cn` }, 'payout_account_invalid', noAccount);
    await refused({ type: 'bank', account: '1' }, 'payout_type_invalid', 'parameter error');
    await refused({}, 'payout_type_invalid', 'parameter error');
    const noCode = 'please upload the WeChat receipt code';
    await refused({ type: 'wechat' }, 'payout_code_invalid', noCode);
    await refused({ type: 'wechat', img: 'https://elsewhere.example/code.png' }, 'payout_code_invalid', noCode);
    // Another member's upload is not this member's code.
    await refused({ type: 'wechat', img: await uploadImage(p, bob.token) }, 'payout_code_invalid', noCode);

    const alipay = { alipay_name: '王小明', alipay_account: '13800138000', wechat_code: '' };
    expect(await bind(p, alice.token, ALIPAY)).toEqual({ status: 200, ret: alipay });
    const code = await uploadImage(p, alice.token);
    expect(await bind(p, alice.token, { type: 'wechat', img: code })).toEqual({
      status: 200,
      ret: { ...alipay, wechat_code: code },
    });
    expect(await bind(p, alice.token, { ...ALIPAY, account: ' wang@example.cn ' })).toEqual({
      status: 200,
      ret: { ...alipay, alipay_account: 'wang@example.cn', wechat_code: code },
    });
    expect(await info(p, alice.token)).toMatchObject({ accounts: { alipay_account: 'wang@example.cn' } });
    // A refused binding changed nothing.
    expect(await info(p, bob.token)).toMatchObject({ accounts: { alipay_name: '', wechat_code: '' } });
  });

  it('takes whole yuan at 100 coins each from the ledger, one under review at a time, in the spec words', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await earn(p, alice.token, 8);
    // 8 days: 80 coins and the seventh day's 50.
    expect(await info(p, alice.token)).toMatchObject({ coins: 130 });
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await withdraw(p, alice.token, body)).toEqual({ status: 200, err, code });
    await refused(
      { amount: 1, agree: false },
      'withdraw_agreement_required',
      'please agree to the withdrawal agreement',
    );
    await refused(
      { amount: 1, agree: 'yes' },
      'withdraw_agreement_required',
      'please agree to the withdrawal agreement',
    );
    for (const amount of [1.5, '1', null, Number.NaN]) {
      await refused({ amount }, 'withdraw_amount_invalid', 'the amount must be an integer');
    }
    for (const amount of [0, -1, 201]) {
      await refused({ amount }, 'withdraw_amount_range', 'withdraw 1 to 200 yuan at a time');
    }
    await refused({ amount: 1, type: 'bank' }, 'payout_type_invalid', 'parameter error');
    await refused({ amount: 1 }, 'withdraw_account_missing', 'please bind the withdrawal account first');
    await bind(p, alice.token, ALIPAY);
    await refused(
      { amount: 1, type: 'wechat' },
      'withdraw_account_missing',
      'please bind the withdrawal account first',
    );
    await refused({ amount: 2 }, 'coins_insufficient', 'insufficient gold coins, please recharge');

    const asked = await withdraw(p, alice.token, { amount: 1 });
    const pending = {
      id: asked.ret.id as string,
      amount: 1,
      coins: 100,
      type: 'alipay',
      account: '138****8000',
      status: 'pending',
      reason: '',
      created_at: p.now(),
      reviewed_at: null,
    };
    expect(asked).toEqual({ status: 200, ret: pending, balance: 30 });
    expect(await mine(p, alice.token)).toEqual([pending]);
    const ledger = (await p.call('renwu/jinbi_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(ledger[0]).toMatchObject({ kind: 'withdraw', amount: -100 });
    // One under review at a time, even asked at once.
    await earn(p, alice.token, 10);
    const again = await Promise.all([1, 2, 3].map(() => withdraw(p, alice.token, { amount: 1 })));
    expect(again.map((a) => a['code'] as unknown)).toEqual([
      'withdraw_pending',
      'withdraw_pending',
      'withdraw_pending',
    ]);
  });

  it('the operator pays out or rejects with a reason, which returns the coins; the member is notified', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await earn(p, alice.token, 8);
    await bind(p, alice.token, ALIPAY);
    const first = (await withdraw(p, alice.token, { amount: 1 })).ret as { id: string; created_at: number };

    const queue = await reviews(p, 'GET', '');
    expect(queue).toEqual({
      status: 200,
      code: 200,
      content: [
        {
          id: first.id,
          memberId: alice.id,
          source: 'coins',
          amount: 1,
          coins: 100,
          method: 'alipay',
          accountName: '王小明',
          account: '13800138000',
          status: 'pending',
          reason: '',
          createdAt: first.created_at,
          reviewedAt: null,
        },
      ],
    });
    expect(await reviews(p, 'POST', `/${first.id}/review`, { paid: false })).toEqual({
      status: 400,
      code: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    expect(await reviews(p, 'POST', `/${first.id}/review`, { paid: 'yes' })).toMatchObject({ status: 400 });
    p.advance(1000);
    const rejected = await reviews(p, 'POST', `/${first.id}/review`, { paid: false, reason: 'wrong account name' });
    expect(rejected).toMatchObject({
      status: 200,
      content: { status: 'rejected', reason: 'wrong account name', reviewedAt: p.now() },
    });
    expect(await reviews(p, 'POST', `/${first.id}/review`, { paid: true })).toEqual({
      status: 404,
      code: 404,
      content: 'no such withdrawal under review',
    });
    expect(await info(p, alice.token)).toMatchObject({ coins: 130 });
    expect((await mine(p, alice.token))[0]).toMatchObject({ status: 'rejected', reason: 'wrong account name' });

    p.advance(1000);
    const second = (await withdraw(p, alice.token, { amount: 1 })).ret as { id: string };
    expect(await reviews(p, 'POST', `/${second.id}/review`, { paid: true, reason: 'ignored' })).toMatchObject({
      status: 200,
      content: { status: 'paid', reason: '' },
    });
    expect(await info(p, alice.token)).toMatchObject({ coins: 30 });
    expect((await reviews(p, 'GET', '?status=paid')).content).toMatchObject([{ id: second.id }]);
    expect((await reviews(p, 'GET', '?status=rejected')).content).toMatchObject([{ id: first.id }]);
    expect((await reviews(p, 'GET', '')).content).toEqual([]);

    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(notices.map((n) => [n['kind'], n['data']])).toEqual([
      ['withdrawal', { amount: 1, status: 'paid', reason: '' }],
      ['withdrawal', { amount: 1, status: 'rejected', reason: 'wrong account name' }],
    ]);
    const ledger = (await p.call('renwu/jinbi_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(ledger.slice(0, 3).map((line) => [line['kind'], line['amount']])).toEqual([
      ['withdraw', -100],
      ['withdraw_return', 100],
      ['withdraw', -100],
    ]);
  });

  it('pages its list, refuses bad pages, missing tokens and wrong secrets; cancelling keeps the records', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await earn(p, alice.token, 22);
    await bind(p, alice.token, ALIPAY);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const asked = (await withdraw(p, alice.token, { amount: 1 })).ret as { id: string };
      ids.push(asked.id);
      await reviews(p, 'POST', `/${asked.id}/review`, { paid: true });
      p.advance(1000);
    }
    expect((await mine(p, alice.token)).map((w) => w['id'])).toEqual([...ids].reverse());
    expect((await mine(p, alice.token, ids[2])).map((w) => w['id'])).toEqual([ids[1], ids[0]]);
    expect(await p.call('renwu/tixian_list', { token: alice.token, before: 'nope' })).toMatchObject({
      code: 'bad_params',
    });
    expect(await p.call('renwu/tixian_list', { token: alice.token, before: 7 })).toMatchObject({ code: 'bad_params' });
    expect((await reviews(p, 'GET', `?status=paid&after=${ids[0]}`)).content).toMatchObject([
      { id: ids[1] },
      { id: ids[2] },
    ]);
    expect(await reviews(p, 'GET', '?status=maybe')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'GET', '?after=nope')).toMatchObject({ status: 400 });
    const denied = { status: 401, code: 401, content: 'No permission' };
    expect(await reviews(p, 'GET', '', undefined, 'wrong')).toEqual(denied);
    expect(await reviews(p, 'POST', `/${ids[0]}/review`, { paid: true }, 'wrong')).toEqual(denied);
    for (const path of ['renwu/tixian_info', 'renwu/tixian_band', 'renwu/tixian', 'renwu/tixian_list']) {
      expect(await p.call(path, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }

    expect(await p.call('member/out', { token: alice.token, reason: 'moving', agree: true })).toMatchObject({
      status: 200,
    });
    expect((await reviews(p, 'GET', '?status=paid')).content).toHaveLength(3);
  });

  it('masks an account in the member list: a phone keeps 3 and 4 digits, an email its first letter', () => {
    expect(maskAccount('13800138000')).toBe('138****8000');
    expect(maskAccount('wang@example.cn')).toBe('w***@example.cn');
    expect(maskAccount('12345')).toBe('12345');
  });
});
