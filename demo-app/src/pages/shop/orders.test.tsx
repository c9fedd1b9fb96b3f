// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { paymentNavigation, WALLET_QUERY, type Wallet } from '../../features/wallet/api';
import { fakeOrder, fakeShop } from '../../features/shop/fake-shop';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MyOrders from './user-order';
import OrderView from './user-order-view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.orders = [
    fakeOrder('o4'),
    fakeOrder('o3', {
      status: 'shipped',
      pay_method: 'balance',
      paid_at: 1_700_000_100_000,
      shipped_at: 1_700_000_200_000,
      logistics: { company: 'SF Express', number: 'SF1234567' },
      items: [{ product_id: 'p2', title: 'Blue cup', image: 'https://files.test/p2.png', price: 8, num: 2 }],
      total: 16,
    }),
    fakeOrder('o2', { status: 'completed', pay_method: 'balance', paid_at: 1, completed_at: 3 }),
    fakeOrder('o1', { status: 'cancelled', closed_at: 2 }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/user-order" element={<MyOrders />} />
        <Route path="/shop/user-order-view" element={<OrderView />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const cards = () => screen.getAllByTestId('order');
const card = (text: string) => cards().find((item) => item.textContent.includes(text)) as HTMLElement;
const lists = () => shop.sent.filter((call) => call.path === 'shop/order_list').map((call) => call.body);
const tab = (name: string) => within(screen.getByRole('tablist')).getByText(name);
/** The dialog opened last: one answered stays in the document, faded out, until the test's layers are closed. */
const dialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
/** Waits until the dialog opened last asks `text`. */
const asks = (text: string) => vi.waitFor(() => expect(within(dialog()).getByText(text)).toBeTruthy());
/** Answers the dialog opened last with its button `name`. */
const answer = (name: string) => step(() => fireEvent.click(within(dialog()).getByRole('button', { name })));
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));

