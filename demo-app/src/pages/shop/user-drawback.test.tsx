// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { fakeRefund } from '../../features/shop/fake-refunds';
import { fakeOrder, fakeShop } from '../../features/shop/fake-shop';
import { refundProblem } from '../../features/shop/refunds';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import ApplyForRefund from './user-drawback';
import MyOrders from './user-order';
import OrderView from './user-order-view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const shop = fakeShop();
const api = setupServer(NO_ADS, ...shop.handlers, ...uploadHandlers(UPLOAD_URL));

const GREEN_TEA = { product_id: 'p2', title: 'Green tea', image: 'https://files.test/p2.png', price: 12.5, num: 2 };
const paid = { pay_method: 'balance', paid_at: 1_700_000_100_000 } as const;
const shipped = { ...paid, shipped_at: 1_700_000_200_000, logistics: { company: 'SF Express', number: 'SF1234567' } };

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  shop.reset();
  shop.state.orders = [
    fakeOrder('o5', { status: 'paid', ...paid, items: [GREEN_TEA], total: 25 }),
    fakeOrder('o4', { status: 'shipped', ...shipped, refund: fakeRefund({ amount: 12.5 }) }),
    fakeOrder('o3', { status: 'refunded', ...paid, closed_at: 5, refund: fakeRefund({ status: 'refunded' }) }),
    fakeOrder('o2', { status: 'completed', ...paid, completed_at: 3 }),
    fakeOrder('o1'),
  ];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <div data-testid="page">
      <Routes>
        <Route path="/shop/user-order" element={<MyOrders />} />
        <Route path="/shop/user-order-view" element={<OrderView />} />
        <Route path="/shop/user-drawback" element={<ApplyForRefund />} />
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
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = (name: string) => step(() => fireEvent.click(page().getByRole('button', { name })));
/** The page, without the dialogs and toasts layered over it. */
const page = () => within(screen.getByTestId('page'));
/** The dialog opened last: one answered stays in the document, faded out, until the test's layers are closed. */
const dialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
const asks = (text: string) => vi.waitFor(() => expect(within(dialog()).getByText(text)).toBeTruthy());
const answer = (name: string) => step(() => fireEvent.click(within(dialog()).getByRole('button', { name })));

/** Picks an image and lets the storage take it; resolves with its URL. */
async function uploadImage(): Promise<string> {
  const xhr = posted();
  const png = new File([new Uint8Array([137, 80, 78, 71])], 'proof.png', { type: 'image/png' });
  await step(() =>
    fireEvent.change(screen.getByLabelText('Add a proof image', { selector: 'input' }), { target: { files: [png] } }),
  );
  const request = await xhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
  await vi.waitFor(() => expect(screen.queryByTestId('refund-progress')).toBeNull());
  return `${UPLOAD_URL}/${key}`;
}

