// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Address } from '../../features/member/addresses';
import { CART_KEY } from '../../features/shop/cart';
import { fakeOrder, fakeProduct, fakeShop } from '../../features/shop/fake-shop';
import { paymentNavigation } from '../../features/wallet/api';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Payment from './payment';
import PaymentSuccess from './success';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const ADDRESS: Address = {
  id: 'a1',
  name: 'Li Lei',
  phone: '13800138000',
  region: 'Zhejiang Hangzhou',
  detail: 'West Lake Road 1',
  is_default: true,
};
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  localStorage.setItem(CART_KEY, JSON.stringify(['p1', 'p2', 'p3']));
  shop.reset();
  shop.state.shops['s2'] = { id: 's2', name: 'Blue Cups', icon: '' };
  shop.state.products = [
    fakeProduct('p1', { title: 'Green tea' }),
    fakeProduct('p2', { title: 'Blue cup', price: 8, shop_id: 's2' }),
    fakeProduct('p3'),
  ];
  shop.state.addresses = [{ ...ADDRESS, id: 'a0', name: 'Han Meimei', is_default: false }, ADDRESS];
  shop.state.balance = 100;
});
afterEach(() => cleanup());
afterAll(() => api.close());

/** The page a provider's payment page comes back to, for checkout `code`. */
function renderSuccess(code: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/success" element={<PaymentSuccess />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: `/shop/success?${new URLSearchParams({ code }).toString()}` },
  );
}

/** The payment page buying two of p1 and one of p2. */
function renderPayment(items = 'p1:2,p2:1') {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/payment" element={<Payment />} />
        <Route path="/shop/success" element={<PaymentSuccess />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: `/shop/payment?${new URLSearchParams({ items }).toString()}` },
  );
}

const where = () => screen.getByTestId('where').textContent;
const pay = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Pay by balance' })));
const paths = () => shop.sent.filter((call) => call.path !== 'shop/view').map((call) => call.path);
const stored = () => JSON.parse(localStorage.getItem(CART_KEY) ?? '[]') as string[];

