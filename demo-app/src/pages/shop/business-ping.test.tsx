// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeReview } from '../../features/shop/fake-reviews';
import { fakeOrder, fakeShop, openShop } from '../../features/shop/fake-shop';
import { replyValid, type Review } from '../../features/shop/reviews';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BusinessIndex from './business-index';
import BusinessOrders from './business-order';
import ShopReviewsPage from './business-ping';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const DAY = 86_400_000;
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

const HAN = { id: '50', username: 'Han Meimei', img: 'https://files.test/han.png' };
/** Order `id` of shop s1, completed and reviewed with `extra`. */
const reviewed = (id: string, extra: Partial<Review> = {}) =>
  fakeOrder(id, {
    status: 'completed',
    paid_at: 1,
    completed_at: 2,
    review_until: 2 + 15 * DAY,
    review: fakeReview({ id, order_id: id, ...extra }),
  });

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = openShop({ icon: 'https://files.test/icon.png' });
  shop.state.orders = [
    fakeOrder('o4', {
      status: 'completed',
      paid_at: 1,
      completed_at: Date.now() - DAY,
      review_until: Date.now() + 14 * DAY,
      address: { name: 'Li Lei', phone: '138', region: 'Hangzhou', detail: 'Road 1' },
    }),
    reviewed('o3', { member: HAN, quality: 2, content: 'Some leaves were broken.', created_at: 1_700_000_300_000 }),
    reviewed('o2', { reply: 'Thank you!', replied_at: 1_700_000_250_000, created_at: 1_700_000_200_000 }),
    {
      ...reviewed('o1', { content: 'Another shop’s cup.' }),
      shop: { id: 's2', name: 'Blue Cups', icon: '' },
    },
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/business-index" element={<BusinessIndex />} />
        <Route path="/shop/business-order" element={<BusinessOrders />} />
        <Route path="/shop/business-ping" element={<ShopReviewsPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const reviews = () => screen.queryAllByTestId('review');
const review = (n: number) => within(reviews()[n] as HTMLElement);
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const tab = (name: string) => within(screen.getByRole('tablist')).getByText(name);
const tabs = () => within(screen.getByRole('tablist')).getAllByRole('tab');
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));
const click = (name: string) => step(() => fireEvent.click(page().getByRole('button', { name })));
const reply = (value: string) => fireEvent.change(screen.getByLabelText('Your reply'), { target: { value } });