describe('shop/user-drawback: the buyer applies for a refund', () => {
  it("checks the amount, reason, description and images in spec §5's order, then applies and opens the order", async () => {
    renderPages('/shop/user-drawback?id=o5');
    await shows('Green tea');
    expect(page().getByText('¥25.00')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Refund amount (yuan)').value).toBe('25.00');
    const submit = () => click('Submit refund');

    type('Refund amount (yuan)', '25.01');
    await submit();
    await shows('The refund amount is required and cannot exceed the amount paid');
    type('Refund amount (yuan)', '12.5');
    await submit();
    await shows('Please choose the refund reason');
    await step(() => fireEvent.click(screen.getByText('Damaged')));
    await submit();
    await shows('Please describe the problem: 1 to 100 characters');
    type('Supplementary description', 'x'.repeat(101));
    expect(screen.getByText('101/100')).toBeTruthy();
    type('Supplementary description', '  The box was crushed.  ');
    expect(screen.getByText('20/100')).toBeTruthy();
    await submit();
    await shows('Please upload 1 to 3 proof images');
    expect(calls('shop/drawback')).toEqual([]);

    const url = await uploadImage();
    expect(screen.getByAltText('Proof image 1').getAttribute('src')).toBe(url);
    await submit();
    await shows('Refund requested');
    expect(calls('shop/drawback')).toEqual([
      expect.objectContaining({
        id: 'o5',
        amount: 12.5,
        reason: 'Damaged',
        description: 'The box was crushed.',
        imgs: [url],
        token: USER.token,
      }),
    ]);
    expect(where()).toBe('/shop/user-order-view?id=o5');
    await vi.waitFor(() => expect(screen.getByTestId('refund-status').textContent).toBe('Awaiting the seller'));
    expect(page().getByText('The box was crushed.')).toBeTruthy();
    // A refund under way is not asked for twice.
    expect(page().queryByRole('button', { name: 'Apply for refund' })).toBeNull();
  });

  it('takes up to three proof images, any of which can be removed, and sends the reason as it reads', async () => {
    renderPages('/shop/user-drawback?id=o5');
    await shows('Green tea');
    for (let n = 0; n < 3; n += 1) await uploadImage();
    expect(screen.getAllByRole('img', { name: /^Proof image \d$/ })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Add a proof image' })).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove proof image 2' })));
    expect(screen.getAllByRole('img', { name: /^Proof image \d$/ })).toHaveLength(2);
    await step(() => fireEvent.click(screen.getByText('No longer needed')));
    type('Supplementary description', 'Bought twice by mistake');
    await click('Submit refund');
    await shows('Refund requested');
    expect(calls('shop/drawback')[0]).toMatchObject({ amount: 25, reason: 'No longer needed' });
    expect(calls('shop/drawback')[0]?.['imgs']).toHaveLength(2);
  });

  it("shows the server's refusal in its words and stays on the form", async () => {
    shop.state.refuse['shop/drawback'] = { err: 'a refund of this order is under way', code: 'refund_open' };
    renderPages('/shop/user-drawback?id=o5');
    await shows('Green tea');
    await step(() => fireEvent.click(screen.getByText('Wrong item')));
    type('Supplementary description', 'A cup came instead of tea');
    await uploadImage();
    await click('Submit refund');
    await shows('A refund of this order is under way');
    expect(where()).toBe('/shop/user-drawback?id=o5');
  });

  it('says an ended order cannot be refunded, instead of the form', async () => {
    for (const id of ['o2', 'o3']) {
      renderPages(`/shop/user-drawback?id=${id}`);
      await shows('The order has ended and refund cannot be applied for');
      expect(screen.queryByLabelText('Refund amount (yuan)')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Submit refund' })).toBeNull();
      cleanup();
    }
    renderPages('/shop/user-drawback?id=o4');
    await shows('A refund of this order is under way');
    await click('View the order');
    expect(where()).toBe('/shop/user-order-view?id=o4');
  });

  it('checks an amount as the server does, counted in fen', () => {
    const draft = { amount: '12.5', reason: 'Damaged', description: 'Broken', imgs: ['a'] };
    for (const amount of ['0.01', ' 25 ', '25.00', '0.3'])
      expect(refundProblem({ ...draft, amount }, 25)).toBeUndefined();
    for (const amount of ['', '0', '0.00', '-1', '12.345', '1e1', '25.01', 'abc']) {
      expect(refundProblem({ ...draft, amount }, 25)).toBe('refund_amount_invalid');
    }
    expect(refundProblem({ ...draft, amount: '0.3' }, 0.3)).toBeUndefined();
    expect(refundProblem({ ...draft, reason: ' ' }, 25)).toBe('refund_reason_invalid');
    expect(refundProblem({ ...draft, description: ' ' }, 25)).toBe('refund_description_invalid');
    expect(refundProblem({ ...draft, description: '好'.repeat(100) }, 25)).toBeUndefined();
    expect(refundProblem({ ...draft, imgs: ['a', 'b', 'c', 'd'] }, 25)).toBe('refund_images_invalid');
  });
});

describe('shop/user-order: refunds in my orders', () => {
  it('offers a refund of a paid order, hides confirming receipt while one is under way, and lists refunds', async () => {
    renderPages('/shop/user-order');
    await shows('Green tea');
    expect(within(card('o3')).getByText('Refunded')).toBeTruthy();
    expect(within(card('o3')).queryByRole('button')).toBeNull();
    const open = card('o4');
    expect(within(open).getByText('Refund ¥12.50')).toBeTruthy();
    expect(within(open).getByText('Awaiting the seller')).toBeTruthy();
    expect(within(open).queryByRole('button', { name: 'Confirm receipt' })).toBeNull();
    expect(within(open).queryByRole('button', { name: 'Apply for refund' })).toBeNull();
    expect(within(card('o2')).queryByRole('button', { name: 'Apply for refund' })).toBeNull();

    await step(() => fireEvent.click(within(screen.getByRole('tablist')).getByText('Refunds')));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(calls('shop/order_list').at(-1)).toMatchObject({ status: 'refunding' });
    expect(within(cards()[0] as HTMLElement).getByText('Product p1')).toBeTruthy();

    await step(() => fireEvent.click(within(screen.getByRole('tablist')).getByText('To ship')));
    await vi.waitFor(() => expect(within(cards()[0] as HTMLElement).getByText('Green tea')).toBeTruthy());
    await step(() =>
      fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Apply for refund' })),
    );
    expect(where()).toBe('/shop/user-drawback?id=o5');
  });
});

