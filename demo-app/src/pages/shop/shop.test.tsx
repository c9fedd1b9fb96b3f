// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { shopProblem, type Shop, type ShopInfo } from '../../features/shop/api';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import BusinessIndex from './business-index';
import ShopApplication from './user-add';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const SHOP: Shop = {
  id: 's1',
  name: 'Tea House',
  icon: `${UPLOAD_URL}/icon.png`,
  intro: 'Fresh tea',
  status: 'pending',
  reason: '',
  submitted_at: 1_700_000_000_000,
  reviewed_at: null,
};

/** The fake server's state, and what was sent to it. */
let info: ShopInfo = { certified: true, shop: null, unread_announcements: 0 };
let refusal: { err: string; code: string } | undefined;
const sent: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/shop/apply_info', () => HttpResponse.json({ ret: info })),
  http.post('*/index.php/api/shop/apply', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push(body);
    if (refusal) return HttpResponse.json(refusal);
    const shop: Shop = {
      ...SHOP,
      name: String(body['name']),
      icon: String(body['icon']),
      intro: String(body['intro']),
      status: 'pending',
    };
    info = { ...info, shop };
    return HttpResponse.json({ ret: shop });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  info = { certified: true, shop: null, unread_announcements: 0 };
  refusal = undefined;
  sent.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/user-add" element={<ShopApplication />} />
        <Route path="/shop/business-index" element={<BusinessIndex />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const submit = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Submit for review' })));

/** Picks an icon and lets its upload finish. */
async function uploadIcon(): Promise<string> {
  const xhr = posted();
  const png = new File([new Uint8Array([137, 80, 78, 71])], 'icon.png', { type: 'image/png' });
  await step(() => fireEvent.change(screen.getByTestId('shop-picker'), { target: { files: [png] } }));
  const request = await xhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
  await vi.waitFor(() => expect(screen.queryByTestId('shop-progress')).toBeNull());
  return `${UPLOAD_URL}/${key}`;
}

describe('shop/user-add: open a shop', () => {
  it('sends an uncertified member to certification first', async () => {
    info = { certified: false, shop: null, unread_announcements: 0 };
    renderPages('/shop/user-add');
    await shows('Real-name certification first');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Get certified' })));
    expect(screen.getByTestId('where').textContent).toBe('/member/renzheng');
  });

  it('checks the name, the icon and the description, then submits and shows it under review', async () => {
    renderPages('/shop/user-add');
    await shows('Submit for review');
    await submit();
    await shows('Enter the shop name: 2 to 20 characters');
    fireEvent.change(screen.getByLabelText('Shop name'), { target: { value: ' Tea House ' } });
    await submit();
    await shows('Please upload the shop icon');
    const icon = await uploadIcon();
    await submit();
    await shows('Enter the shop description');
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Fresh tea' } });
    await submit();
    await shows('Your application is under review');
    expect(sent).toEqual([expect.objectContaining({ name: 'Tea House', icon, intro: 'Fresh tea', token: USER.token })]);
    expect(
      screen.getByText('It cannot be edited while it is reviewed. You will be told under Notifications.'),
    ).toBeTruthy();
  });

  it('shows why a rejected one failed, over the form filled with what was sent', async () => {
    info = {
      certified: true,
      shop: { ...SHOP, status: 'rejected', reason: 'The icon is blurred' },
      unread_announcements: 0,
    };
    refusal = { err: 'the shop name is taken', code: 'shop_name_taken' };
    renderPages('/shop/user-add');
    await shows('Your application was rejected: The icon is blurred');
    expect(screen.getByLabelText<HTMLInputElement>('Shop name').value).toBe('Tea House');
    await submit();
    await shows('The shop name is taken');
    expect(sent).toEqual([expect.objectContaining({ name: 'Tea House', icon: SHOP.icon })]);
  });

  it('says when the shop is open, and leads to it', async () => {
    info = { certified: true, shop: { ...SHOP, status: 'approved' }, unread_announcements: 0 };
    renderPages('/shop/user-add');
    await shows('Your shop is open');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Go to my shop' })));
    await shows('Products');
    expect(screen.getByText('Tea House')).toBeTruthy();
  });
});

describe('shop/business-index: my shop', () => {
  it('shows an open shop and its tools', async () => {
    info = { certified: true, shop: { ...SHOP, status: 'approved' }, unread_announcements: 0 };
    renderPages('/shop/business-index');
    await shows('Tea House');
    expect(screen.getByText('Fresh tea')).toBeTruthy();
    for (const tool of ['Products', 'Add a product', 'Orders', 'Announcements', 'Reviews', 'Withdrawal']) {
      expect(screen.getByText(tool)).toBeTruthy();
    }
    await step(() => fireEvent.click(screen.getByText('Add a product')));
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-add');
  });

  it("opens the shop's orders from its tools", async () => {
    info = { certified: true, shop: { ...SHOP, status: 'approved' }, unread_announcements: 0 };
    renderPages('/shop/business-index');
    await shows('Orders');
    await step(() => fireEvent.click(screen.getByText('Orders')));
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-order');
  });

  it('leads a member without a shop to the application, and says where one stands', async () => {
    renderPages('/shop/business-index');
    await shows('You have no shop yet');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Open a shop' })));
    await shows('Submit for review');
    cleanup();
    info = { certified: true, shop: SHOP, unread_announcements: 0 };
    renderPages('/shop/business-index');
    await shows('Your application is under review');
    expect(screen.getByRole('button', { name: 'View the application' })).toBeTruthy();
  });

  it('checks an application as the server does', () => {
    const good = { name: 'Tea House', icon: 'x', intro: 'Tea' };
    expect(shopProblem(good)).toBeUndefined();
    expect(shopProblem({ ...good, name: 'T' })).toBe('shop_name_invalid');
    expect(shopProblem({ ...good, name: 'x'.repeat(21) })).toBe('shop_name_invalid');
    expect(shopProblem({ ...good, icon: '' })).toBe('shop_icon_invalid');
    expect(shopProblem({ ...good, intro: ' ' })).toBe('shop_intro_invalid');
    expect(shopProblem({ ...good, intro: 'x'.repeat(201) })).toBe('shop_intro_invalid');
  });
});