describe('shop/user-order: my orders', () => {
  it('lists all orders newest first, then those of the tab tapped', async () => {
    renderPages('/shop/user-order');
    await shows('Blue cup');
    expect(
      cards().map((item) => within(item).getByText(/^(Unpaid|To ship|To receive|Completed|Cancelled)$/).textContent),
    ).toEqual(['Unpaid', 'To receive', 'Completed', 'Cancelled']);
    const shipped = card('Blue cup');
    expect(within(shipped).getByText('Hill Tea House')).toBeTruthy();
    expect(within(shipped).getByText('¥8.00 × 2')).toBeTruthy();
    expect(within(shipped).getByText('Total: ¥16.00')).toBeTruthy();
    expect(lists()[0]).not.toHaveProperty('status');

    await step(() => fireEvent.click(tab('To receive')));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(lists().at(-1)).toMatchObject({ status: 'shipped' });
    expect(where()).toBe('/shop/user-order?status=shipped');
    for (const name of ['All', 'Unpaid', 'To ship', 'Completed', 'Cancelled']) expect(tab(name)).toBeTruthy();
  });

  it('opens the tab its link names, and reads the next page before the last order shown', async () => {
    shop.state.orders = Array.from({ length: 25 }, (_, n) => fakeOrder(`u${25 - n}`));
    renderPages('/shop/user-order?status=unpaid');
    await vi.waitFor(() => expect(cards()).toHaveLength(20));
    expect(lists()[0]).toMatchObject({ status: 'unpaid' });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await vi.waitFor(() => expect(cards()).toHaveLength(25));
    expect(lists()[1]).toMatchObject({ status: 'unpaid', before: 'u6' });
  });

  it('cancels an unpaid order only once the buyer agrees', async () => {
    renderPages('/shop/user-order');
    await shows('Blue cup');
    await step(() => fireEvent.click(within(card('Unpaid')).getByRole('button', { name: 'Cancel order' })));
    await asks('Cancel this order? The products go back on sale.');
    await answer('Keep');
    expect(shop.sent.some((call) => call.path === 'shop/order_cancel')).toBe(false);

    await step(() => fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Cancel order' })));
    await answer('Cancel order');
    await shows('Order cancelled');
    expect(shop.sent.find((call) => call.path === 'shop/order_cancel')?.body).toMatchObject({ id: 'o4' });
    await vi.waitFor(() => expect(within(cards()[0] as HTMLElement).getByText('Cancelled')).toBeTruthy());
    expect(within(cards()[0] as HTMLElement).queryByRole('button')).toBeNull();
    // The buttons act on the order without opening it.
    expect(where()).toBe('/shop/user-order');
  });

  it('confirms receipt of a shipped order once the buyer agrees', async () => {
    renderPages('/shop/user-order');
    await shows('Blue cup');
    await step(() => fireEvent.click(within(card('Blue cup')).getByRole('button', { name: 'Confirm receipt' })));
    await asks('Have you received the goods? Confirming completes the order.');
    await answer('Confirm receipt');
    await shows('Receipt confirmed');
    expect(shop.sent.find((call) => call.path === 'shop/order_confirm')?.body).toMatchObject({ id: 'o3' });
    await vi.waitFor(() => expect(within(card('Blue cup')).getByText('Completed')).toBeTruthy());
  });

  it('pays an unpaid order by balance with its code, or offers a recharge when the balance is short', async () => {
    renderPages('/shop/user-order');
    await shows('Blue cup');
    await step(() => fireEvent.click(within(card('Unpaid')).getByRole('button', { name: 'Pay' })));
    await asks('Insufficient balance');
    expect(shop.state.orders[0]?.status).toBe('unpaid');
    await answer('Cancel');
    expect(where()).toBe('/shop/user-order');

    shop.state.balance = 20;
    await step(() => fireEvent.click(within(card('Unpaid')).getByRole('button', { name: 'Pay' })));
    await shows('Payment successful');
    expect(shop.sent.filter((call) => call.path === 'shop/pay_payment').map((call) => call.body)).toEqual([
      expect.objectContaining({ code: 'code-o4', type: 'balance' }),
      expect.objectContaining({ code: 'code-o4', type: 'balance' }),
    ]);
    await vi.waitFor(() => expect(within(cards()[0] as HTMLElement).getByText('To ship')).toBeTruthy());

    shop.state.orders = [fakeOrder('o9')];
    shop.state.balance = 0;
    cleanup();
    renderPages('/shop/user-order');
    await step(() => undefined);
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Pay' })));
    await asks('Insufficient balance');
    await answer('Recharge');
    expect(where()).toBe('/member/recharge');
  });

  it('with a provider set up, asks how to pay: by balance, or on the provider’s page', async () => {
    shop.state.providers = ['alipay'];
    shop.state.balance = 20;
    const went = vi.spyOn(paymentNavigation, 'go').mockImplementation(() => undefined);
    const { queryClient } = renderPages('/shop/user-order');
    await shows('Blue cup');
    // The providers come with the wallet, read once for every card.
    const providers = () => queryClient.getQueriesData<Wallet>({ queryKey: [WALLET_QUERY] })[0]?.[1]?.providers;
    await vi.waitFor(() => expect(providers()).toEqual(['alipay']));
    await step(() => fireEvent.click(within(card('Unpaid')).getByRole('button', { name: 'Pay' })));
    await shows('Pay with Alipay');
    await step(() => fireEvent.click(screen.getByText('Pay with Alipay')));
    await vi.waitFor(() => expect(went).toHaveBeenCalledWith('https://pay.test/alipay?code=code-o4'));
    expect(shop.state.orders[0]?.status).toBe('unpaid');

    await step(() => fireEvent.click(within(card('Unpaid')).getByRole('button', { name: 'Pay' })));
    await step(() => fireEvent.click(screen.getByText('Pay by balance')));
    await shows('Payment successful');
    expect(shop.sent.filter((call) => call.path === 'shop/pay_payment').map((call) => call.body['type'])).toEqual([
      'alipay',
      'balance',
    ]);
    went.mockRestore();
  });

  it('opens an order when its card is tapped', async () => {
    renderPages('/shop/user-order');
    await shows('Blue cup');
    await step(() => fireEvent.click(within(card('Blue cup')).getByText('Blue cup')));
    expect(where()).toBe('/shop/user-order-view?id=o3');
  });
});

describe('shop/user-order-view: an order', () => {
  it('shows an unpaid order with when it expires, its address and payment, and cancels it', async () => {
    renderPages('/shop/user-order-view?id=o4');
    await shows('o4');
    const expires = new Date(1_700_001_800_000).toLocaleString('en');
    expect(screen.getByText(`Pay by ${expires}, or the order is cancelled by itself`)).toBeTruthy();
    expect(screen.getByTestId('order-status').textContent).toBe('Unpaid');
    expect(screen.getByText('West Lake Road 1', { exact: false })).toBeTruthy();
    expect(screen.getByText('Not paid')).toBeTruthy();
    expect(screen.getByText('To pay')).toBeTruthy();
    expect(screen.queryByText('Logistics')).toBeNull();
    await step(() => fireEvent.click(page().getByRole('button', { name: 'Cancel order' })));
    await answer('Cancel order');
    await vi.waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Cancelled'));
    expect(screen.queryByText(/Pay by/)).toBeNull();
    expect(screen.getByText('Closing time')).toBeTruthy();
  });

  it('shows a shipped order with its logistics and payment, and confirms receipt', async () => {
    renderPages('/shop/user-order-view?id=o3');
    await shows('SF Express');
    expect(screen.getByText('SF1234567')).toBeTruthy();
    expect(screen.getByText('Balance')).toBeTruthy();
    expect(screen.getByText('Paid')).toBeTruthy();
    expect(screen.getByText('Actual payment')).toBeTruthy();
    expect(screen.getByText('¥16.00')).toBeTruthy();
    expect(screen.getByText(new Date(1_700_000_200_000).toLocaleString('en'))).toBeTruthy();
    await step(() => fireEvent.click(page().getByRole('button', { name: 'Confirm receipt' })));
    await answer('Confirm receipt');
    await vi.waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Completed'));
    expect(page().queryByRole('button', { name: 'Confirm receipt' })).toBeNull();
  });

  it('names the provider an order was paid with', async () => {
    shop.state.orders = [fakeOrder('o5', { status: 'paid', pay_method: 'wechat', paid_at: 1 })];
    renderPages('/shop/user-order-view?id=o5');
    await shows('WeChat Pay');
    expect(screen.queryByText('Balance')).toBeNull();
  });

  it('says when the order does not exist', async () => {
    renderPages('/shop/user-order-view?id=nope');
    await shows('The order does not exist');
  });
});