describe('shop/business-ping: the seller manages reviews', () => {
  it('lists the reviews to answer first, then all, each with its buyer, products and reply', async () => {
    renderPages('/shop/business-ping');
    await shows('Some leaves were broken.');
    expect(tabs().map((item) => item.textContent)).toEqual(['To answer', 'All']);
    expect(tab('To answer').closest('[role="tab"]')?.getAttribute('aria-selected')).toBe('true');
    expect(calls('shop/business_ping')[0]).toMatchObject({ replied: false, token: USER.token });
    expect(reviews()).toHaveLength(1);
    expect(review(0).getByText('Han Meimei')).toBeTruthy();
    expect(review(0).getByText('Product p1')).toBeTruthy();
    expect(review(0).getByRole('radiogroup', { name: 'Quality: 2 of 5 stars' })).toBeTruthy();
    expect(review(0).getByText(new Date(1_700_000_300_000).toLocaleDateString('en'))).toBeTruthy();
    expect(review(0).getByRole('button', { name: 'Reply' })).toBeTruthy();

    await step(() => fireEvent.click(tab('All')));
    await vi.waitFor(() => expect(reviews()).toHaveLength(2));
    expect(calls('shop/business_ping').at(-1)).not.toHaveProperty('replied');
    expect(where()).toBe('/shop/business-ping?status=all');
    // Another shop's reviews are not this seller's.
    expect(screen.queryByText('Another shop’s cup.')).toBeNull();
    expect(review(1).getByText('Alice')).toBeTruthy();
    expect(within(review(1).getByTestId('review-reply')).getByText(/Thank you!/)).toBeTruthy();
    // A review is answered once.
    expect(review(1).queryByRole('button', { name: 'Reply' })).toBeNull();
    await step(() => fireEvent.click(review(1).getByText('Product p1')));
    expect(where()).toBe('/shop/view?id=p1');
  });

  it('answers a review with 1 to 200 characters, then reads the lists again', async () => {
    renderPages('/shop/business-ping');
    await shows('Some leaves were broken.');
    await click('Reply');
    await click('Send reply');
    await shows('Please enter a reply of 1 to 200 characters');
    reply('x'.repeat(201));
    expect(screen.getByText('201/200')).toBeTruthy();
    await click('Send reply');
    expect(calls('shop/business_ping_reply')).toEqual([]);
    // Cancelling folds the form away.
    await click('Cancel');
    expect(screen.queryByLabelText('Your reply')).toBeNull();

    await click('Reply');
    reply('  Sorry: a new box is on its way.  ');
    expect(screen.getByText('31/200')).toBeTruthy();
    await click('Send reply');
    await shows('Reply sent');
    expect(calls('shop/business_ping_reply')).toEqual([
      expect.objectContaining({ id: 'o3', content: 'Sorry: a new box is on its way.', token: USER.token }),
    ]);
    // Answered, it leaves the reviews to answer, and shows its reply among all.
    await shows('No reviews to answer');
    await step(() => fireEvent.click(tab('All')));
    await vi.waitFor(() => expect(reviews()).toHaveLength(2));
    expect(within(review(0).getByTestId('review-reply')).getByText(/Sorry: a new box is on its way\./)).toBeTruthy();
    expect(page().queryByRole('button', { name: 'Reply' })).toBeNull();
  });

  it("shows the server's refusal in its words, and reads the reviews again", async () => {
    shop.state.refuse['shop/business_ping_reply'] = { err: 'this review has been answered', code: 'review_replied' };
    renderPages('/shop/business-ping?status=all');
    await vi.waitFor(() => expect(reviews()).toHaveLength(2));
    await click('Reply');
    reply('Thanks');
    await click('Send reply');
    await shows('This review has been answered');
    await vi.waitFor(() => expect(calls('shop/business_ping')).toHaveLength(2));
  });

  it('reads the next page before the last review shown, and says when there is none', async () => {
    shop.state.orders = Array.from({ length: 25 }, (_, n) =>
      reviewed(`r${25 - n}`, { created_at: 1_700_000_000_000 + (25 - n) * 1_000 }),
    );
    renderPages('/shop/business-ping');
    await vi.waitFor(() => expect(reviews()).toHaveLength(20));
    await click('Load more');
    await vi.waitFor(() => expect(reviews()).toHaveLength(25));
    expect(calls('shop/business_ping')[1]).toMatchObject({ replied: false, before: 'r6' });

    shop.state.orders = [];
    cleanup();
    renderPages('/shop/business-ping?status=all');
    await shows('No reviews yet');
  });

  it('checks a reply as the server does: 1 to 200 characters', () => {
    expect(replyValid(' Thanks ')).toBe(true);
    expect(replyValid('好'.repeat(200))).toBe(true);
    expect(replyValid('Thank you.\nSee you again.')).toBe(true);
    for (const content of ['', '  \n ', '好'.repeat(201)]) expect(replyValid(content)).toBe(false);
  });
});

describe('the seller’s orders and tools: reviews', () => {
  it('lists the completed orders still to be reviewed under Needs review, in the spec’s order of tabs', async () => {
    renderPages('/shop/business-order?status=unreviewed');
    await shows('Receiver: Li Lei');
    expect(tabs().map((item) => item.textContent)).toEqual([
      'Unpaid',
      'Awaiting delivery',
      'Shipped',
      'Refunds',
      'Refunded',
      'Needs review',
      'Successful',
      'Closed',
    ]);
    expect(tab('Needs review').closest('[role="tab"]')?.getAttribute('aria-selected')).toBe('true');
    expect(calls('shop/business_order')[0]).toMatchObject({ status: 'unreviewed' });
    expect(screen.getAllByTestId('order')).toHaveLength(1);
  });

  it('opens the reviews from My shop, next to the orders', async () => {
    renderPages('/shop/business-index');
    await shows('Orders');
    const tools = screen.getAllByText(/^(Products|Add a product|Orders|Reviews|Announcements|Withdrawal)$/);
    expect(tools.map((item) => item.textContent)).toEqual([
      'Products',
      'Add a product',
      'Orders',
      'Reviews',
      'Announcements',
      'Withdrawal',
    ]);
    await step(() => fireEvent.click(screen.getByText('Reviews')));
    expect(where()).toBe('/shop/business-ping');
  });
});
