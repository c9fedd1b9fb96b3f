// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeReview } from '../../features/shop/fake-reviews';
import { fakeOrder, fakeShop } from '../../features/shop/fake-shop';
import { reviewBlock, reviewProblem } from '../../features/shop/reviews';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import MyOrders from './user-order';
import OrderView from './user-order-view';
import WriteReview from './user-ping-add';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const DAY = 86_400_000;
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers);

const GREEN_TEA = { product_id: 'p2', title: 'Green tea', image: 'https://files.test/p2.png', price: 12.5, num: 2 };
const paid = { pay_method: 'balance', paid_at: 1_700_000_100_000 } as const;
/** Completed a day ago: open to review for 14 days more. */
const completed = () =>
  ({
    ...paid,
    status: 'completed',
    completed_at: Date.now() - DAY,
    review_until: Date.now() + 14 * DAY,
  }) as const;

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  const reviewed = fakeReview({
    id: 'o4',
    order_id: 'o4',
    content: 'Strong and smooth.',
    reply: 'Thank you, see you again',
    replied_at: 1_700_000_500_000,
  });
  shop.state.orders = [
    fakeOrder('o5', { ...completed(), items: [GREEN_TEA], total: 25 }),
    fakeOrder('o4', { ...completed(), review: reviewed }),
    fakeOrder('o3', { ...completed(), completed_at: Date.now() - 16 * DAY, review_until: Date.now() - DAY }),
    fakeOrder('o2', { status: 'shipped', ...paid, shipped_at: 1_700_000_200_000 }),
    fakeOrder('o1'),
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
        <Route path="/shop/user-ping-add" element={<WriteReview />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </div>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const cards = () => screen.getAllByTestId('order');
const card = (id: string) => cards()[shop.state.orders.findIndex((order) => order.id === id)] as HTMLElement;
const calls = (path: string) => shop.sent.filter((call) => call.path === path).map((call) => call.body);
const tab = (name: string) => within(screen.getByRole('tablist')).getByText(name);
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));
const click = (name: string) => step(() => fireEvent.click(page().getByRole('button', { name })));
const write = (value: string) => fireEvent.change(screen.getByLabelText('Your review'), { target: { value } });
const submit = () => click('Submit review');
/** How many stars of the rating labelled `label` are lit. */
const lit = (label: string) =>
  within(screen.getByRole('radiogroup', { name: label })).queryAllByRole('radio', { checked: true }).length;

/** Taps star `n` of the rating labelled `label`, as a finger does: the stars read where the tap fell. */
async function rate(label: string, n: number) {
  const stars = screen.getByRole('radiogroup', { name: label });
  vi.spyOn(stars, 'getBoundingClientRect').mockReturnValue({
    ...{ x: 0, y: 0, left: 0, top: 0, width: 100, height: 20, right: 100, bottom: 20 },
    toJSON: () => ({}),
  });
  const touch = { identifier: 0, clientX: n * 20 - 10, clientY: 10, target: stars };
  await step(() => {
    fireEvent.touchStart(stars, { touches: [touch], changedTouches: [touch], targetTouches: [touch] });
    fireEvent.touchEnd(stars, { touches: [], changedTouches: [touch], targetTouches: [] });
  });
}