describe('shop/user-order-view: an order with a refund', () => {
  it('shows the refund, and cancels it only once the buyer agrees; then receipt can be confirmed', async () => {
    renderPages('/shop/user-order-view?id=o4');
    await vi.waitFor(() => expect(screen.getByTestId('refund-status').textContent).toBe('Awaiting the seller'));
    for (const text of ['Not as described', 'The leaves are broken.', 'Refund amount']) {
      expect(page().getByText(text)).toBeTruthy();
    }
    expect(screen.getByAltText('Proof image 1').getAttribute('src')).toBe('https://files.test/proof-1.png');
    expect(page().queryByRole('button', { name: 'Confirm receipt' })).toBeNull();

    await click('Cancel refund');
    await asks('Cancel this refund? You can apply again later.');
    await answer('Keep');
    expect(calls('shop/drawback_cancel')).toEqual([]);
    await click('Cancel refund');
    await answer('Cancel refund');
    await shows('Refund cancelled');
    expect(calls('shop/drawback_cancel')).toEqual([expect.objectContaining({ id: 'o4' })]);
    await vi.waitFor(() => expect(screen.queryByTestId('refund-status')).toBeNull());
    expect(page().getByRole('button', { name: 'Confirm receipt' })).toBeTruthy();
    expect(page().getByRole('button', { name: 'Apply for refund' })).toBeTruthy();
  });

  it('sends the goods back when the seller agreed with return: logistics checked first', async () => {
    shop.state.orders[1] = fakeOrder('o4', {
      status: 'shipped',
      ...shipped,
      refund: fakeRefund({ status: 'returning' }),
    });
    renderPages('/shop/user-order-view?id=o4');
    await vi.waitFor(() => expect(screen.getByTestId('refund-status').textContent).toBe('Awaiting return of goods'));
    const send = () => click('Submit return logistics');
    await send();
    await shows('Enter the logistics company: 1 to 20 characters');
    type('Logistics company', 'YTO');
    type('Shipment number', 'YT 1');
    await send();
    await shows('Enter the shipment number: 4 to 40 letters, digits or -');
    expect(calls('shop/drawback_send')).toEqual([]);
    type('Shipment number', ' YT-98765 ');
    await send();
    await shows('Return logistics submitted');
    expect(calls('shop/drawback_send')).toEqual([
      expect.objectContaining({ id: 'o4', company: 'YTO', number: 'YT-98765' }),
    ]);
    await vi.waitFor(() => expect(screen.getByTestId('refund-status').textContent).toBe('Goods sent back'));
    expect(page().getByText('YT-98765')).toBeTruthy();
    expect(screen.queryByLabelText('Logistics company')).toBeNull();
    // Once the goods are on their way back, the refund is the seller's to finish.
    expect(page().queryByRole('button', { name: 'Cancel refund' })).toBeNull();
  });

  it('shows why the seller refused, and lets the buyer apply again; a refunded order says so', async () => {
    const refused = fakeRefund({ status: 'refused', refuse_reason: 'Photos show no damage' });
    shop.state.orders[1] = fakeOrder('o4', { status: 'shipped', ...shipped, refund: refused });
    renderPages('/shop/user-order-view?id=o4');
    await shows('Photos show no damage');
    expect(screen.getByTestId('refund-status').textContent).toBe('Refused');
    expect(page().queryByRole('button', { name: 'Cancel refund' })).toBeNull();
    await click('Apply for refund');
    expect(where()).toBe('/shop/user-drawback?id=o4');
    cleanup();
    renderPages('/shop/user-order-view?id=o3');
    await vi.waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Refunded'));
    expect(screen.getByTestId('refund-status').textContent).toBe('Money refunded');
    expect(page().queryByRole('button', { name: /refund|receipt/i })).toBeNull();
  });
});