describe('shop/payment', () => {
  it('shows the products, the default address, the total and the balance; paid, they leave the cart', async () => {
    renderPayment();
    await shows('Blue cup');
    await shows('Li Lei');
    expect(screen.queryByText('Han Meimei')).toBeNull();
    expect(screen.getByText('¥12.50 × 2')).toBeTruthy();
    expect(screen.getByTestId('payment-total').textContent).toBe('Total: ¥33.00');
    await vi.waitFor(() => expect(screen.getByTestId('balance').textContent).toBe('¥100.00'));

    await pay();
    await shows('Order code: c1');
    expect(where()).toBe('/shop/success?code=c1');
    expect(shop.sent.find((call) => call.path === 'shop/code')?.body).toMatchObject({
      items: [
        { id: 'p1', num: 2 },
        { id: 'p2', num: 1 },
      ],
      address: 'a1',
      token: USER.token,
    });
    expect(shop.sent.find((call) => call.path === 'shop/pay_payment')?.body).toMatchObject({
      code: 'c1',
      type: 'balance',
    });
    expect(paths()).toEqual(['shop/code', 'shop/pay_payment', 'shop/pay_state']);
    expect(stored()).toEqual(['p3']);
    // One order per shop, both paid.
    expect(shop.state.orders.map((order) => [order.shop?.name, order.status, order.total])).toEqual([
      ['Hill Tea House', 'paid', 25],
      ['Blue Cups', 'paid', 8],
    ]);
    expect(shop.state.balance).toBe(67);

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View my orders' })));
    expect(where()).toBe('/shop/user-order');
  });

  it('on insufficient balance keeps the order unpaid in My orders and offers a recharge', async () => {
    shop.state.balance = 5;
    renderPayment();
    await shows('Blue cup');
    await shows('Li Lei');
    await pay();
    await shows('Insufficient balance');
    expect(screen.getByText('The order was placed but not paid: it waits for payment in My orders.')).toBeTruthy();
    expect(where()).toBe(`/shop/payment?items=${encodeURIComponent('p1:2,p2:1')}`);
    expect(stored()).toEqual(['p1', 'p2', 'p3']);
    expect(shop.state.orders.map((order) => order.status)).toEqual(['unpaid', 'unpaid']);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Recharge' })));
    expect(where()).toBe('/member/recharge');
  });

  it('pays the order already placed when asked again, rather than placing another', async () => {
    shop.state.balance = 5;
    renderPayment();
    await shows('Li Lei');
    await shows('Blue cup');
    await pay();
    await shows('Insufficient balance');
    expect(screen.getByRole('button', { name: 'View my orders' })).toBeTruthy();
    shop.state.balance = 50;
    await pay();
    await shows('Order code: c1');
    expect(paths()).toEqual(['shop/code', 'shop/pay_payment', 'shop/pay_payment', 'shop/pay_state']);
    expect(shop.state.orders).toHaveLength(2);
    expect(stored()).toEqual(['p3']);
  });

  it('places new orders when those placed can no longer be paid (cancelled or expired meanwhile)', async () => {
    shop.state.balance = 5;
    renderPayment();
    await shows('Li Lei');
    await shows('Blue cup');
    await pay();
    await shows('Insufficient balance');
    shop.state.refuse['shop/pay_payment'] = {
      err: 'the order status has changed, refresh and try again',
      code: 'order_state',
    };
    await pay();
    await shows('The order status has changed, refresh and try again');
    expect(screen.queryByText(/waits for payment in My orders/)).toBeNull();
    delete shop.state.refuse['shop/pay_payment'];
    shop.state.balance = 100;
    await pay();
    await shows('Order code: c2');
    expect(paths()).toEqual([
      'shop/code',
      'shop/pay_payment',
      'shop/pay_payment',
      'shop/code',
      'shop/pay_payment',
      'shop/pay_state',
    ]);
  });

  it("shows the server's refusal of the order code, else 'get order error', and pays nothing", async () => {
    shop.state.refuse['shop/code'] = { err: 'insufficient stock', code: 'stock_insufficient' };
    renderPayment();
    await shows('Li Lei');
    await shows('Blue cup');
    await pay();
    await shows('Insufficient stock');
    expect(screen.getByRole('button', { name: 'Back to the cart' })).toBeTruthy();
    shop.state.refuse['shop/code'] = { err: 'too many unpaid orders', code: 'order_pending' };
    await pay();
    await shows('Too many unpaid orders: pay or cancel one first');
    expect(screen.getByRole('button', { name: 'View my orders' })).toBeTruthy();
    shop.state.refuse['shop/code'] = { err: '', code: 'something_new' };
    await pay();
    await shows('Get order error');
    expect(paths()).toEqual(['shop/code', 'shop/code', 'shop/code']);
    expect(stored()).toEqual(['p1', 'p2', 'p3']);
    expect(where()).toMatch(/^\/shop\/payment/);
  });

  it('without an address leads to adding one and cannot pay', async () => {
    shop.state.addresses = [];
    renderPayment();
    await shows('No shipping address yet');
    await shows('Blue cup');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Pay by balance' }).disabled).toBe(true);
    await step(() => fireEvent.click(screen.getByText('Add a shipping address')));
    expect(where()).toBe('/member/address-add');
    expect(paths()).toEqual([]);
  });

  it('says what is wrong with a product gone since, or with items it cannot buy', async () => {
    shop.state.products = shop.state.products.filter((product) => product.id !== 'p2');
    renderPayment();
    await shows('The product does not exist, return to the cart');
    await shows('Li Lei');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Pay by balance' }).disabled).toBe(true);
    cleanup();
    renderPayment('p1:0');
    await shows('Please choose 1 to 20 products, 1 to 99 of each');
    expect(screen.queryByRole('button', { name: 'Pay by balance' })).toBeNull();
  });

  it('offers the providers the server has set up; paying by one leaves for its page, the products out of the cart', async () => {
    shop.state.providers = ['alipay'];
    const went = vi.spyOn(paymentNavigation, 'go').mockImplementation(() => undefined);
    renderPayment();
    await shows('Blue cup');
    await shows('Li Lei');
    await shows('Alipay');
    expect(screen.queryByText('WeChat Pay')).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('radio', { name: 'Alipay' })));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Pay with Alipay' })));
    await vi.waitFor(() => expect(went).toHaveBeenCalledWith('https://pay.test/alipay?code=c1'));
    expect(shop.sent.find((call) => call.path === 'shop/pay_payment')?.body).toMatchObject({
      code: 'c1',
      type: 'alipay',
    });
    expect(stored()).toEqual(['p3']);
    // Not paid until the provider says so; the balance untouched.
    expect(shop.state.orders.map((order) => order.status)).toEqual(['unpaid', 'unpaid']);
    expect(shop.state.balance).toBe(100);
    went.mockRestore();
  });

  it('keeps the orders waiting when the provider’s page cannot be opened, and pays them by balance instead', async () => {
    shop.state.providers = ['wechat'];
    const went = vi.spyOn(paymentNavigation, 'go').mockImplementation(() => undefined);
    shop.state.refuse['shop/pay_payment'] = {
      err: 'the payment page cannot be opened now',
      code: 'pay_page_unavailable',
    };
    renderPayment();
    await shows('Li Lei');
    await shows('WeChat Pay');
    await step(() => fireEvent.click(screen.getByRole('radio', { name: 'WeChat Pay' })));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Pay with WeChat Pay' })));
    await shows('The payment page cannot be opened now, please retry');
    expect(screen.getByText('The order was placed but not paid: it waits for payment in My orders.')).toBeTruthy();
    expect(went).not.toHaveBeenCalled();
    delete shop.state.refuse['shop/pay_payment'];
    await step(() => fireEvent.click(screen.getByRole('radio', { name: 'Wallet balance' })));
    await pay();
    await shows('Order code: c1');
    expect(shop.state.orders.map((order) => order.status)).toEqual(['paid', 'paid']);
    went.mockRestore();
  });
});

