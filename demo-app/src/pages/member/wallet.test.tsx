// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MoneyLine, Recharge } from '../../features/wallet/api';
import { goToPayment, paymentNavigation, rechargeProblem, yuan } from '../../features/wallet/api';
import { renderApp, shows, step, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Money from './money';
import MoneyRecords from './money-records';
import RechargePage from './recharge';
import RechargeRecords from './recharge-records';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const RULES = { min: 1, max: 100000, max_unpaid: 3 };

/** The fake server's state, and what was sent to it. */
let balance = 0;
let recharges: Recharge[] = [];
let lines: MoneyLine[] = [];
let refusal: { err: string; code: string } | undefined;
/** What the server answers as a new recharge's `pay_url` (Alipay set up), or undefined (not). */
let payUrl: string | undefined;
/** How the server finds a recharge asked to be cancelled: waiting (cancelled), or paid meanwhile (PAY-7). */
let onCancel: 'cancelled' | 'success' = 'cancelled';
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const unpaid = () => recharges.filter((r) => r.status === 'unpaid').reduce((sum, r) => sum + r.amount, 0);
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/money', () =>
    HttpResponse.json({ ret: { balance, unpaid: unpaid(), rules: RULES } }),
  ),
  http.post('*/index.php/api/member/recharge', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'recharge', body });
    if (refusal) return HttpResponse.json(refusal);
    const record: Recharge = {
      id: `r${recharges.length}`,
      amount: Number(body['money']),
      type: body['type'] as Recharge['type'],
      status: 'unpaid',
      reason: '',
      created_at: Date.now(),
      closed_at: null,
      payable: payUrl !== undefined,
      order_code: '',
    };
    recharges = [record, ...recharges];
    return HttpResponse.json({ ret: { ...record, pay_url: payUrl ?? null } });
  }),
  http.post('*/index.php/api/member/recharge_pay', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'recharge_pay', body });
    if (payUrl === undefined) {
      return HttpResponse.json({ err: 'the payment page cannot be opened now', code: 'pay_page_unavailable' });
    }
    return HttpResponse.json({ ret: { pay_url: `${payUrl}&again=1` } });
  }),
  http.post('*/index.php/api/member/recharge_cancel', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'recharge_cancel', body });
    recharges = recharges.map((r) => (r.id === body['id'] ? { ...r, status: onCancel, closed_at: Date.now() } : r));
    return HttpResponse.json({ ret: recharges.find((r) => r.id === body['id']) });
  }),
  http.post('*/index.php/api/member/recharge_list', () => HttpResponse.json({ ret: recharges })),
  http.post('*/index.php/api/member/money_list', () => HttpResponse.json({ ret: lines })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  balance = 0;
  onCancel = 'cancelled';
  recharges = [];
  lines = [];
  refusal = undefined;
  payUrl = undefined;
  sent.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/member/money" element={<Money />} />
      <Route path="/member/recharge" element={<RechargePage />} />
      <Route path="/member/money-records" element={<MoneyRecords />} />
      <Route path="/member/recharge-records" element={<RechargeRecords />} />
    </Routes>,
    { path },
  );
}

