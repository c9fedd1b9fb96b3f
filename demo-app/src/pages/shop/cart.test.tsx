// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_KEY } from '../../features/shop/cart';
import { fakeProduct, fakeShop, openShop } from '../../features/shop/fake-shop';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import CartPage from './cart';
import ShopPage from './index';
import ProductView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const shop = fakeShop();
const api = setupServer(
  NO_ADS,
  ...shop.handlers,
  // The shop tab's own calls: no classifications, nothing on sale.
  http.post('*/index.php/api/shop/typeid', () => HttpResponse.json({ ret: [] })),
  http.post('*/index.php/api/shop/list', () => HttpResponse.json({ ret: [] })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/cart" element={<CartPage />} />
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/pages/shop/index" element={<ShopPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const stored = () => JSON.parse(localStorage.getItem(CART_KEY) ?? '[]') as string[];
const where = () => screen.getByTestId('where').textContent;
const lines = () => screen.getAllByTestId('cart-line');
const click = (element: HTMLElement) => step(() => fireEvent.click(element));

describe('shop/view: add to cart and buy now', () => {
  it("adds another shop's product to the cart (moving it last), counts it, and buys one at once", async () => {
    shop.state.products = [fakeProduct('p1'), fakeProduct('p2')];
    localStorage.setItem(CART_KEY, JSON.stringify(['p1', 'p2']));
    renderPages('/shop/view?id=p1');
    await shows('Add to cart');
    expect(screen.getByTestId('cart-count').textContent).toBe('2');
    await click(screen.getByRole('button', { name: 'Add to cart' }));
    await shows('Added to the cart');
    expect(stored()).toEqual(['p2', 'p1']);
    expect(screen.getByTestId('cart-count').textContent).toBe('2');
    await click(screen.getByRole('button', { name: 'Buy now' }));
    expect(where()).toBe(`/shop/payment?items=${encodeURIComponent('p1:1')}`);
  });

  it("offers neither on the seller's own product, and neither can be used on one sold out", async () => {
    shop.state.products = [fakeProduct('p1'), fakeProduct('p2', { shop_id: 's2', stock: 0 })];
    shop.state.myShop = openShop();
    renderPages('/shop/view?id=p1');
    await shows('This is a product of your shop');
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Buy now' })).toBeNull();
    cleanup();
    renderPages('/shop/view?id=p2');
    await shows('Add to cart');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add to cart' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Buy now' }).disabled).toBe(true);
  });
});

describe('shop/cart', () => {
  it('lists the products newest first; one gone is unavailable, cannot be picked, and can be removed', async () => {
    shop.state.products = [fakeProduct('p1'), fakeProduct('p2', { title: 'Blue cup', price: 8 })];
    localStorage.setItem(CART_KEY, JSON.stringify(['p1', 'gone', 'p2']));
    renderPages('/shop/cart');
    await shows('The product does not exist, return to the cart');
    await shows('Blue cup');
    expect(lines().map((line) => line.textContent)).toEqual([
      expect.stringContaining('Blue cup'),
      expect.stringContaining('Unavailable'),
      expect.stringContaining('Product p1'),
    ]);
    const gone = lines()[1] as HTMLElement;
    expect(within(gone).getByRole<HTMLInputElement>('checkbox').disabled).toBe(true);
    await click(screen.getByText('Select all'));
    expect(within(gone).getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Settle (2)' })).toBeTruthy();
    await click(within(gone).getByRole('button', { name: 'Remove' }));
    expect(stored()).toEqual(['p1', 'p2']);
    expect(lines()).toHaveLength(2);
    expect(screen.queryByText('Unavailable')).toBeNull();
  });

  it('sets quantities within the stock, totals what is picked, and settles it to the payment page', async () => {
    shop.state.products = [fakeProduct('p1'), fakeProduct('p2', { title: 'Blue cup', price: 8.1, stock: 500 })];
    localStorage.setItem(CART_KEY, JSON.stringify(['p1', 'p2']));
    renderPages('/shop/cart');
    await shows('Blue cup');
    const total = () => screen.getByTestId('cart-total').textContent;
    expect(total()).toBe('Total: ¥0.00');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Settle (0)' }).disabled).toBe(true);

    await click(screen.getByRole('checkbox', { name: 'Select Product p1' }));
    expect(total()).toBe('Total: ¥12.50');
    const p1 = lines()[1] as HTMLElement;
    const more = within(p1).getByRole<HTMLButtonElement>('button', { name: 'increase' });
    for (let i = 0; i < 3; i += 1) await click(more);
    // 3 in stock: the stepper stops there.
    expect(within(p1).getByRole<HTMLInputElement>('spinbutton').value).toBe('3');
    expect(more.disabled).toBe(true);
    expect(total()).toBe('Total: ¥37.50');
    expect(
      within(lines()[0] as HTMLElement)
        .getByRole('spinbutton')
        .getAttribute('aria-valuemax'),
    ).toBe('99');

    await click(screen.getByText('Select all'));
    expect(total()).toBe('Total: ¥45.60');
    await click(screen.getByRole('button', { name: 'Settle (2)' }));
    expect(where()).toBe(`/shop/payment?items=${encodeURIComponent('p2:1,p1:3')}`);
    // Settling buys nothing yet: the cart keeps both.
    expect(stored()).toEqual(['p1', 'p2']);
  });

  it('leads from an empty cart to the shop', async () => {
    renderPages('/shop/cart');
    await shows('Your cart is empty');
    expect(shop.sent).toEqual([]);
    await click(screen.getByRole('button', { name: 'Go shopping' }));
    await vi.waitFor(() => expect(where()).toBe('/pages/shop/index'));
    expect(screen.queryByTestId('cart-count')).toBeNull();
  });

  it("is opened from the shop tab's bar, which shows the cart count", async () => {
    localStorage.setItem(CART_KEY, JSON.stringify(['p1', 'p2', 'p3']));
    renderPages('/pages/shop/index');
    await shows('No products on sale yet');
    expect(screen.getByTestId('cart-count').textContent).toBe('3');
    await click(screen.getByRole('button', { name: 'Cart' }));
    expect(where()).toBe('/shop/cart');
  });
});
