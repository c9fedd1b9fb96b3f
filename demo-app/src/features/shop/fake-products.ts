import { http, HttpResponse } from 'msw';
import type { FakeRefundKit } from './fake-refunds';
import type { FakeShopState } from './fake-shop';
import { productProblem, type Product } from './products';

/** What the seller's product handlers share with the rest of the fake shop: the same as the refund handlers. */
export type FakeProductKit = FakeRefundKit;

/** The details `shop/view` gives product `id`: as last saved, else the fake's standing text. */
export function fakeContent(state: FakeShopState, id: string): string {
  return state.contents[id] ?? 'Picked in April.';
}

/** The server's words for each refusal of a product's fields, by code. */
const PROBLEM_TEXT = {
  product_images_invalid: 'please upload 1 to 9 product images',
  product_title_invalid: 'please enter the product title: 2 to 60 characters',
  product_price_invalid: 'please enter a correct price',
  category_missing: 'the classification does not exist, reselect',
  product_stock_invalid: 'please enter the stock: a whole number',
  product_content_invalid: 'please enter the product details',
} as const;

/** A field as sent: a string or number as typed, anything else as nothing. */
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

const sameImages = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((url, index) => url === b[index]);

/**
 * The seller's product calls of the fake shop, answered as the server does: `shop/business_list` lists the products
 * of `state.myShop`, in `state.products`' order; `shop/business_edit` changes one of them, checked as when added. A
 * change of title, images, details or classification, or any change of a rejected product, sends it back to review
 * (`pending`, its reason cleared); price and stock alone leave its status. A prohibited product, or one of another
 * shop, is `product_missing`. The details saved are in `state.contents`.
 */
export function productHandlers({ state, record, refused }: FakeProductKit) {
  const mine = (product: Product) => state.myShop !== null && product.shop_id === state.myShop.id;
  return [
    http.post('*/index.php/api/shop/business_list', async ({ request }) => {
      await record('shop/business_list', request);
      return HttpResponse.json({ ret: state.products.filter(mine) });
    }),
    http.post('*/index.php/api/shop/business_edit', async ({ request }) => {
      const { body, refusal } = await record('shop/business_edit', request);
      if (refusal) return HttpResponse.json(refusal);
      const product = state.products.find((item) => item.id === body['id']);
      if (!product || !mine(product) || product.status === 'banned') {
        return refused('product_missing', 'the product does not exist, return to the cart');
      }
      const imgs = Array.isArray(body['imgs']) ? body['imgs'].map(String) : [];
      const fields = {
        imgs,
        title: text(body['title']),
        price: text(body['price']),
        typeid: typeof body['typeid'] === 'string' && body['typeid'] !== '' ? body['typeid'] : undefined,
        stock: text(body['stock']),
        content: text(body['content']),
      };
      const problem = productProblem(fields);
      if (problem !== undefined) return refused(problem, PROBLEM_TEXT[problem]);
      const reviewed =
        product.status === 'rejected' ||
        fields.title.trim() !== product.title ||
        !sameImages(imgs, product.images) ||
        fields.content.trim() !== fakeContent(state, product.id) ||
        fields.typeid !== product.typeid;
      const saved: Product = {
        ...product,
        images: imgs,
        title: fields.title.trim(),
        price: Number(fields.price),
        typeid: fields.typeid ?? product.typeid,
        stock: Number(fields.stock),
        ...(reviewed && { status: 'pending' as const, reason: '' }),
      };
      state.products = state.products.map((item) => (item.id === saved.id ? saved : item));
      state.contents[saved.id] = fields.content.trim();
      return HttpResponse.json({ ret: saved });
    }),
  ];
}
