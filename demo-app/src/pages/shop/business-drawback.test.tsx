// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeRefund } from '../../features/shop/fake-refunds';
import { fakeOrder, fakeShop, openShop } from '../../features/shop/fake-shop';
import { refuseReasonValid, type Refund } from '../../features/shop/refunds';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import HandleRefund from './business-drawback';
import BusinessOrders from './business-order';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

const paid = { status: 'paid', pay_method: 'balance', paid_at: 1 } as const;
/** Order o4, paid, with a refund of 12.50 yuan in `status`. */
const withRefund = (extra: Partial<Refund> = {}) => fakeOrder('o4', { ...paid, total: 25, refund: fakeRefund(extra) });

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
    withRefund(),
    fakeOrder('o3', { ...paid, address: { name: 'Han Meimei', phone: '139', region: 'Beijing', detail: 'Road 2' } }),
    fakeOrder('o2', { ...paid, status: 'refunded', closed_at: 5, refund: fakeRefund({ status: 'refunded' }) }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/business-order" element={<BusinessOrders />} />
        <Route path="/shop/business-drawback" element={<HandleRefund />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const cards = () => screen.getAllByTestId('order');
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const tab = (name: string) => within(screen.getByRole('tablist')).getByText(name);
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));
const click = (name: string) => step(() => fireEvent.click(page().getByRole('button', { name })));
/** The dialog opened last: one answered stays in the document, faded out, until the test's layers are closed. */
const dialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
const asks = (text: string) => vi.waitFor(() => expect(within(dialog()).getByText(text)).toBeTruthy());
const answer = (name: string) => step(() => fireEvent.click(within(dialog()).getByRole('button', { name })));
/** Waits for the refund of the page to stand at `status`. */
const refundIs = (status: string) =>
  vi.waitFor(() => expect(screen.getByTestId('refund-status').textContent).toBe(status));

