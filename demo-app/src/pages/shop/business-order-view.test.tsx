// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notice } from '../../features/member/notices';
import { fakeClaim } from '../../features/shop/fake-claims';
import { fakeOrder, fakeShop, openShop } from '../../features/shop/fake-shop';
import type { MoneyLine } from '../../features/wallet/api';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MoneyRecords from '../member/money-records';
import Notifications from '../member/notify';
import BusinessOrders from './business-order';
import SellerOrderView from './business-order-view';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const shop = fakeShop();
let notices: Notice[] = [];
let lines: MoneyLine[] = [];
const api = setupServer(
  NO_ADS,
  ...shop.handlers,
  http.post('*/index.php/api/member/notify_list', () => HttpResponse.json({ ret: notices })),
  http.post('*/index.php/api/member/notify_read', () => HttpResponse.json({ ret: { unread: 0 } })),
  http.post('*/index.php/api/member/money_list', () => HttpResponse.json({ ret: lines })),
);

const shipped = {
  status: 'shipped',
  pay_method: 'balance',
  paid_at: 1_700_000_100_000,
  shipped_at: 1_700_000_200_000,
  logistics: { company: 'SF Express', number: 'SF1234567' },
} as const;

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = openShop();
  shop.state.orders = [
    fakeOrder('o3', { ...shipped, claim: fakeClaim() }),
    fakeOrder('o2', {
      ...shipped,
      status: 'refunded',
      completed_at: 1_700_000_300_000,
      closed_at: 1_700_000_600_000,
      claim: fakeClaim({
        kind: 'counterfeit',
        status: 'upheld',
        reason: 'The seal is forged',
        refund: 12.5,
        compensation: 50,
        decided_at: 1_700_000_500_000,
      }),
    }),
    // An order the member bought from another shop.
    fakeOrder('o1', { ...shipped, shop: { id: 's2', name: 'Blue Cups', icon: '' }, claim: fakeClaim() }),
  ];
  notices = [];
  lines = [];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/business-order" element={<BusinessOrders />} />
        <Route path="/shop/business-order-view" element={<SellerOrderView />} />
        <Route path="/member/notify" element={<Notifications />} />
        <Route path="/member/money-records" element={<MoneyRecords />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const page = () => within(screen.getByTestId('page'));
const status = () => screen.getByTestId('claim-status').textContent;

describe('shop/business-order-view: the seller sees a claim on an order, and cannot act on it', () => {
  it('shows the claim on the order card, and tapping the card opens the order', async () => {
    renderPages('/shop/business-order?status=shipped');
    await vi.waitFor(() => expect(screen.getAllByTestId('order')).toHaveLength(1));
    const card = screen.getAllByTestId('order')[0] as HTMLElement;
    expect(within(card).getByTestId('claim-summary').textContent).toBe('Damage claimAwaiting the platform');
    await step(() => fireEvent.click(within(card).getByText('Product p1')));
    expect(where()).toBe('/shop/business-order-view?id=o3');
    await vi.waitFor(() => expect(status()).toBe('Awaiting the platform'));
    expect(screen.getByTestId('order-status').textContent).toBe('Shipped');
  });

  it('shows a pending claim in full, read-only, and that the proceeds wait for the decision', async () => {
    renderPages('/shop/business-order-view?id=o3');
    await vi.waitFor(() => expect(status()).toBe('Awaiting the platform'));
    expect(page().getByText('Damage claim')).toBeTruthy();
    expect(page().getByText('The teapot arrived cracked.')).toBeTruthy();
    expect(screen.getByAltText('Photo 1').getAttribute('src')).toBe('https://files.test/claim-1.png');
    expect(screen.getByTestId('claim-seller-note').textContent).toBe(
      "The platform decides this claim: the order's proceeds wait until then",
    );
    expect(page().getByText('SF1234567')).toBeTruthy();
    expect(page().queryByRole('button', { name: /claim|report/i })).toBeNull();
    expect(
      within(screen.getByTestId('claim-status').closest('.adm-list') as HTMLElement).queryByRole('button'),
    ).toBeNull();
  });

  it("shows an upheld claim's refund, compensation and the platform's reason", async () => {
    renderPages('/shop/business-order-view?id=o2');
    await vi.waitFor(() => expect(status()).toBe('Upheld'));
    const claim = within(page().getByText('Counterfeit claim').closest('.adm-list') as HTMLElement);
    expect(claim.getByText('The seal is forged')).toBeTruthy();
    const row = (label: string) => claim.getByText(label).closest('.adm-list-item') as HTMLElement;
    expect(within(row('Refunded')).getByText('¥12.50')).toBeTruthy();
    expect(within(row('Compensation')).getByText('¥50.00')).toBeTruthy();
    expect(screen.queryByTestId('claim-seller-note')).toBeNull();
    expect(page().queryByRole('button', { name: /claim|report/i })).toBeNull();
  });
});

describe('member/notify: claim notices', () => {
  const notice = (id: string, data: Notice['data']): Notice => ({
    id,
    kind: 'claim',
    actor: null,
    data: { title: 'Green tea', reason: null, ...data },
    created_at: Date.now(),
    read: true,
  });

  /** Taps the notice saying `text`, and waits until the app has gone somewhere. */
  async function open(text: string): Promise<void> {
    renderPages('/member/notify');
    await shows(text);
    await act(async () => {
      fireEvent.click(screen.getByText(text));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(where()).not.toBe('/member/notify'));
  }

  it('tells the seller of a claim filed and opens their order', async () => {
    notices = [
      notice('n2', { order: 'o3', claim: 'cl1', kind: 'damage', status: 'pending' }),
      notice('n1', { order: 'o4', claim: 'cl2', kind: 'counterfeit', status: 'pending' }),
    ];
    renderPages('/member/notify');
    await shows('The buyer reported damage on “Green tea”: the platform decides, and the proceeds wait');
    expect(
      screen.getByText('The buyer reported “Green tea” as counterfeit: the platform decides, and the proceeds wait'),
    ).toBeTruthy();
    cleanup();
    await open('The buyer reported damage on “Green tea”: the platform decides, and the proceeds wait');
    expect(where()).toBe('/shop/business-order-view?id=o3');
  });

  it("tells of the platform's decision, opening the order on the seller's page or the buyer's", async () => {
    notices = [
      notice('n3', { order: 'o2', claim: 'cl2', kind: 'counterfeit', status: 'upheld' }),
      notice('n2', { order: 'o1', claim: 'cl1', kind: 'damage', status: 'rejected', reason: 'No damage shown' }),
      notice('n1', { order: 'o3', claim: 'cl3', kind: 'damage', status: 'upheld' }),
    ];
    const upheld =
      'The counterfeit claim on “Green tea” was upheld: what was paid went back to the buyer, with 4× compensation';
    renderPages('/member/notify');
    await shows('The damage claim on “Green tea” was upheld: what was paid went back to the buyer');
    cleanup();
    await open(upheld);
    expect(where()).toBe('/shop/business-order-view?id=o2');
    cleanup();
    // The member bought o1 from another shop: it opens as their own order.
    await open('The damage claim on “Green tea” was rejected: No damage shown');
    expect(where()).toBe('/shop/user-order-view?id=o1');
  });

  it('says why a decided claim’s order cannot be opened', async () => {
    notices = [notice('n1', { order: 'o9', claim: 'cl9', kind: 'damage', status: 'rejected', reason: 'Late' })];
    renderPages('/member/notify');
    await shows('The damage claim on “Green tea” was rejected: Late');
    await step(() => fireEvent.click(screen.getByText('The damage claim on “Green tea” was rejected: Late')));
    await shows('The order does not exist');
    expect(where()).toBe('/member/notify');
  });
});

describe('member/money-records: the lines of claims', () => {
  it("names a counterfeit's compensation and what a claim charged its seller", async () => {
    lines = [
      { id: 'l2', amount: -62.5, kind: 'claim_charge', ref: 'o2', created_at: 1_700_000_001_000 },
      { id: 'l1', amount: 50, kind: 'claim_compensation', ref: 'o2', created_at: 1_700_000_000_000 },
    ];
    renderPages('/member/money-records');
    await shows('Counterfeit compensation');
    expect(screen.getByText('+¥50.00')).toBeTruthy();
    expect(screen.getByText('Guarantee claim charged')).toBeTruthy();
    expect(screen.getByText('-¥62.50')).toBeTruthy();
  });
});