describe('shop/user-ping-add: the buyer writes a review', () => {
  it('checks the three ratings, then the text, then sends the review and opens the order showing it', async () => {
    renderPages('/shop/user-ping-add?id=o5');
    await shows('Green tea');
    expect(page().getByText('Hill Tea House')).toBeTruthy();
    expect(lit('Quality') + lit('Service') + lit('Logistics')).toBe(0);

    await submit();
    await shows('Please rate quality, service and logistics from 1 to 5');
    await rate('Quality', 5);
    await rate('Service', 4);
    expect([lit('Quality'), lit('Service'), lit('Logistics')]).toEqual([5, 4, 0]);
    await submit();
    await rate('Logistics', 3);
    write('x'.repeat(201));
    expect(screen.getByText('201/200')).toBeTruthy();
    await submit();
    await shows('A review is at most 200 characters');
    expect(calls('shop/ping_add')).toEqual([]);

    write('  Fresh and fragrant, will buy again.  ');
    expect(screen.getByText('35/200')).toBeTruthy();
    await submit();
    await shows('Review submitted');
    expect(calls('shop/ping_add')).toEqual([
      expect.objectContaining({
        id: 'o5',
        quality: 5,
        service: 4,
        logistics: 3,
        content: 'Fresh and fragrant, will buy again.',
        token: USER.token,
      }),
    ]);
    expect(where()).toBe('/shop/user-order-view?id=o5');
    await vi.waitFor(() => expect(screen.getByTestId('order-review')).toBeTruthy());
    const review = within(screen.getByTestId('order-review'));
    expect(review.getByText('Fresh and fragrant, will buy again.')).toBeTruthy();
    expect(review.getByRole('radiogroup', { name: 'Quality: 5 of 5 stars' })).toBeTruthy();
    expect(review.getByRole('radiogroup', { name: 'Service: 4 of 5 stars' })).toBeTruthy();
    expect(review.getByRole('radiogroup', { name: 'Logistics: 3 of 5 stars' })).toBeTruthy();
    // Reviewed once, the order is not reviewed again.
    expect(page().queryByRole('button', { name: 'Review' })).toBeNull();
    expect(screen.queryByText(/^Review by/)).toBeNull();
  });

  it('takes a review without text, and tapping a lit star again takes it back', async () => {
    renderPages('/shop/user-ping-add?id=o5');
    await shows('Green tea');
    await rate('Quality', 2);
    await rate('Quality', 2);
    expect(lit('Quality')).toBe(0);
    await rate('Quality', 1);
    await rate('Service', 5);
    await rate('Logistics', 5);
    await submit();
    await shows('Review submitted');
    expect(calls('shop/ping_add')).toEqual([
      expect.objectContaining({ id: 'o5', quality: 1, service: 5, logistics: 5, content: '' }),
    ]);
  });

  it("shows the server's refusal in its words and stays on the form", async () => {
    shop.state.refuse['shop/ping_add'] = { err: 'the time to review this order has passed', code: 'review_closed' };
    renderPages('/shop/user-ping-add?id=o5');
    await shows('Green tea');
    for (const label of ['Quality', 'Service', 'Logistics']) await rate(label, 4);
    await submit();
    await shows('The time to review this order has passed');
    expect(where()).toBe('/shop/user-ping-add?id=o5');
    expect(calls('shop/ping_add')).toHaveLength(1);
  });

  it('says why an order cannot be reviewed, instead of the form', async () => {
    for (const [id, why] of [
      ['o4', 'This order has been reviewed'],
      ['o3', 'The time to review this order has passed'],
      ['o2', 'Only a completed order can be reviewed'],
    ] as const) {
      renderPages(`/shop/user-ping-add?id=${id}`);
      await shows(why);
      expect(screen.queryByLabelText('Your review')).toBeNull();
      expect(page().queryByRole('button', { name: 'Submit review' })).toBeNull();
      cleanup();
    }
    renderPages('/shop/user-ping-add?id=o4');
    await shows('This order has been reviewed');
    await click('View the order');
    expect(where()).toBe('/shop/user-order-view?id=o4');
  });

  it('checks a review as the server does', () => {
    const draft = { quality: 5, service: 1, logistics: 3, content: '' };
    expect(reviewProblem(draft)).toBeUndefined();
    for (const quality of [0, 6, 2.5, -1, Number.NaN]) {
      expect(reviewProblem({ ...draft, quality })).toBe('review_ratings_invalid');
    }
    expect(reviewProblem({ ...draft, logistics: 0, content: 'x'.repeat(201) })).toBe('review_ratings_invalid');
    expect(reviewProblem({ ...draft, content: '好'.repeat(200) })).toBeUndefined();
    expect(reviewProblem({ ...draft, content: ` ${'x'.repeat(200)}\n` })).toBeUndefined();
    expect(reviewProblem({ ...draft, content: '好'.repeat(201) })).toBe('review_content_invalid');

    const order = fakeOrder('o9', { status: 'completed', completed_at: 0, review_until: 1_000 });
    expect(reviewBlock(order, 999)).toBeUndefined();
    expect(reviewBlock(order, 1_000)).toBe('review_closed');
    expect(reviewBlock({ ...order, review_until: null }, 0)).toBe('review_closed');
    expect(reviewBlock({ ...order, review: fakeReview() }, 0)).toBe('review_done');
    expect(reviewBlock({ ...order, status: 'refunded' }, 0)).toBe('review_state');
  });
});

describe('shop/user-order: reviews in my orders', () => {
  it('offers Review on a completed order only while it can be reviewed, and lists those to review', async () => {
    renderPages('/shop/user-order');
    await shows('Green tea');
    expect(
      within(screen.getByRole('tablist'))
        .getAllByRole('tab')
        .map((item) => item.textContent),
    ).toEqual(['All', 'Unpaid', 'To ship', 'To receive', 'To review', 'Completed', 'Cancelled', 'Refunds']);
    expect(within(card('o5')).getByRole('button', { name: 'Review' })).toBeTruthy();
    for (const id of ['o4', 'o3', 'o2', 'o1']) {
      expect(within(card(id)).queryByRole('button', { name: 'Review' })).toBeNull();
    }

    await step(() => fireEvent.click(tab('To review')));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(calls('shop/order_list').at(-1)).toMatchObject({ status: 'unreviewed' });
    expect(where()).toBe('/shop/user-order?status=unreviewed');
    await step(() => fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Review' })));
    expect(where()).toBe('/shop/user-ping-add?id=o5');
  });
});

describe('shop/user-order-view: an order and its review', () => {
  it("shows the buyer's review and the seller's reply, with nothing more to review", async () => {
    renderPages('/shop/user-order-view?id=o4');
    await vi.waitFor(() => expect(screen.getByTestId('order-review')).toBeTruthy());
    const review = within(screen.getByTestId('order-review'));
    expect(review.getByText('My review')).toBeTruthy();
    expect(review.getByText('Strong and smooth.')).toBeTruthy();
    expect(review.getByRole('radiogroup', { name: 'Quality: 5 of 5 stars' })).toBeTruthy();
    expect(review.getByText(new Date(1_700_000_400_000).toLocaleDateString('en'))).toBeTruthy();
    expect(within(review.getByTestId('review-reply')).getByText(/Thank you, see you again/)).toBeTruthy();
    expect(review.getByText('Seller’s reply:')).toBeTruthy();
    expect(page().queryByRole('button', { name: 'Review' })).toBeNull();
  });

  it('says until when an order can be reviewed, and opens the review form', async () => {
    renderPages('/shop/user-order-view?id=o5');
    const until = new Date(shop.state.orders[0]?.review_until ?? 0).toLocaleString('en');
    await shows(`Review by ${until}`);
    expect(screen.queryByTestId('order-review')).toBeNull();
    await click('Review');
    expect(where()).toBe('/shop/user-ping-add?id=o5');
    await shows('Submit review');

    cleanup();
    renderPages('/shop/user-order-view?id=o3');
    await vi.waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Completed'));
    expect(screen.queryByText(/^Review by/)).toBeNull();
    expect(page().queryByRole('button', { name: 'Review' })).toBeNull();
  });
});
