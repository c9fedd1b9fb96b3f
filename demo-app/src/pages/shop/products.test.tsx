// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY } from '../../features/api/config';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { productProblem, type Product } from '../../features/shop/products';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddProduct from './business-add';
import MyProducts from './business-list';
import ShopPage from './index';
import ShopFrontPage from './shop';
import ProductView from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const CATEGORIES = [
  { id: 'c1', name: 'Tea' },
  { id: 'c2', name: 'Cups' },
];
const product = (id: string, extra: Partial<Product> = {}): Product => ({
  id,
  shop_id: 's1',
  typeid: 'c1',
  title: `Product ${id}`,
  price: 12.5,
  stock: 3,
  images: [`${UPLOAD_URL}/${id}.png`],
  status: 'on_sale',
  reason: '',
  created_at: 1_700_000_000_000,
  ...extra,
});

/** The fake server's state, and what was sent to it. */
let onSale: Product[] = [];
let mine: Product[] = [];
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/shop/typeid', () => HttpResponse.json({ ret: CATEGORIES })),
  http.post('*/index.php/api/shop/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'list', body });
    const { typeid, shop } = body;
    const listed = onSale.filter((p) => typeid === undefined || p.typeid === typeid);
    return HttpResponse.json({ ret: listed.filter((p) => shop === undefined || p.shop_id === shop) });
  }),
  http.post('*/index.php/api/shop/view', async ({ request }) => {
    const { id } = (await request.json()) as { id: string };
    const found = [...onSale, ...mine].find((p) => p.id === id);
    if (!found)
      return HttpResponse.json({ err: 'the product does not exist, return to the cart', code: 'product_missing' });
    // The member keeps no favourites (shop/shoucang's tests cover them).
    return HttpResponse.json({
      ret: { ...found, content: 'Picked in April.\nPacked by hand.', collected: false },
      shop: { id: 's1', name: 'Hill Tea House', icon: `${UPLOAD_URL}/icon.png` },
    });
  }),
  http.post('*/index.php/api/shop/business_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'business_add', body });
    const added = product('new', { title: String(body['title']), status: 'pending' });
    mine = [added, ...mine];
    return HttpResponse.json({ ret: added });
  }),
  http.post('*/index.php/api/shop/business_list', () => HttpResponse.json({ ret: mine })),
  http.post('*/index.php/api/shop/shop', async ({ request }) => {
    const { id } = (await request.json()) as { id: string };
    if (id !== 's1') return HttpResponse.json({ err: 'the shop does not exist or is closed', code: 'shop_missing' });
    const icon = `${UPLOAD_URL}/icon.png`;
    return HttpResponse.json({ ret: { id, name: 'Hill Tea House', icon, intro: 'Tea from the hills', opened_at: 1 } });
  }),
  // No product has reviews yet (shop/view-ping's tests cover them).
  http.post('*/index.php/api/shop/ping_list', () =>
    HttpResponse.json({ ret: [], summary: { count: 0, quality: 0, service: 0, logistics: 0 } }),
  ),
  // The member has no shop: no product on sale is theirs.
  http.post('*/index.php/api/shop/apply_info', () => HttpResponse.json({ ret: { certified: false, shop: null } })),
  http.post('*/index.php/api/shop/business_shelf', async ({ request }) => {
    const body = (await request.json()) as { id: string; on: boolean };
    sent.push({ path: 'business_shelf', body });
    mine = mine.map((p) => (p.id === body.id ? { ...p, status: body.on ? 'on_sale' : 'off_shelf' } : p));
    return HttpResponse.json({ ret: mine.find((p) => p.id === body.id) });
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
  onSale = [];
  mine = [];
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
        <Route path="/pages/shop/index" element={<ShopPage />} />
        <Route path="/shop/view" element={<ProductView />} />
        <Route path="/shop/shop" element={<ShopFrontPage />} />
        <Route path="/shop/business-add" element={<AddProduct />} />
        <Route path="/shop/business-list" element={<MyProducts />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

describe('pages/shop/index: the shop tab', () => {
  it('lists products on sale, all or by classification, and opens one', async () => {
    onSale = [product('p1'), product('p2', { typeid: 'c2', title: 'Blue cup', stock: 0 })];
    const { queryClient } = renderPages('/pages/shop/index');
    await shows('Product p1');
    // The app config, as the app loads it (queries do not run by themselves in these tests).
    await step(() =>
      queryClient.setQueryData(CONFIG_KEY, {
        kefu_h5: '',
        emoji: {},
        aliyun: { upload_url: UPLOAD_URL, image_resize: true },
        app_show: true,
        im: { appkey: '' },
      }),
    );
    expect(screen.getAllByTestId('product')).toHaveLength(2);
    // UP-20: the grid asks the storage for a thumbnail, not the whole picture.
    const thumb = () => screen.getAllByTestId('product')[0]?.querySelector('img')?.getAttribute('src');
    await vi.waitFor(() =>
      expect(thumb()).toMatch(new RegExp(`^${UPLOAD_URL}/p1\\.png\\?x-oss-process=image/resize,m_lfit,w_(256|512)$`)),
    );
    expect(screen.getByText('Sold out')).toBeTruthy();
    expect(screen.getAllByText('¥12.50')).toHaveLength(2);
    await step(() => fireEvent.click(screen.getByText('Cups')));
    await vi.waitFor(() => expect(screen.getAllByTestId('product')).toHaveLength(1));
    expect(sent.at(-1)).toEqual({ path: 'list', body: expect.objectContaining({ typeid: 'c2' }) as unknown });
    await step(() => fireEvent.click(screen.getByText('Blue cup')));
    expect(screen.getByTestId('where').textContent).toBe('/shop/view?id=p2');
  });

  it('says when nothing is on sale', async () => {
    renderPages('/pages/shop/index');
    await shows('No products on sale yet');
  });
});

describe('shop/view: a product', () => {
  it('shows the images, price, stock, shop and details', async () => {
    onSale = [product('p1', { images: ['a.png', 'b.png'] })];
    renderPages('/shop/view?id=p1');
    await shows('Hill Tea House');
    expect(screen.getByTestId('price').textContent).toBe('¥12.50');
    expect(screen.getByText('3 in stock')).toBeTruthy();
    expect(screen.getByText(/Packed by hand/)).toBeTruthy();
    expect(screen.getByAltText('Image 2')).toBeTruthy();
    await shows('Add to cart');
    expect(screen.getByRole('button', { name: 'Buy now' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add to favourites' })).toBeTruthy();
  });

  it("shows the seller's own one with its state, and says when there is none", async () => {
    mine = [product('p9', { status: 'rejected', reason: 'Blurred photos' })];
    renderPages('/shop/view?id=p9');
    await shows('Rejected: Blurred photos');
    // Only its seller sees a product not on sale: nothing to buy, nor to keep.
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to favourites' })).toBeNull();
    cleanup();
    renderPages('/shop/view?id=gone');
    await shows('The product does not exist, return to the cart');
  });
});

describe('shop/shop: a shop', () => {
  it("opens from a product's page: the shop's head and its products on sale only", async () => {
    onSale = [product('p1'), product('p2', { shop_id: 's2', title: 'Elsewhere' })];
    renderPages('/shop/view?id=p1');
    await shows('Hill Tea House');
    await step(() => fireEvent.click(screen.getByText('Hill Tea House')));
    expect(screen.getByTestId('where').textContent).toBe('/shop/shop?id=s1');
    await shows('Tea from the hills');
    await shows('Product p1');
    expect(screen.queryByText('Elsewhere')).toBeNull();
    expect(sent.at(-1)).toEqual({ path: 'list', body: expect.objectContaining({ shop: 's1' }) as unknown });
  });

  it('says when the shop is not open', async () => {
    renderPages('/shop/shop?id=s9');
    await shows('The shop does not exist or is closed');
    expect(screen.queryByTestId('product')).toBeNull();
  });
});

describe('shop/business-add and business-list: the seller', () => {
  it('checks each field in order before sending, then adds it and lists it to be reviewed', async () => {
    renderPages('/shop/business-add');
    await shows('Tea');
    const submit = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Submit for review' })));
    await submit();
    await shows('Please upload 1 to 9 product images');
    const xhr = posted();
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'tea.png', { type: 'image/png' });
    await step(() =>
      fireEvent.change(screen.getByLabelText('Add an image', { selector: 'input' }), { target: { files: [png] } }),
    );
    const request = await xhr;
    const key = request.form()[1]?.[1] ?? '';
    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    await vi.waitFor(() => expect(screen.queryByTestId('product-progress')).toBeNull());
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    for (const [label, value, message] of [
      ['Title', 'T', 'Enter the product title: 2 to 60 characters'],
      ['Title', 'Spring green tea', 'Enter a correct price'],
      ['Price (yuan)', '12.345', 'Enter a correct price'],
      ['Price (yuan)', '12.5', 'The classification does not exist, reselect'],
    ] as const) {
      type(label, value);
      await submit();
      await shows(message);
    }
    await step(() => fireEvent.click(screen.getByText('Tea')));
    type('Stock', '1.5');
    await submit();
    await shows('Enter the stock: a whole number');
    type('Stock', '30');
    await submit();
    await shows('Enter the product details');
    expect(sent).toEqual([]);
    type('Details', 'Picked in April.');
    await submit();
    await shows('To be reviewed');
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-list');
    expect(sent).toEqual([
      {
        path: 'business_add',
        body: expect.objectContaining({
          imgs: [`${UPLOAD_URL}/${key}`],
          title: 'Spring green tea',
          price: 12.5,
          typeid: 'c1',
          stock: 30,
          content: 'Picked in April.',
        }) as unknown,
      },
    ]);
  });

  it('takes a product off the shelf and puts it back; a rejected one shows its reason and no shelf', async () => {
    mine = [product('p1'), product('p2', { status: 'rejected', reason: 'Blurred photos' })];
    renderPages('/shop/business-list');
    await shows('Reason: Blurred photos');
    const rows = () => screen.getAllByTestId('my-product');
    expect(within(rows()[1] as HTMLElement).queryByRole('button', { name: /shelf/ })).toBeNull();
    await step(() =>
      fireEvent.click(within(rows()[0] as HTMLElement).getByRole('button', { name: 'Take off the shelf' })),
    );
    await shows('Off the shelf');
    await step(() =>
      fireEvent.click(within(rows()[0] as HTMLElement).getByRole('button', { name: 'Put on the shelf' })),
    );
    await vi.waitFor(() => expect(within(rows()[0] as HTMLElement).getByText('On sale')).toBeTruthy());
    expect(sent.map((call) => call.body)).toEqual([
      expect.objectContaining({ id: 'p1', on: false }),
      expect.objectContaining({ id: 'p1', on: true }),
    ]);
    // The shelf button does not open the product; the row does.
    expect(screen.getByTestId('where').textContent).toBe('/shop/business-list');
  });

  it('checks a product as the server does', () => {
    const good = { imgs: ['a'], title: 'Tea', price: '0.01', typeid: 'c1', stock: '0', content: 'x' };
    expect(productProblem(good)).toBeUndefined();
    expect(productProblem({ ...good, price: '0' })).toBe('product_price_invalid');
    expect(productProblem({ ...good, price: '1000000.01' })).toBe('product_price_invalid');
    expect(productProblem({ ...good, stock: '1000000' })).toBe('product_stock_invalid');
    expect(productProblem({ ...good, imgs: Array.from({ length: 10 }, () => 'a') })).toBe('product_images_invalid');
    expect(productProblem({ ...good, content: 'x'.repeat(5001) })).toBe('product_content_invalid');
  });
});
