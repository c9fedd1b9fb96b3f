// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeReview } from '../../features/shop/fake-reviews';
import { fakeOrder, fakeShop } from '../../features/shop/fake-shop';
import type { Review } from '../../features/shop/reviews';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserIndex from '../user/index';
import MyReviews from './user-ping';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const shop = fakeShop();
// The user tab reads the app config.
const api = setupServer(NO_ADS, ...shop.handlers, ...uploadHandlers('https://files.test/uploads'));

/** Order `id`, completed and reviewed with `extra`. */
const reviewed = (id: string, extra: Partial<Review> = {}) =>
  fakeOrder(id, { status: 'completed', completed_at: 1, review: fakeReview({ id, order_id: id, ...extra }) });

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.orders = [
    reviewed('o2', {
      items: [
        { product_id: 'p2', title: 'Green tea', image: 'https://files.test/p2.png' },
        { product_id: 'p3', title: 'Blue cup', image: 'https://files.test/p3.png' },
      ],
      quality: 4,
      content: 'Tea good, cup small.',
      reply: 'A bigger cup is coming soon.',
      replied_at: 1_700_000_500_000,
      created_at: 1_700_000_400_000,
    }),
    fakeOrder('o1', { status: 'shipped', paid_at: 1 }),
    reviewed('o0', { content: 'From a shop now closed.', shop: null, created_at: 1_700_000_100_000 }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/pages/user/index" element={<UserIndex />} />
        <Route path="/shop/user-ping" element={<MyReviews />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const reviews = () => screen.queryAllByTestId('review');
const review = (n: number) => within(reviews()[n] as HTMLElement);
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);

describe('shop/user-ping: my reviews', () => {
  it('lists my reviews with their shop, products, stars, text and reply, and opens a product', async () => {
    renderPages('/shop/user-ping');
    await shows('Tea good, cup small.');
    expect(calls('shop/user_ping')[0]).toMatchObject({ token: USER.token });
    expect(reviews()).toHaveLength(2);
    expect(review(0).getByText('Hill Tea House')).toBeTruthy();
    expect(review(0).getByText('Green tea')).toBeTruthy();
    expect(review(0).getByText('Blue cup')).toBeTruthy();
    expect(review(0).getByRole('radiogroup', { name: 'Quality: 4 of 5 stars' })).toBeTruthy();
    expect(within(review(0).getByTestId('review-reply')).getByText(/A bigger cup is coming soon\./)).toBeTruthy();
    expect(review(1).getByText('The shop is closed')).toBeTruthy();
    expect(review(1).queryByTestId('review-reply')).toBeNull();
    await step(() => fireEvent.click(review(0).getByText('Blue cup')));
    expect(where()).toBe('/shop/view?id=p3');
  });

  it('reads the next page before the last review shown, and says when there is none', async () => {
    shop.state.orders = Array.from({ length: 23 }, (_, n) =>
      reviewed(`r${23 - n}`, { created_at: 1_700_000_000_000 + (23 - n) * 1_000 }),
    );
    renderPages('/shop/user-ping');
    await vi.waitFor(() => expect(reviews()).toHaveLength(20));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await vi.waitFor(() => expect(reviews()).toHaveLength(23));
    expect(calls('shop/user_ping')[1]).toMatchObject({ before: 'r4' });

    shop.state.orders = [];
    cleanup();
    renderPages('/shop/user-ping');
    await shows('You have not reviewed anything yet');
  });

  it('opens from the user tab, next to My orders', async () => {
    renderPages('/pages/user/index');
    await shows('My reviews');
    const entries = screen.getAllByText(/^(My orders|My reviews|Cart)$/).map((item) => item.textContent);
    expect(entries).toEqual(['My orders', 'My reviews', 'Cart']);
    await step(() => fireEvent.click(screen.getByText('My reviews')));
    expect(where()).toBe('/shop/user-ping');
  });
});
