// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeProduct, fakeShop, openShop } from '../../features/shop/fake-shop';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddProduct from './business-add';
import MyProducts from './business-list';

const USER = { token: 'seller-token', id: '7', username: 'Bob', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';
const shop = fakeShop();
const api = setupServer(
  NO_ADS,
  ...shop.handlers,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/shop/typeid', () =>
    HttpResponse.json({
      ret: [
        { id: 'c1', name: 'Tea' },
        { id: 'c2', name: 'Cups' },
      ],
    }),
  ),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  shop.reset();
  shop.state.myShop = openShop();
  shop.state.products = [
    fakeProduct('p1', { images: ['https://files.test/p1.png', 'https://files.test/p1b.png'] }),
    fakeProduct('p2', { status: 'rejected', reason: 'Blurred photos' }),
    fakeProduct('p3', { status: 'banned', reason: 'Counterfeit' }),
  ];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <>
      <Routes>
        <Route path="/shop/business-add" element={<AddProduct />} />
        <Route path="/shop/business-list" element={<MyProducts />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path },
  );
}

const where = () => screen.getByTestId('where').textContent;
const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
const edits = () => shop.sent.filter((call) => call.path === 'shop/business_edit');
const row = (title: string) =>
  screen.getAllByTestId('my-product').find((item) => within(item).queryByText(title)) as HTMLElement;
const REVIEW_NOTE = 'Changing the title, images, details or classification sends it to review again.';

/** Opens product `id`'s edit page and waits for its form and classifications. */
async function openEditor(id: string) {
  renderPages(`/shop/business-add?id=${id}`);
  await shows('Edit product');
  await step(() => shows('Cups'));
}

describe('shop/business-add?id=: editing a product', () => {
  it('fills the form in with the product as it stands, and says what sends it back to review', async () => {
    shop.state.contents['p1'] = 'Picked in April.\nPacked by hand.';
    await openEditor('p1');
    expect(field('Title').value).toBe('Product p1');
    expect(field('Price (yuan)').value).toBe('12.5');
    expect(field('Stock').value).toBe('3');
    expect(field('Details').value).toBe('Picked in April.\nPacked by hand.');
    expect(screen.getByAltText('Image 1')).toBeTruthy();
    expect(screen.getByAltText('Image 2')).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Tea', selected: true })).toBeTruthy();
    expect(screen.getByText(REVIEW_NOTE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit for review' })).toBeNull();
  });

  it('saves a new price and stock and the product stays on sale', async () => {
    await openEditor('p1');
    type('Price (yuan)', '13.8');
    type('Stock', '20');
    await save();
    await shows('Saved');
    expect(where()).toBe('/shop/business-list');
    await step(() => shows('¥13.80 · 20 in stock'));
    expect(within(row('Product p1')).getByText('On sale')).toBeTruthy();
    expect(edits()).toEqual([
      {
        path: 'shop/business_edit',
        body: expect.objectContaining({
          token: 'seller-token',
          id: 'p1',
          imgs: ['https://files.test/p1.png', 'https://files.test/p1b.png'],
          title: 'Product p1',
          price: 13.8,
          typeid: 'c1',
          stock: 20,
          content: 'Picked in April.',
        }) as unknown,
      },
    ]);
  });

  it('sends a product whose title changed back to review, and says so', async () => {
    await openEditor('p1');
    type('Title', 'Spring green tea');
    await save();
    await shows('Saved; the product is under review again');
    expect(where()).toBe('/shop/business-list');
    await step(() => shows('Spring green tea'));
    expect(within(row('Spring green tea')).getByText('To be reviewed')).toBeTruthy();
  });

  it('saves a product under review with "Saved": it was under review already', async () => {
    shop.state.products = [fakeProduct('p4', { status: 'pending' })];
    await openEditor('p4');
    expect(screen.queryByText(REVIEW_NOTE)).toBeNull();
    type('Title', 'Autumn tea');
    await save();
    await shows('Saved');
    expect(screen.queryByText('Saved; the product is under review again')).toBeNull();
  });

  it('checks each field in order before sending, and sends nothing while one is wrong', async () => {
    await openEditor('p1');
    const tea = () => fireEvent.click(screen.getByRole('option', { name: 'Tea' }));
    for (const [change, message] of [
      [() => (type('Title', 'T'), type('Price (yuan)', '0')), 'Enter the product title: 2 to 60 characters'],
      [() => type('Title', 'Spring green tea'), 'Enter a correct price'],
      [() => (type('Price (yuan)', '13'), tea(), type('Stock', '1.5')), 'The classification does not exist, reselect'],
      [tea, 'Enter the stock: a whole number'],
      [() => (type('Stock', '4'), type('Details', '  ')), 'Enter the product details'],
      [
        () => {
          type('Details', 'Picked in May.');
          type('Title', 'T');
          for (let n = 0; n < 2; n += 1) fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' }));
        },
        'Please upload 1 to 9 product images',
      ],
    ] as const) {
      await step(change);
      await save();
      await shows(message);
    }
    expect(edits()).toEqual([]);
    expect(where()).toBe('/shop/business-add?id=p1');
  });

  it("says when the product is not the seller's, read or saved", async () => {
    renderPages('/shop/business-add?id=gone');
    await shows('The product does not exist, return to the cart');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    cleanup();
    await openEditor('p1');
    shop.state.refuse['shop/business_edit'] = {
      err: 'the product does not exist, return to the cart',
      code: 'product_missing',
    };
    await save();
    await shows('The product does not exist, return to the cart');
    expect(where()).toBe('/shop/business-add?id=p1');
  });

  it('edits no prohibited product', async () => {
    renderPages('/shop/business-add?id=p3');
    await shows('A prohibited product cannot be edited');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('shop/business-list: Edit and Edit and resubmit', () => {
  it('offers Edit on every product but a prohibited one, a rejected one to resubmit by its reason', async () => {
    shop.state.products = [...shop.state.products, fakeProduct('p4', { status: 'pending' })];
    renderPages('/shop/business-list');
    await shows('Reason: Blurred photos');
    expect(within(row('Product p1')).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(row('Product p4')).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(row('Product p3')).queryByRole('button')).toBeNull();
    const reason = screen.getByText('Reason: Blurred photos').closest('div') as HTMLElement;
    expect(within(reason).getByRole('button', { name: 'Edit and resubmit' })).toBeTruthy();
    expect(within(row('Product p2')).queryByRole('button', { name: 'Edit' })).toBeNull();
    await step(() => fireEvent.click(within(row('Product p1')).getByRole('button', { name: 'Edit' })));
    expect(where()).toBe('/shop/business-add?id=p1');
  });

  it('resubmits a rejected product: any change sends it back to review, its reason cleared', async () => {
    renderPages('/shop/business-list');
    await shows('Reason: Blurred photos');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Edit and resubmit' })));
    expect(where()).toBe('/shop/business-add?id=p2');
    await shows('Saving submits it for review again.');
    await step(() => shows('Cups'));
    type('Stock', '9');
    await save();
    await shows('Saved; the product is under review again');
    expect(where()).toBe('/shop/business-list');
    await step(() => shows('¥12.50 · 9 in stock'));
    expect(within(row('Product p2')).getByText('To be reviewed')).toBeTruthy();
    expect(screen.queryByText('Reason: Blurred photos')).toBeNull();
  });
});
