// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeReview } from '../../features/shop/fake-reviews';
import { fakeOrder, fakeProduct, fakeShop } from '../../features/shop/fake-shop';
import type { Review } from '../../features/shop/reviews';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import ProductView from './view';
import ProductReviews from './view-ping';

const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

/** Order `id` of product p1, completed and reviewed with `extra`. */
const reviewed = (id: string, extra: Partial<Review> = {}) =>
  fakeOrder(id, { status: 'completed', completed_at: 1, review: fakeReview({ id, order_id: id, ...extra }) });

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  // A visitor: a product's reviews are open to all.
  localStorage.clear();
  shop.reset();
  shop.state.products = [fakeProduct('p1', { title: 'Green tea' }), fakeProduct('p2')];
  shop.state.orders = [
    reviewed('o3', {
      member: { id: '50', username: 'Han Meimei', img: 'https://files.test/han.png' },
      quality: 4,
      service: 5,
      logistics: 5,
      content: 'Good, the box was dented.',
      reply: 'Sorry about the box!',
      replied_at: 1_700_000_350_000,
      created_at: 1_700_000_300_000,
    }),
    reviewed('o2', { quality: 5, service: 4, logistics: 4, content: '', created_at: 1_700_000_200_000 }),
    reviewed('o1', {
      member: { id: '51', username: '', img: '' },
      quality: 3,
      service: 3,
      logistics: 2,
      content: 'Just fine.',
      created_at: 1_700_000_100_000,
    }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/shop/view-ping" element={<ProductReviews />} />
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

describe('shop/view-ping: a product’s reviews', () => {
  it('shows how the product was rated, then its reviews newest first with the seller’s reply', async () => {
    renderPages('/shop/view-ping?id=p1');
    await shows('Reviews (3)');
    const summary = within(screen.getByTestId('review-summary'));
    for (const text of ['Quality 4.0', 'Service 4.0', 'Logistics 3.7']) expect(summary.getByText(text)).toBeTruthy();
    expect(calls('shop/ping_list')[0]).toEqual(expect.objectContaining({ id: 'p1' }));
    expect(calls('shop/ping_list')[0]).not.toHaveProperty('token');

    expect(reviews()).toHaveLength(3);
    expect(review(0).getByText('Han Meimei')).toBeTruthy();
    expect(review(0).getByText('Good, the box was dented.')).toBeTruthy();
    expect(review(0).getByRole('radiogroup', { name: 'Quality: 4 of 5 stars' })).toBeTruthy();
    expect(review(0).getByRole('radiogroup', { name: 'Logistics: 5 of 5 stars' })).toBeTruthy();
    expect(review(0).getByText(new Date(1_700_000_300_000).toLocaleDateString('en'))).toBeTruthy();
    expect(within(review(0).getByTestId('review-reply')).getByText(/Sorry about the box!/)).toBeTruthy();
    expect(review(1).getByText('Alice')).toBeTruthy();
    expect(review(1).queryByTestId('review-reply')).toBeNull();
    // A cancelled member is named by id.
    expect(review(2).getByText('User 51')).toBeTruthy();
  });

  it('reads the next page before the last review shown', async () => {
    shop.state.orders = Array.from({ length: 25 }, (_, n) =>
      reviewed(`r${25 - n}`, { created_at: 1_700_000_000_000 + (25 - n) * 1_000 }),
    );
    renderPages('/shop/view-ping?id=p1');
    await vi.waitFor(() => expect(reviews()).toHaveLength(20));
    expect(screen.getByText('Reviews (25)')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await vi.waitFor(() => expect(reviews()).toHaveLength(25));
    expect(calls('shop/ping_list')[1]).toMatchObject({ id: 'p1', before: 'r6' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when there is none, and when the product cannot be seen', async () => {
    renderPages('/shop/view-ping?id=p2');
    await shows('No reviews yet');
    expect(screen.getByText('Reviews (0)')).toBeTruthy();
    expect(screen.getByText('Quality 0.0')).toBeTruthy();
    cleanup();
    renderPages('/shop/view-ping?id=gone');
    await shows('The product does not exist, return to the cart');
  });
});

describe('shop/view: a product’s reviews on its page', () => {
  it('shows how many and the quality average with the newest two, and opens them all', async () => {
    renderPages('/shop/view?id=p1');
    await shows('Reviews (3)');
    expect(screen.getByText('Quality 4.0')).toBeTruthy();
    expect(reviews()).toHaveLength(2);
    expect(review(0).getByText('Good, the box was dented.')).toBeTruthy();
    expect(screen.queryByText('Just fine.')).toBeNull();
    await step(() => fireEvent.click(screen.getByText('Reviews (3)')));
    expect(where()).toBe('/shop/view-ping?id=p1');
    await vi.waitFor(() => expect(reviews()).toHaveLength(3));
  });

  it('says when the product has no reviews yet', async () => {
    renderPages('/shop/view?id=p2');
    await shows('Reviews (0)');
    expect(screen.getByText('No reviews yet')).toBeTruthy();
    expect(reviews()).toHaveLength(0);
  });
});
