import { http, HttpResponse } from 'msw';
import { PAGE_SIZE } from '../api/paged';
import type { FakeRefundKit } from './fake-refunds';
import type { FakeShopState } from './fake-shop';
import { MARK_LIMITS, MARK_LISTS, type MarkList, type MarkedProduct } from './marks';
import type { Product } from './products';

/** A product in one of the member's lists of the fake shop: its id, and when it entered the list (ms). */
export interface FakeMark {
  id: string;
  marked_at: number;
}

/** What the favourite and history handlers share with the rest of the fake shop: the same as the refund handlers. */
export type FakeMarkKit = FakeRefundKit;

/** `marks` with product `id` on top, marked now, at most `max` of them. */
const marking = (marks: readonly FakeMark[], id: string, max: number): FakeMark[] =>
  [{ id, marked_at: Date.now() }, ...marks.filter((mark) => mark.id !== id)].slice(0, max);

/**
 * What `shop/view` adds for the member who sent `token` (nothing for a visitor): whether they keep `product`, and
 * their look at it, on top of their browsing history (the latest 100), unless it is of their own shop.
 */
export function viewMarks(state: FakeShopState, product: Product, token: unknown): { collected: boolean } {
  if (typeof token !== 'string' || token === '') return { collected: false };
  if (product.shop_id !== state.myShop?.id) state.history = marking(state.history, product.id, MARK_LIMITS.history);
  return { collected: state.favourites.some((mark) => mark.id === product.id) };
}

/**
 * The favourite and browsing-history calls of the fake shop (spec §2 shop/shoucang and shop/history), each checked
 * and answered as the server does: a product the member can see is kept (again: moved to the top) or let go, at most
 * 500; either list is read twenty at a time, the latest first, each product as it is now with its `marked_at`; and
 * products are taken out by id (1 to 100) or all at once. The lists are `state.favourites` and `state.history`, the
 * latest first.
 */
export function markHandlers({ state, record, refused }: FakeMarkKit) {
  const products = (marks: readonly FakeMark[]): MarkedProduct[] =>
    marks.flatMap((mark) => {
      const product = state.products.find((item) => item.id === mark.id);
      return product ? [{ ...product, marked_at: mark.marked_at }] : [];
    });
  const listOf = (list: MarkList) => (list === 'favourites' ? state.favourites : state.history);
  const store = (list: MarkList, marks: FakeMark[]) => {
    if (list === 'favourites') state.favourites = marks;
    else state.history = marks;
  };

  const lists = (Object.keys(MARK_LISTS) as MarkList[]).flatMap((list) => [
    http.post(`*/index.php/api/${MARK_LISTS[list].list}`, async ({ request }) => {
      const { body, refusal } = await record(MARK_LISTS[list].list, request);
      if (refusal) return HttpResponse.json(refusal);
      const all = products(listOf(list));
      const before = body['before'];
      const from = before === undefined ? 0 : all.findIndex((product) => product.id === before) + 1;
      return HttpResponse.json({ ret: all.slice(from, from + PAGE_SIZE) });
    }),
    http.post(`*/index.php/api/${MARK_LISTS[list].remove}`, async ({ request }) => {
      const { body, refusal } = await record(MARK_LISTS[list].remove, request);
      if (refusal) return HttpResponse.json(refusal);
      const ids = body['ids'];
      const marks = listOf(list);
      if (ids === undefined) {
        store(list, []);
        return HttpResponse.json({ ret: { removed: marks.length } });
      }
      if (!Array.isArray(ids) || ids.length < 1 || ids.length > MARK_LIMITS.removeMax) {
        return refused('bad_params', 'parameter error');
      }
      const kept = marks.filter((mark) => !ids.includes(mark.id));
      store(list, kept);
      return HttpResponse.json({ ret: { removed: marks.length - kept.length } });
    }),
  ]);

  return [
    http.post('*/index.php/api/shop/shoucang', async ({ request }) => {
      const { body, refusal } = await record('shop/shoucang', request);
      if (refusal) return HttpResponse.json(refusal);
      const product = state.products.find((item) => item.id === body['id']);
      if (!product || (product.status !== 'on_sale' && product.shop_id !== state.myShop?.id)) {
        return refused('product_missing', 'the product does not exist, return to the cart');
      }
      if (body['shoucang'] !== true) {
        state.favourites = state.favourites.filter((mark) => mark.id !== product.id);
        return HttpResponse.json({ ret: { collected: false } });
      }
      const kept = state.favourites.some((mark) => mark.id === product.id);
      if (!kept && state.favourites.length >= MARK_LIMITS.favourites) {
        return refused('favourite_limit', 'you can keep at most 500 favourites: remove some first');
      }
      state.favourites = marking(state.favourites, product.id, MARK_LIMITS.favourites);
      return HttpResponse.json({ ret: { collected: true } });
    }),
    ...lists,
  ];
}
