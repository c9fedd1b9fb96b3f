// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeProduct, fakeShop } from '../../features/shop/fake-shop';
import type { Language } from '../../i18n';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BrowsingHistory from './history';
import ProductView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

/** Noon, local time, `days` before today. */
const noon = (days: number) => {
  const today = new Date();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - days, 12).getTime();
};

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
    fakeProduct('p2', { title: 'Blue cup', price: 8 }),
    fakeProduct('p3', { title: 'Tea tray', price: 30 }),
    fakeProduct('p4', { title: 'Old kettle', status: 'banned' }),
  ];
  shop.state.history = [
    { id: 'p1', marked_at: noon(0) + 60_000 },
    { id: 'p2', marked_at: noon(0) },
    { id: 'p3', marked_at: noon(1) },
    // Midday UTC: the same day in any time zone within 11 hours of it.
    { id: 'p4', marked_at: Date.UTC(2023, 10, 14, 12) },
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string, language: Language = 'en') {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/shop/history" element={<BrowsingHistory />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path, language },
  );
}

const where = () => screen.getByTestId('where').textContent;
const titlesOf = (element: HTMLElement) =>
  [...element.querySelectorAll('.cart-line-title')].map((title) => title.textContent);
/** Each day shown, its heading and the titles under it. */
const days = () =>
  screen
    .queryAllByTestId('mark-day-group')
    .map((group) => [within(group).getByTestId('mark-day').textContent, titlesOf(group)]);
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const click = (element: HTMLElement) => step(() => fireEvent.click(element));

describe('shop/history: browsing history', () => {
  it('groups the looks by day, the latest first: Today, Yesterday, then the date', async () => {
    renderPages('/shop/history');
    await vi.waitFor(() =>
      expect(days()).toEqual([
        ['Today', ['Green tea', 'Blue cup']],
        ['Yesterday', ['Tea tray']],
        ['November 14, 2023', ['Old kettle']],
      ]),
    );
    expect(calls('shop/history')).toEqual([expect.objectContaining({ token: USER.token })]);
    expect(calls('shop/history')[0]).not.toHaveProperty('before');
    cleanup();
    renderPages('/shop/history', 'zh-CN');
    await vi.waitFor(() => expect(days().map(([day]) => day)).toEqual(['今天', '昨天', '2023年11月14日']));
  });

  it('greys a product no longer on sale, which does not open; the others do', async () => {
    renderPages('/shop/history');
    await shows('No longer available');
    const [kettle] = screen.getAllByTestId('marked-product').slice(-1) as [HTMLElement];
    expect(within(kettle).getByText('No longer available')).toBeTruthy();
    await click(within(kettle).getByText('Old kettle', { selector: '.cart-line-title' }));
    expect(where()).toBe('/shop/history');
    await click(screen.getByRole('button', { name: /^Tea tray/ }));
    expect(where()).toBe('/shop/view?id=p3');
  });

  it('removes one by its swipe action; its day goes when it was the only one', async () => {
    renderPages('/shop/history');
    await vi.waitFor(() => expect(days()).toHaveLength(3));
    await click(screen.getByRole('button', { name: 'Remove Tea tray' }));
    await shows('Removed');
    await vi.waitFor(() => expect(days().map(([day]) => day)).toEqual(['Today', 'November 14, 2023']));
    expect(calls('shop/history_del')).toEqual([expect.objectContaining({ token: USER.token, ids: ['p3'] })]);
  });

  it('clears it all after asking, sending no ids, then says it is empty', async () => {
    renderPages('/shop/history');
    await vi.waitFor(() => expect(days()).toHaveLength(3));
    await click(screen.getByRole('button', { name: 'Clear' }));
    await shows('Clear your whole browsing history?');
    await click(screen.getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByText('Clear your whole browsing history?')).toBeNull());
    expect(calls('shop/history_del')).toEqual([]);
    await click(screen.getByRole('button', { name: 'Clear' }));
    await shows('Clear your whole browsing history?');
    await click(screen.getAllByRole('button', { name: 'Clear' }).at(-1) as HTMLElement);
    await shows('Browsing history cleared');
    await shows('No browsing history yet');
    expect(calls('shop/history_del')).toEqual([expect.not.objectContaining({ ids: expect.anything() as unknown })]);
    expect(shop.state.history).toEqual([]);
    // Nothing left to clear (once the dialog has closed).
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull());
  });

  it("reads the next page before the last product shown; a product's page tops it", async () => {
    shop.state.products = Array.from({ length: 22 }, (_, n) => fakeProduct(`h${n + 1}`));
    shop.state.history = shop.state.products.map((product, n) => ({ id: product.id, marked_at: noon(0) - n }));
    renderPages('/shop/view?id=h22');
    await shows('Product h22');
    cleanup();
    renderPages('/shop/history');
    await vi.waitFor(() => expect(screen.getAllByTestId('marked-product')).toHaveLength(20));
    expect(titlesOf(screen.getAllByTestId('marked-product')[0] as HTMLElement)).toEqual(['Product h22']);
    await click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(screen.getAllByTestId('marked-product')).toHaveLength(22));
    expect(calls('shop/history')[1]).toMatchObject({ before: 'h19' });
  });

  it('says when there is none, and leads to the shop', async () => {
    shop.state.history = [];
    renderPages('/shop/history');
    await shows('No browsing history yet');
    await click(screen.getByRole('button', { name: 'Go shopping' }));
    await vi.waitFor(() => expect(where()).toBe('/pages/shop/index'));
  });
});