const type = (value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Amount (yuan)' }), { target: { value } });
const submit = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Recharge' })));
const tick = () => step(() => fireEvent.click(screen.getByText('I have read and agree to the')));

describe('member/money: the wallet', () => {
  it('shows the balance and what waits for payment, and leads to recharge and both records', async () => {
    balance = 1234.5;
    recharges = [
      {
        id: 'r1',
        amount: 50,
        type: 'alipay',
        status: 'unpaid',
        reason: '',
        created_at: 1,
        closed_at: null,
        payable: false,
        order_code: '',
      },
    ];
    renderPages('/member/money');
    await shows('¥1234.50');
    expect(screen.getByText('¥50.00 waiting for payment')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('Balance details')));
    await shows('No money in or out yet');
  });

  it('checks the amount and the agreement before it sends anything, in the order of spec §5', async () => {
    renderPages('/member/recharge');
    await shows('Whole yuan, 1 to 100000');
    await submit();
    await shows('The amount must be a whole number of yuan');
    for (const [amount, message] of [
      ['1.5', 'The amount must be a whole number of yuan'],
      ['ten', 'The amount must be a whole number of yuan'],
      ['0', 'Recharge at least 1 yuan and at most 100000 yuan'],
      ['100001', 'Recharge at least 1 yuan and at most 100000 yuan'],
      ['100000', 'Please read and agree to the Recharge Agreement'],
    ] as const) {
      type(amount);
      await submit();
      await shows(message);
    }
    expect(sent).toEqual([]);
  });

  it('recharges a tapped amount by WeChat Pay once the agreement, read in a sheet, is agreed; then lists it', async () => {
    renderPages('/member/recharge');
    await shows('Whole yuan, 1 to 100000');
    await step(() => fireEvent.click(screen.getByRole('button', { name: '50 yuan' })));
    expect(screen.getByRole('button', { name: '50 yuan' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount (yuan)' }).value).toBe('50');
    await step(() => fireEvent.click(screen.getByText('WeChat Pay')));
    // The link opens the agreement and leaves the box as it was.
    await step(() => fireEvent.click(screen.getByText('Recharge Agreement')));
    await shows('1. Your balance');
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
    await tick();
    await submit();
    await shows('Waiting for payment');
    expect(sent.map((call) => call.path)).toEqual(['recharge']);
    expect(sent[0]?.body).toMatchObject({ money: 50, type: 'wechat', agree: true, token: USER.token });
    expect(screen.getByText('¥50.00 by WeChat Pay')).toBeTruthy();
  });

  it("shows the server's refusal in its words", async () => {
    refusal = { err: 'too many recharges are waiting for payment', code: 'recharge_pending' };
    renderPages('/member/recharge');
    await shows('Whole yuan, 1 to 100000');
    type('20');
    await tick();
    await submit();
    await shows('Too many recharges are waiting for payment: pay or cancel one first');
    expect(sent[0]?.body).toMatchObject({ money: 20, type: 'alipay' });
  });

  it('lists recharges with where each stands, and cancels one waiting for payment after asking', async () => {
    recharges = [
      {
        id: 'r2',
        amount: 10,
        type: 'alipay',
        status: 'unpaid',
        reason: '',
        created_at: 2,
        closed_at: null,
        payable: false,
        order_code: '',
      },
      {
        id: 'r1',
        amount: 5,
        type: 'wechat',
        status: 'failed',
        reason: 'payment timed out',
        created_at: 1,
        closed_at: 3,
        payable: false,
        order_code: 'k42',
      },
      {
        id: 'r0',
        amount: 8,
        type: 'alipay',
        status: 'abnormal',
        reason: 'paid 0.01 yuan for a recharge of 8.00',
        created_at: 0,
        closed_at: 4,
        payable: false,
        order_code: '',
      },
    ];
    renderPages('/member/recharge-records');
    await shows('Failed');
    expect(screen.getByText('Reason: payment timed out')).toBeTruthy();
    // A recharge that paid a checkout names it; the others name none.
    expect(screen.getAllByText(/Pays order/).map((line) => line.textContent)).toEqual(['Pays order k42']);
    // PAY-8: a payment the server could not credit by itself, checked by the operator.
    expect(screen.getByText('Abnormal: being checked')).toBeTruthy();
    expect(screen.getByText('Reason: paid 0.01 yuan for a recharge of 8.00')).toBeTruthy();
    expect(within(screen.getAllByTestId('recharge')[2] as HTMLElement).queryByRole('button')).toBeNull();
    const rows = () => screen.getAllByTestId('recharge');
    expect(within(rows()[1] as HTMLElement).queryByRole('button', { name: 'Cancel' })).toBeNull();
    await step(() => fireEvent.click(within(rows()[0] as HTMLElement).getByRole('button', { name: 'Cancel' })));
    await shows('Cancel the recharge of ¥10.00?');
    const dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    await step(() => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel recharge' })));
    await shows('Cancelled');
    expect(sent.map((call) => call.path)).toEqual(['recharge_cancel']);
    expect(sent[0]?.body).toMatchObject({ id: 'r2' });
  });

  it('PAY-7: a recharge paid meanwhile is answered paid when cancelled, and the records say so', async () => {
    onCancel = 'success';
    recharges = [
      {
        id: 'r3',
        amount: 8,
        type: 'wechat',
        status: 'unpaid',
        reason: '',
        created_at: 3,
        closed_at: null,
        payable: true,
        order_code: '',
      },
    ];
    renderPages('/member/recharge-records');
    await shows('Waiting for payment');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    const dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    await step(() => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel recharge' })));
    await shows('This recharge was paid already: the money is in your wallet');
    await shows('Paid');
    expect(screen.queryByText('Recharge cancelled')).toBeNull();
  });

  it('PAY-1: goes to the payment page when the server gives one, and asks for it again from the records', async () => {
    const went = vi.spyOn(paymentNavigation, 'go').mockImplementation(() => undefined);
    payUrl = 'https://openapi.alipay.com/gateway.do?app_id=2021000000000001&sign=abc';
    renderPages('/member/recharge');
    await shows('Whole yuan, 1 to 100000');
    type('30');
    await tick();
    await submit();
    await waitFor(() => expect(went).toHaveBeenCalledWith(payUrl));
    expect(sent[0]?.body).toMatchObject({ money: 30, type: 'alipay' });
    // Still waiting for payment in the records: Pay opens it again, Cancel stays beside it.
    cleanup();
    renderPages('/member/recharge-records');
    await shows('Waiting for payment');
    const row = screen.getByTestId('recharge');
    expect(within(row).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await step(() => fireEvent.click(within(row).getByRole('button', { name: 'Pay' })));
    // A fresh page each time: a provider's page is good for a few minutes only.
    await waitFor(() => expect(went).toHaveBeenLastCalledWith(`${payUrl}&again=1`));
    expect(sent.map((call) => call.path)).toEqual(['recharge', 'recharge_pay']);
    expect(sent[1]?.body).toMatchObject({ id: 'r0', token: USER.token });
    went.mockRestore();
  });

  it('says so when the server gives no payment page, and offers no Pay for a recharge it cannot pay', async () => {
    recharges = [
      {
        id: 'r1',
        amount: 8,
        type: 'wechat',
        status: 'unpaid',
        reason: '',
        created_at: 1,
        closed_at: null,
        payable: true,
        order_code: '',
      },
      {
        id: 'r0',
        amount: 9,
        type: 'alipay',
        status: 'unpaid',
        reason: '',
        created_at: 0,
        closed_at: null,
        payable: false,
        order_code: '',
      },
    ];
    renderPages('/member/recharge-records');
    await shows('¥8.00 by WeChat Pay');
    const rows = screen.getAllByTestId('recharge');
    expect(within(rows[1] as HTMLElement).queryByRole('button', { name: 'Pay' })).toBeNull();
    await step(() => fireEvent.click(within(rows[0] as HTMLElement).getByRole('button', { name: 'Pay' })));
    await shows('The payment page cannot be opened now, please retry');
  });

  it('PAY-1: never leaves the app for a payment address that is not https', () => {
    const went = vi.spyOn(paymentNavigation, 'go').mockImplementation(() => undefined);
    for (const bad of ['javascript:alert(1)', 'http://openapi.alipay.com/gateway.do', 'not a url', '']) {
      expect(goToPayment(bad), bad).toBe(false);
    }
    expect(went).not.toHaveBeenCalled();
    expect(goToPayment('https://openapi.alipay.com/gateway.do?x=1')).toBe(true);
    expect(went).toHaveBeenCalledWith('https://openapi.alipay.com/gateway.do?x=1');
    went.mockRestore();
  });

  it('lists the balance details, money in and out, refunds included', async () => {
    lines = [
      { id: 'l4', amount: 7.5, kind: 'refund', ref: 'r1', created_at: 1_700_000_003_000 },
      { id: 'l3', amount: 25, kind: 'sale', ref: 'o2', created_at: 1_700_000_002_000 },
      { id: 'l2', amount: -12.5, kind: 'order', ref: 'k1', created_at: 1_700_000_001_000 },
      { id: 'l1', amount: 100, kind: 'recharge', ref: 'r1', created_at: 1_700_000_000_000 },
    ];
    renderPages('/member/money-records');
    await shows('+¥100.00');
    expect(screen.getByText('Recharge')).toBeTruthy();
    expect(screen.getByText('-¥12.50')).toBeTruthy();
    expect(screen.getByText('Order payment')).toBeTruthy();
    expect(screen.getByText('+¥25.00')).toBeTruthy();
    expect(screen.getByText('Sale')).toBeTruthy();
    expect(screen.getByText('+¥7.50')).toBeTruthy();
    expect(screen.getByText('Refund')).toBeTruthy();
  });

  it('formats money and checks an amount as the server does', () => {
    expect(yuan(0)).toBe('¥0.00');
    expect(yuan(12.5)).toBe('¥12.50');
    expect(rechargeProblem(' 7 ', RULES)).toBeUndefined();
    expect(rechargeProblem('-1', RULES)).toBe('recharge_amount_invalid');
    expect(rechargeProblem('', RULES)).toBe('recharge_amount_invalid');
    expect(rechargeProblem('100001', RULES)).toBe('recharge_amount_range');
  });
});