describe('shop/success', () => {
  it('back from a provider’s page: waits for the payment’s confirmation, asks again, and shows it paid', async () => {
    shop.state.orders = [fakeOrder('o1', { code: 'k1' })];
    shop.state.providerPayments['k1'] = { id: 'r1', type: 'alipay', status: 'unpaid', reason: '' };
    renderSuccess('k1');
    await shows('Waiting for the payment to be confirmed');
    expect(screen.getByText('Order code: k1')).toBeTruthy();
    shop.state.orders = [fakeOrder('o1', { code: 'k1', status: 'paid', pay_method: 'alipay', paid_at: 2 })];
    shop.state.providerPayments['k1'] = { id: 'r1', type: 'alipay', status: 'success', reason: '' };
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Check again' })));
    await shows('Payment successful');
    expect(screen.queryByRole('button', { name: 'Check again' })).toBeNull();
    expect(paths()).toEqual(['shop/pay_state', 'shop/pay_state']);
  });

  it('says when the orders were not paid, and when a payment came after they closed and went to the balance', async () => {
    shop.state.orders = [fakeOrder('o1', { code: 'k1' })];
    renderSuccess('k1');
    await shows('Not paid: the order waits for payment in My orders');
    cleanup();
    shop.state.orders = [fakeOrder('o1', { code: 'k1', status: 'cancelled', closed_at: 2 })];
    shop.state.providerPayments['k1'] = { id: 'r1', type: 'wechat', status: 'success', reason: '' };
    renderSuccess('k1');
    await shows('The payment came after the order closed: it is in your wallet balance');
    cleanup();
    renderSuccess('nope');
    await shows('The order does not exist');
  });
});
