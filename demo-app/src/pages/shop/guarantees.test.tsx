// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeRefund } from '../../features/shop/fake-refunds';
import { fakeOrder, fakeProduct, fakeShop } from '../../features/shop/fake-shop';
import { SERVICE_GUARANTEES } from '../../features/shop/guarantees';
import { canApplyForRefund, orderEnded } from '../../features/shop/refunds';
import type { MoneyLine } from '../../features/wallet/api';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MoneyRecords from '../member/money-records';
import HandleRefund from './business-drawback';
import BusinessSend from './business-send';
import MyOrders from './user-order';
import OrderView from './user-order-view';
import ProductView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const DAY = 86_400_000;
const shop = fakeShop();
let lines: MoneyLine[] = [];
const api = setupServer(
  NO_ADS,
  ...shop.handlers,
  http.post('*/index.php/api/member/money_list', () => HttpResponse.json({ ret: lines })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.products = [fakeProduct('p1')];
  lines = [];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string, language: 'en' | 'zh-CN' = 'en') {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/shop/user-order" element={<MyOrders />} />
        <Route path="/shop/user-order-view" element={<OrderView />} />
        <Route path="/shop/business-send" element={<BusinessSend />} />
        <Route path="/shop/business-drawback" element={<HandleRefund />} />
        <Route path="/member/money-records" element={<MoneyRecords />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path, language },
  );
}

/** A completed order of the buyer's, completed a day ago, whose 7-day return window ends at `returnUntil`. */
const completed = (id: string, returnUntil: number | null) =>
  fakeOrder(id, {
    status: 'completed',
    pay_method: 'balance',
    paid_at: 1,
    shipped_at: 2,
    completed_at: Date.now() - DAY,
    return_until: returnUntil,
  });

