// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FakeMark } from '../../features/shop/fake-marks';
import { fakeProduct, fakeShop, openShop } from '../../features/shop/fake-shop';
import { passThrottle, renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { closeLayers } from '../../test-layers';
import { installAntdRender } from '../../ui/antd-render';
import UserIndex from '../user/index';
import BrowsingHistory from './history';
import Favourites from './shoucang';
import ProductView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const shop = fakeShop();
// The user tab reads the app config.
const api = setupServer(NO_ADS, ...shop.handlers, ...uploadHandlers('https://files.test/uploads'));

/** Products `ids` in one of the member's lists, the first the latest. */
const marks = (...ids: string[]): FakeMark[] => ids.map((id, n) => ({ id, marked_at: 1_700_000_000_000 - n * 60_000 }));

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.products = [
    fakeProduct('p1', { title: 'Green tea' }),
    fakeProduct('p2', { title: 'Blue cup', price: 8, stock: 0 }),
    fakeProduct('p3', { title: 'Tea tray', price: 30 }),
    fakeProduct('p4', { title: 'Old kettle', status: 'off_shelf' }),
  ];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/pages/user/index" element={<UserIndex />} />
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/shop/shoucang" element={<Favourites />} />
        <Route path="/shop/history" element={<BrowsingHistory />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const rows = () => screen.queryAllByTestId('marked-product');
const titles = () => rows().map((row) => row.querySelector('.cart-line-title')?.textContent);
/** Waits until the list shows products `expected`, in that order. */
const listed = (...expected: string[]) => vi.waitFor(() => expect(titles()).toEqual(expected));
/** The title of a product listed, as shown (its swipe action names it too, to screen readers). */
const titled = (title: string) => screen.getByText(title, { selector: '.cart-line-title' });
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const click = (element: HTMLElement) => step(() => fireEvent.click(element));

describe('shop/view: the favourite toggle', () => {
  it('keeps a product as a favourite and lets it go, saying so each time', async () => {
    renderPages('/shop/view?id=p1');
    await click(await screen.findByRole('button', { name: 'Add to favourites' }));
    await shows('Added to favourites');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Remove from favourites' })).toBeTruthy());
    expect(shop.state.favourites.map((mark) => mark.id)).toEqual(['p1']);
    passThrottle();
    await click(screen.getByRole('button', { name: 'Remove from favourites' }));
    await shows('Removed from favourites');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Add to favourites' })).toBeTruthy());
    expect(calls('shop/shoucang')).toEqual([
      expect.objectContaining({ token: USER.token, id: 'p1', shoucang: true }),
      expect.objectContaining({ token: USER.token, id: 'p1', shoucang: false }),
    ]);
    expect(shop.state.favourites).toEqual([]);
  });

  it('opens on a product kept before as kept', async () => {
    shop.state.favourites = marks('p1');
    renderPages('/shop/view?id=p1');
    expect(await screen.findByRole('button', { name: 'Remove from favourites' })).toBeTruthy();
    expect(calls('shop/view')[0]).toMatchObject({ token: USER.token, id: 'p1' });
  });

  it("shows the server's refusal, and the product stays as it was", async () => {
    // 500 favourites already: the most the server keeps.
    shop.state.favourites = Array.from({ length: 500 }, (_, n) => ({ id: `x${n}`, marked_at: n }));
    renderPages('/shop/view?id=p1');
    await click(await screen.findByRole('button', { name: 'Add to favourites' }));
    await shows('You can keep at most 500 favourites: remove some first');
    expect(screen.getByRole('button', { name: 'Add to favourites' })).toBeTruthy();
    expect(shop.state.favourites).toHaveLength(500);
  });

  it('asks a visitor to sign in, and comes back to the product after', async () => {
    localStorage.clear();
    renderPages('/shop/view?id=p1');
    await click(await screen.findByRole('button', { name: 'Add to favourites' }));
    await vi.waitFor(() => expect(where()).toBe(`/user/login?redirect=${encodeURIComponent('/shop/view?id=p1')}`));
    expect(calls('shop/shoucang')).toEqual([]);
    // A visitor's look is nobody's history.
    expect(calls('shop/view')[0]).not.toHaveProperty('token');
    expect(shop.state.history).toEqual([]);
  });

  it("is not offered on the member's own product", async () => {
    shop.state.myShop = openShop();
    renderPages('/shop/view?id=p1');
    await shows('This is a product of your shop');
    expect(screen.queryByRole('button', { name: 'Add to favourites' })).toBeNull();
  });
});

describe('shop/shoucang: my favourites', () => {
  it('lists them the latest first with image, title and price; one no longer on sale is greyed and does not open', async () => {
    shop.state.favourites = marks('p2', 'p4', 'p1');
    renderPages('/shop/shoucang');
    await listed('Blue cup', 'Old kettle', 'Green tea');
    expect(calls('shop/shoucang_list')[0]).toMatchObject({ token: USER.token });
    expect(calls('shop/shoucang_list')[0]).not.toHaveProperty('before');
    const [cup, kettle, tea] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(cup).getByText('¥8.00')).toBeTruthy();
    expect(within(cup).getByText('Sold out')).toBeTruthy();
    expect(cup.querySelector('img')?.getAttribute('src')).toBe('https://files.test/p2.png');
    expect(within(kettle).getByText('No longer available')).toBeTruthy();
    // Greyed: the line is drawn faded (marks.css).
    expect(kettle.querySelector('.mark-unavailable')).not.toBeNull();
    expect(tea.querySelector('.mark-unavailable')).toBeNull();
    expect(within(tea).queryByText('No longer available')).toBeNull();
    await click(titled('Old kettle'));
    expect(where()).toBe('/shop/shoucang');
    await click(within(tea).getByRole('button', { name: /^Green tea/ }));
    expect(where()).toBe('/shop/view?id=p1');
  });

  it('reads the next page before the last product shown', async () => {
    shop.state.products = Array.from({ length: 23 }, (_, n) => fakeProduct(`f${n + 1}`));
    shop.state.favourites = marks(...shop.state.products.map((product) => product.id));
    renderPages('/shop/shoucang');
    await vi.waitFor(() => expect(rows()).toHaveLength(20));
    await click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(rows()).toHaveLength(23));
    expect(calls('shop/shoucang_list')[1]).toMatchObject({ before: 'f20' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('removes one by its swipe action', async () => {
    shop.state.favourites = marks('p1', 'p3');
    renderPages('/shop/shoucang');
    await listed('Green tea', 'Tea tray');
    await click(screen.getByRole('button', { name: 'Remove Green tea' }));
    await shows('Removed');
    await listed('Tea tray');
    expect(calls('shop/shoucang_del')).toEqual([expect.objectContaining({ token: USER.token, ids: ['p1'] })]);
  });

  it('picks products in edit mode, all at once, and removes those picked after asking', async () => {
    shop.state.favourites = marks('p1', 'p2', 'p3', 'p4');
    renderPages('/shop/shoucang');
    await listed('Green tea', 'Blue cup', 'Tea tray', 'Old kettle');
    expect(screen.queryByRole('checkbox')).toBeNull();
    await click(screen.getByRole('button', { name: 'Edit' }));
    // In edit mode a product is picked, not opened, and has no swipe action.
    expect(screen.queryByRole('button', { name: 'Remove Green tea' })).toBeNull();
    await click(titled('Green tea'));
    expect(where()).toBe('/shop/shoucang');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select Green tea' }).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Remove (1)' })).toBeTruthy();

    await click(screen.getByText('Select all'));
    expect(screen.getByRole('button', { name: 'Remove (4)' })).toBeTruthy();
    await click(screen.getByRole('checkbox', { name: 'Select Blue cup' }));
    await click(screen.getByRole('button', { name: 'Remove (3)' }));
    await shows('Remove these 3 from your favourites?');
    await click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls('shop/shoucang_del')).toEqual([]);
    // The answered dialog leaves after its closing animation, which runs on jsdom's animation frames: a loaded machine
    // can starve them, so the layer is cleared here and the next question is the only one shown.
    await closeLayers();
    expect(screen.queryByText('Remove these 3 from your favourites?')).toBeNull();

    await click(screen.getByRole('button', { name: 'Remove (3)' }));
    await shows('Remove these 3 from your favourites?');
    await click(screen.getByRole('button', { name: 'Remove' }));
    await listed('Blue cup');
    expect(calls('shop/shoucang_del')).toEqual([expect.objectContaining({ ids: ['p1', 'p3', 'p4'] })]);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove (0)' }).disabled).toBe(true);
    await click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Blue cup' })).toBeTruthy();
  });

  it('says when there are none, and leads to the shop', async () => {
    renderPages('/shop/shoucang');
    await shows('No favourites yet');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    await click(screen.getByRole('button', { name: 'Go shopping' }));
    await vi.waitFor(() => expect(where()).toBe('/pages/shop/index'));
  });

  it('keeps a product from its page, which then tops the favourites', async () => {
    shop.state.favourites = marks('p3');
    renderPages('/shop/view?id=p1');
    await click(await screen.findByRole('button', { name: 'Add to favourites' }));
    await shows('Added to favourites');
    cleanup();
    renderPages('/shop/shoucang');
    await listed('Green tea', 'Tea tray');
  });
});

describe('pages/user/index: the entries of favourites and history', () => {
  it('opens both from the user tab, after My reviews', async () => {
    renderPages('/pages/user/index');
    await shows('My favourites');
    const entries = screen
      .getAllByText(/^(My orders|My reviews|My favourites|Browsing history|Cart)$/)
      .map((item) => item.textContent);
    expect(entries).toEqual(['My orders', 'My reviews', 'My favourites', 'Browsing history', 'Cart']);
    await click(screen.getByText('My favourites'));
    expect(where()).toBe('/shop/shoucang');
    cleanup();
    renderPages('/pages/user/index');
    await click(await screen.findByText('Browsing history'));
    expect(where()).toBe('/shop/history');
  });

  it('asks a visitor to sign in first', async () => {
    localStorage.clear();
    renderPages('/pages/user/index');
    await click(await screen.findByText('My favourites'));
    await vi.waitFor(() => expect(where()).toBe(`/user/login?redirect=${encodeURIComponent('/shop/shoucang')}`));
  });
});
