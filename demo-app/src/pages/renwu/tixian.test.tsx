// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import type { PayoutAccounts, Withdrawal } from '../../features/tasks/withdrawals';
import { renderApp, shows, step, uploadHandlers, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Withdraw from './tixian';
import BindPayout from './tixian_band';
import WithdrawalRecords from './tixian_list';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const RULES = { coins_per_yuan: 100, min: 1, max: 200 };
const NONE: PayoutAccounts = { alipay_name: '', alipay_account: '', wechat_code: '' };

/** The fake server's state, and what was sent to it. */
let coins = 0;
let accounts: PayoutAccounts = NONE;
let records: Withdrawal[] = [];
let refusal: { err: string; code: string } | undefined;
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/renwu/tixian_info', () => HttpResponse.json({ ret: { accounts, coins, rules: RULES } })),
  http.post('*/index.php/api/renwu/tixian_band', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'tixian_band', body });
    accounts =
      body['type'] === 'alipay'
        ? { ...accounts, alipay_name: String(body['name']), alipay_account: String(body['account']) }
        : { ...accounts, wechat_code: String(body['img']) };
    return HttpResponse.json({ ret: accounts });
  }),
  http.post('*/index.php/api/renwu/tixian', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'tixian', body });
    if (refusal) return HttpResponse.json(refusal);
    const amount = Number(body['amount']);
    coins -= amount * 100;
    const record: Withdrawal = {
      id: `w${records.length}`,
      amount,
      coins: amount * 100,
      type: body['type'] as Withdrawal['type'],
      account: '138****8000',
      status: 'pending',
      reason: '',
      created_at: Date.now(),
      reviewed_at: null,
    };
    records = [record, ...records];
    return HttpResponse.json({ ret: record, balance: coins });
  }),
  http.post('*/index.php/api/renwu/tixian_list', () => HttpResponse.json({ ret: records })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  coins = 250;
  accounts = NONE;
  records = [];
  refusal = undefined;
  sent.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPages(path = '/renwu/tixian') {
  return renderApp(
    <Routes>
      <Route path="/renwu/tixian" element={<Withdraw />} />
      <Route path="/renwu/tixian_band" element={<BindPayout />} />
      <Route path="/renwu/tixian_list" element={<WithdrawalRecords />} />
      <Route path="/" element={<p>home</p>} />
    </Routes>,
    { path },
  );
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
const withdraw = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Withdraw' })));
const tick = () => step(() => fireEvent.click(screen.getByText('I have read and agree to the')));

describe('renwu/tixian: coin withdrawal', () => {
  it('checks the agreement first, then the amount and the account, before it sends anything', async () => {
    renderPages();
    await shows('Worth 2 yuan');
    expect(screen.getByTestId('coins').textContent).toBe('250');
    expect(screen.getByText('100 coins = 1 yuan; 1 to 200 yuan at a time, whole yuan')).toBeTruthy();
    type('Amount (yuan)', '1.5');
    await withdraw();
    await shows('Please read and agree to the Withdrawal Agreement');
    await tick();
    type('Amount (yuan)', '');
    await withdraw();
    await shows('The amount must be an integer');
    for (const [amount, message] of [
      ['1.5', 'The amount must be an integer'],
      ['0', 'Withdraw 1 to 200 yuan at a time'],
      ['201', 'Withdraw 1 to 200 yuan at a time'],
      ['3', 'Insufficient gold coins, please recharge'],
      ['2', 'Please bind the withdrawal account first'],
    ] as const) {
      type('Amount (yuan)', amount);
      await withdraw();
      await shows(message);
    }
    expect(screen.getAllByText('Not bound')).toHaveLength(2);
    expect(sent).toEqual([]);
  });

  it('withdraws to the bound Alipay account once the agreement, read in a sheet, is agreed; then lists it', async () => {
    accounts = { ...NONE, alipay_name: '王小明', alipay_account: '13800138000' };
    renderPages();
    await shows('王小明 13800138000');
    // "All" is what the coins are worth, within the bounds.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'All' })));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount (yuan)' }).value).toBe('2');
    await withdraw();
    await shows('Please read and agree to the Withdrawal Agreement');
    // The link opens the agreement and leaves the box as it was.
    await step(() => fireEvent.click(screen.getByText('Withdrawal Agreement')));
    await shows('1. Coins and money');
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
    await tick();
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(true);
    type('Amount (yuan)', '1');
    await withdraw();
    await shows('Under review');
    expect(sent.map((call) => call.path)).toEqual(['tixian']);
    expect(sent[0]?.body).toMatchObject({ amount: 1, type: 'alipay', agree: true, token: USER.token });
    expect(screen.getByText('1 yuan to Alipay 138****8000')).toBeTruthy();
  });

  it("shows the server's refusal in its words", async () => {
    accounts = { ...NONE, wechat_code: `${UPLOAD_URL}/code.png` };
    refusal = { err: 'a withdrawal is under review', code: 'withdraw_pending' };
    renderPages();
    // Only WeChat is bound: it is the one chosen.
    await shows('Receipt code uploaded');
    type('Amount (yuan)', '1');
    await tick();
    await withdraw();
    await shows('A withdrawal is under review');
    expect(sent[0]?.body).toMatchObject({ type: 'wechat' });
  });

  it('binds an Alipay account, checked first', async () => {
    renderPages('/renwu/tixian_band?type=alipay');
    await shows('Real name');
    const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await save();
    await shows('Enter the Alipay real name');
    type('Real name', '王2');
    await save();
    await shows('Enter the Alipay real name');
    type('Real name', ' 王小明 ');
    type('Alipay account', '12345');
    await save();
    await shows('Enter the receiving account: a mobile number or an email address');
    expect(sent).toEqual([]);
    type('Alipay account', 'wang@example.cn ');
    await save();
    await shows('Saved');
    expect(sent.map((call) => call.path)).toEqual(['tixian_band']);
    expect(sent[0]?.body).toMatchObject({ type: 'alipay', name: '王小明', account: 'wang@example.cn' });
  });

  it('binds a WeChat receipt code once it is uploaded', async () => {
    renderPages('/renwu/tixian_band?type=wechat');
    await shows('Upload the receipt code from WeChat Pay > Receive money');
    const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await save();
    await shows('Please upload the WeChat receipt code');
    const xhr = posted();
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'code.png', { type: 'image/png' });
    await step(() => fireEvent.change(screen.getByTestId('payout-picker'), { target: { files: [png] } }));
    const request = await xhr;
    const key = request.form()[1]?.[1] ?? '';
    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    await vi.waitFor(() => expect(screen.queryByTestId('payout-progress')).toBeNull());
    await save();
    await shows('Saved');
    expect(sent.map((call) => call.path)).toEqual(['tixian_band']);
    expect(sent[0]?.body).toMatchObject({ type: 'wechat', img: `${UPLOAD_URL}/${key}` });
  });

  it('lists a rejected withdrawal with its reason', async () => {
    records = [
      {
        id: 'w1',
        amount: 5,
        coins: 500,
        type: 'wechat',
        account: '',
        status: 'rejected',
        reason: 'blurred code',
        created_at: 1_700_000_000_000,
        reviewed_at: 1_700_000_100_000,
      },
    ];
    renderPages('/renwu/tixian_list');
    await shows('Rejected: coins returned');
    expect(screen.getByText('Reason: blurred code')).toBeTruthy();
    expect(screen.getByText('5 yuan to WeChat')).toBeTruthy();
  });
});