describe('shop/view: the service guarantees (spec §9)', () => {
  it('shows a row of chips that opens a sheet explaining each', async () => {
    renderPages('/shop/view?id=p1');
    await shows('Ships within 48 h');
    const chips = within(screen.getByTestId('guarantees'));
    for (const chip of [
      '7-day no-reason return',
      'Damage refund within 72 h (24 h for fresh food)',
      'Late delivery: ¥3+ compensation',
      '4× compensation for counterfeits',
    ]) {
      expect(chips.getByText(chip)).toBeTruthy();
    }
    expect(screen.queryByRole('dialog', { name: 'Service guarantees' })).toBeNull();
    await step(() => fireEvent.click(screen.getByTestId('guarantees')));
    const sheet = within(await screen.findByRole('dialog', { name: 'Service guarantees' }));
    expect(sheet.getByText(/within 48 hours of payment/)).toBeTruthy();
    expect(sheet.getByText(/Within 7 days of the order completing/)).toBeTruthy();
    expect(sheet.getByText(/within 72 hours of receipt \(24 hours for food and fresh items\)/)).toBeTruthy();
    expect(sheet.getByText(/at least ¥3 in your balance, once per order/)).toBeTruthy();
    expect(sheet.getByText(/compensated at 4 times what you paid/)).toBeTruthy();
    // The two claimed on an order say how.
    expect(sheet.getByText(/report the damage from the order's page, with photos/)).toBeTruthy();
    expect(sheet.getByText(/from the order's page within 90 days of the order completing/)).toBeTruthy();
  });

  it('speaks Chinese too, with the numbers of the one constants object', async () => {
    renderPages('/shop/view?id=p1', 'zh-CN');
    await shows(`${SERVICE_GUARANTEES.shipWithinHours}小时发货`);
    const chips = within(screen.getByTestId('guarantees'));
    expect(chips.getByText('7天无理由退货')).toBeTruthy();
    expect(chips.getByText('破损72小时包退（生鲜24小时）')).toBeTruthy();
    expect(chips.getByText('延迟发货赔付3元起')).toBeTruthy();
    expect(chips.getByText('假一赔4')).toBeTruthy();
  });
});

describe('orders: no-reason return and late-delivery compensation', () => {
  it('a completed order offers Return for refund within its 7 days, opening the refund form; past them, none', async () => {
    shop.state.orders = [completed('o2', Date.now() + 6 * DAY), completed('o1', Date.now() - 1)];
    renderPages('/shop/user-order');
    await shows('Return for refund');
    expect(screen.getAllByRole('button', { name: 'Return for refund' })).toHaveLength(1);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Return for refund' })));
    expect(screen.getByTestId('where').textContent).toBe('/shop/user-drawback?id=o2');
    // The rule as the server applies it: inside the window a refund can be asked for, after it the order has ended.
    const open = completed('o3', 1_000);
    expect([canApplyForRefund(open, 1_000), orderEnded(open, 1_000)]).toEqual([true, false]);
    expect([canApplyForRefund(open, 1_001), orderEnded(open, 1_001)]).toEqual([false, true]);
    expect(canApplyForRefund({ ...open, refund: fakeRefund() }, 0)).toBe(false);
  });

  it("order details show the buyer's compensation and until when the order can be returned", async () => {
    const until = Date.now() + 6 * DAY;
    shop.state.orders = [{ ...completed('o2', until), compensation: 3, compensated_at: 5 }];
    renderPages('/shop/user-order-view?id=o2');
    await shows('Late-delivery compensation: ¥3.00 credited to your balance');
    const date = new Date(until).toLocaleString('en');
    expect(screen.getByTestId('order-return-until').textContent).toBe(`No-reason return until ${date}`);
  });

  it('the seller sees when a paid order must ship, and the compensation taken from its proceeds', async () => {
    const shipBy = Date.now() + DAY;
    shop.state.orders = [
      fakeOrder('o5', { status: 'paid', pay_method: 'balance', paid_at: 1, ship_by: shipBy }),
      fakeOrder('o6', { status: 'shipped', paid_at: 1, shipped_at: 2, ship_by: 3, compensation: 3 }),
    ];
    renderPages('/shop/business-send?id=o5');
    const date = new Date(shipBy).toLocaleString('en');
    await shows(`Ship by ${date}, or the buyer is compensated ¥3.00`);
    cleanup();
    renderPages('/shop/business-send?id=o6');
    await shows("Late-delivery compensation: ¥3.00 to the buyer, taken from this order's proceeds");
    expect(screen.queryByTestId('order-ship-by')).toBeNull();
  });

  it('the seller agrees to the return of a completed order only with the goods back', async () => {
    shop.state.orders = [
      { ...completed('o2', Date.now() + 6 * DAY), refund: fakeRefund() },
      fakeOrder('o4', { status: 'paid', pay_method: 'balance', paid_at: 1, refund: fakeRefund() }),
    ];
    renderPages('/shop/business-drawback?id=o2');
    await shows('Agree with return');
    expect(screen.queryByRole('button', { name: 'Agree and refund' })).toBeNull();
    cleanup();
    renderPages('/shop/business-drawback?id=o4');
    await shows('Agree with return');
    expect(screen.getByRole('button', { name: 'Agree and refund' })).toBeTruthy();
  });

  it('balance details name the compensation and its charge to the seller', async () => {
    lines = [
      { id: 'l2', amount: -3, kind: 'late_charge', ref: 'o6', created_at: 1_700_000_001_000 },
      { id: 'l1', amount: 3, kind: 'compensation', ref: 'o5', created_at: 1_700_000_000_000 },
    ];
    renderPages('/member/money-records');
    await shows('Late-delivery compensation');
    expect(screen.getByText('+¥3.00')).toBeTruthy();
    expect(screen.getByText('Late-delivery compensation paid')).toBeTruthy();
    expect(screen.getByText('-¥3.00')).toBeTruthy();
    await vi.waitFor(() => expect(screen.getAllByTestId('money-line')).toHaveLength(2));
  });
});