describe('shop/business-order: refunds among the seller’s orders', () => {
  it('lists the refunds under way in their tab, each handled on its page rather than shipped', async () => {
    renderPages('/shop/business-order?status=refunding');
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(calls('shop/business_order')[0]).toMatchObject({ status: 'refunding' });
    expect(tab('Refunds').closest('[role="tab"]')?.getAttribute('aria-selected')).toBe('true');
    for (const name of ['Unpaid', 'Awaiting delivery', 'Shipped', 'Refunded', 'Successful', 'Closed']) {
      expect(tab(name)).toBeTruthy();
    }
    const open = cards()[0] as HTMLElement;
    expect(within(open).getByText('Refund ¥12.50')).toBeTruthy();
    expect(within(open).getByText('Awaiting the seller')).toBeTruthy();
    expect(within(open).queryByRole('button', { name: 'Ship' })).toBeNull();
    await step(() => fireEvent.click(within(open).getByRole('button', { name: 'Handle refund' })));
    expect(where()).toBe('/shop/business-drawback?id=o4');

    cleanup();
    renderPages('/shop/business-order?status=paid');
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
    // A paid order is shipped only when no refund is under way.
    expect(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Handle refund' })).toBeTruthy();
    expect(within(cards()[1] as HTMLElement).getByRole('button', { name: 'Ship' })).toBeTruthy();
  });
});

describe('shop/business-drawback: the seller handles a refund', () => {
  it('shows the order and its refund, and agrees to refund without return once asked', async () => {
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Awaiting the seller');
    for (const text of ['Not as described', 'The leaves are broken.', '¥12.50', '¥25.00', 'Product p1']) {
      expect(page().getByText(text)).toBeTruthy();
    }
    expect(screen.getByAltText('Proof image 1')).toBeTruthy();

    await click('Agree and refund');
    await asks('Refund ¥12.50 to the buyer now? The goods stay with the buyer.');
    await answer('Cancel');
    expect(calls('shop/business_drawback')).toEqual([]);
    await click('Agree and refund');
    await answer('Agree and refund');
    await shows('Money refunded to the buyer');
    expect(calls('shop/business_drawback')).toEqual([
      expect.objectContaining({ id: 'o4', agree: true, return: false, token: USER.token }),
    ]);
    expect(where()).toBe('/shop/business-order?status=refunded');
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
    expect(shop.state.orders[0]).toMatchObject({ status: 'refunded', refund: { status: 'refunded' } });
  });

  it('agrees with return of the goods once asked; then waits for them', async () => {
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Awaiting the seller');
    await click('Agree with return');
    await asks('Agree to refund ¥12.50 once the buyer sends the goods back?');
    await answer('Agree with return');
    await shows('Agreed: waiting for the goods');
    expect(calls('shop/business_drawback')).toEqual([expect.objectContaining({ id: 'o4', agree: true, return: true })]);
    expect(where()).toBe('/shop/business-order?status=refunding');
    await vi.waitFor(() =>
      expect(within(cards()[0] as HTMLElement).getByText('Awaiting return of goods')).toBeTruthy(),
    );

    cleanup();
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Awaiting return of goods');
    expect(page().getByText('Waiting for the buyer to send the goods back')).toBeTruthy();
    expect(page().queryByRole('button', { name: /Agree|Refuse|Goods received/ })).toBeNull();
  });

  it('refuses only with a reason of 1 to 100 characters', async () => {
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Awaiting the seller');
    await click('Refuse');
    await click('Refuse refund');
    await shows('Please give the reason for refusing');
    fireEvent.change(screen.getByLabelText('Why do you refuse?'), { target: { value: 'x'.repeat(101) } });
    expect(screen.getByText('101/100')).toBeTruthy();
    await click('Refuse refund');
    expect(calls('shop/business_drawback')).toEqual([]);
    // Cancelling the form brings the three decisions back.
    await click('Cancel');
    expect(screen.queryByLabelText('Why do you refuse?')).toBeNull();
    await click('Refuse');
    fireEvent.change(screen.getByLabelText('Why do you refuse?'), { target: { value: ' Photos show\nno damage ' } });
    await click('Refuse refund');
    await shows('Refund refused');
    expect(calls('shop/business_drawback')).toEqual([
      expect.objectContaining({ id: 'o4', agree: false, reason: 'Photos show no damage' }),
    ]);
    expect(calls('shop/business_drawback')[0]).not.toHaveProperty('return');
    // Refused, the order goes on where it was: awaiting delivery.
    expect(where()).toBe('/shop/business-order?status=paid');
    expect(shop.state.orders[0]?.refund).toMatchObject({ status: 'refused', refuse_reason: 'Photos show no damage' });
  });

  it('receives the goods sent back once asked, which refunds the buyer', async () => {
    shop.state.orders[0] = withRefund({
      status: 'returned',
      return_logistics: { company: 'YTO Express', number: 'YT-98765' },
    });
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Goods sent back');
    expect(page().getByText('YTO Express')).toBeTruthy();
    expect(page().getByText('YT-98765')).toBeTruthy();
    await click('Goods received: refund');
    await asks('Have you received the goods back? ¥12.50 goes back to the buyer.');
    await answer('Goods received: refund');
    await shows('Money refunded to the buyer');
    expect(calls('shop/business_drawback_receive')).toEqual([expect.objectContaining({ id: 'o4' })]);
    expect(where()).toBe('/shop/business-order?status=refunded');
  });

  it('checks a reason for refusing as the server does: 1 to 100 characters on one line', () => {
    expect(refuseReasonValid(' No damage ')).toBe(true);
    expect(refuseReasonValid('好'.repeat(100))).toBe(true);
    for (const reason of ['', '   ', '好'.repeat(101), 'No\ndamage', 'No\tdamage']) {
      expect(refuseReasonValid(reason)).toBe(false);
    }
  });

  it("shows the server's refusal and reads the refund again; an order without a refund says so", async () => {
    shop.state.refuse['shop/business_drawback'] = {
      err: 'the refund status has changed, refresh and try again',
      code: 'refund_state',
    };
    renderPages('/shop/business-drawback?id=o4');
    await refundIs('Awaiting the seller');
    await click('Agree with return');
    await answer('Agree with return');
    await shows('The refund status has changed, refresh and try again');
    expect(where()).toBe('/shop/business-drawback?id=o4');
    await vi.waitFor(() => expect(calls('shop/order_view')).toHaveLength(2));

    cleanup();
    renderPages('/shop/business-drawback?id=o3');
    await shows('This order has no refund');
  });
});
