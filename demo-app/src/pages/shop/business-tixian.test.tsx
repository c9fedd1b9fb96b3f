// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeShop, openShop } from '../../features/shop/fake-shop';
import { fakeShopWithdrawal } from '../../features/shop/fake-withdrawals';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BusinessIndex from './business-index';
import ShopWithdraw from './business-tixian';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);
const OPEN_SHOP = openShop({ icon: 'https://files.test/icon.png' });
const ALIPAY = { alipay_name: '王小明', alipay_account: '13800138000', wechat_code: '' };

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = OPEN_SHOP;
  shop.state.withdrawals = { ...shop.state.withdrawals, balance: 125, withdrawable: 25.5 };
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '');
});
afterAll(() => api.close());

function renderPages(path = '/shop/business-tixian') {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/business-index" element={<BusinessIndex />} />
        <Route path="/shop/business-tixian" element={<ShopWithdraw />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const type = (value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Amount (yuan)' }), { target: { value } });
const withdraw = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Withdraw' })));
const tick = () => step(() => fireEvent.click(screen.getByText('I have read and agree to the')));

describe('shop/business-tixian: seller withdrawal', () => {
  it('My shop shows the withdrawable income on its Withdraw entry, which opens the page', async () => {
    renderPages('/shop/business-index');
    await shows('25.5 yuan withdrawable');
    await step(() => fireEvent.click(screen.getByText('Withdrawal')));
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-tixian');
  });

  it('checks the agreement, the amount, the account and the income before it sends anything', async () => {
    renderPages();
    await shows('Wallet balance: 125 yuan');
    expect(screen.getByTestId('withdrawable').textContent).toBe('25.5');
    await withdraw();
    await shows('Please read and agree to the Withdrawal Agreement');
    await tick();
    for (const [amount, message] of [
      ['1.5', 'The amount must be an integer'],
      ['0', 'Withdraw 1 to 50000 yuan at a time'],
      ['50001', 'Withdraw 1 to 50000 yuan at a time'],
      ['2', 'Please bind the withdrawal account first'],
    ] as const) {
      type(amount);
      await withdraw();
      await shows(message);
    }
    expect(screen.getAllByText('Not bound')).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: 'Bind' })).toHaveLength(2);
    expect(calls('shop/business_tixian')).toEqual([]);
  });

  it('withdraws whole yuan of the income to the bound account, then lists it under review', async () => {
    shop.state.withdrawals.accounts = ALIPAY;
    renderPages();
    await shows('王小明 13800138000');
    expect(screen.getByRole('button', { name: 'Change' })).toBeTruthy();
    // "All" is the whole yuan of the income.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'All' })));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Amount (yuan)' }).value).toBe('25');
    type('26');
    await tick();
    await withdraw();
    await shows('Not enough income to withdraw');
    expect(calls('shop/business_tixian')).toEqual([]);
    type('20');
    await withdraw();
    await vi.waitFor(() => expect(screen.queryAllByTestId('withdrawal')).toHaveLength(1));
    expect(calls('shop/business_tixian')).toHaveLength(1);
    expect(calls('shop/business_tixian')[0]).toMatchObject({
      token: USER.token,
      amount: 20,
      type: 'alipay',
      agree: true,
    });
    const item = within(screen.getByTestId('withdrawal'));
    expect(item.getByText('20 yuan to Alipay 138****8000')).toBeTruthy();
    expect(item.getByText('Under review')).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByTestId('withdrawable').textContent).toBe('5.5'));
  });

  it("shows the server's refusal in its words, and a rejected withdrawal with its reason", async () => {
    shop.state.withdrawals.accounts = { ...ALIPAY, wechat_code: 'https://files.test/code.png' };
    shop.state.withdrawals.records = [
      fakeShopWithdrawal('sw1', { status: 'rejected', reason: 'wrong name', type: 'wechat', account: '' }),
    ];
    shop.state.refuse['shop/business_tixian'] = { err: 'a withdrawal is under review', code: 'withdraw_pending' };
    renderPages();
    await shows('Rejected: money back in the wallet');
    expect(screen.getByText('Reason: wrong name')).toBeTruthy();
    expect(screen.getByText('10 yuan to WeChat')).toBeTruthy();
    type('1');
    await tick();
    await withdraw();
    await shows('A withdrawal is under review');
  });
});
