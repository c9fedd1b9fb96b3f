import { apiPost, type CallContext } from '../api/request';
import type { Product } from './products';

/** The query key of the member's favourites and browsing history; invalidating it refreshes both lists. */
export const MARKS_QUERY = 'product-marks';

/**
 * The member's two lists of products (spec §1 "favourites, browsing history"): those they keep (spec §2
 * shop/shoucang) and those they looked at (spec §2 shop/history), each with its calls.
 */
export const MARK_LISTS = {
  favourites: { list: 'shop/shoucang_list', remove: 'shop/shoucang_del' },
  history: { list: 'shop/history', remove: 'shop/history_del' },
} as const;

/** One of {@link MARK_LISTS}. */
export type MarkList = keyof typeof MARK_LISTS;

/**
 * Bounds of the lists; the server checks the same: at most 500 favourites (`favourite_limit`), the latest 100 looks
 * kept, and 1 to 100 products taken out by one call.
 */
export const MARK_LIMITS = { favourites: 500, history: 100, removeMax: 100 } as const;

/** A product of one of the member's lists, as it is now (whatever its status), with when it entered the list (ms). */
export type MarkedProduct = Product & { marked_at: number };

/** Whether `product` can still be opened and bought: only one on sale; the others show as no longer available. */
export function markAvailable(product: Product): boolean {
  return product.status === 'on_sale';
}

/** Keeps product `id` as a favourite (`keep`) or lets it go; resolves with whether it is kept now. */
export async function keepProduct(id: string, keep: boolean, context: CallContext): Promise<boolean> {
  const body = { id, shoucang: keep };
  return (await apiPost<{ ret: { collected: boolean } }>('shop/shoucang', body, context)).ret.collected;
}

/** A page of the member's `list`, the latest first, `before` the product with that id. */
export async function markPage(
  list: MarkList,
  before: string | undefined,
  context: CallContext,
): Promise<MarkedProduct[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: MarkedProduct[] }>(MARK_LISTS[list].list, body, context)).ret;
}

/**
 * Takes products `ids` out of the member's `list`, {@link MARK_LIMITS}.removeMax a call, or every one of them when
 * `ids` is `'all'`; resolves with how many were taken out.
 */
export async function unmarkProducts(
  list: MarkList,
  ids: readonly string[] | 'all',
  context: CallContext,
): Promise<number> {
  const path = MARK_LISTS[list].remove;
  const remove = async (body: Record<string, unknown>) =>
    (await apiPost<{ ret: { removed: number } }>(path, body, context, { loading: true })).ret.removed;
  if (ids === 'all') return remove({});
  let removed = 0;
  // One after the other: a failure stops there, and what was taken out before it stays out.
  for (let from = 0; from < ids.length; from += MARK_LIMITS.removeMax) {
    removed += await remove({ ids: ids.slice(from, from + MARK_LIMITS.removeMax) });
  }
  return removed;
}

/** The products of one day, in the order of the list. */
export interface MarkDay {
  /** The day's start, local time, in ms. */
  day: number;
  products: MarkedProduct[];
}

/** The local start of the day of `time` (ms). */
export function startOfDay(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** `products` (the latest first) grouped by the local day of their `marked_at`, the latest day first. */
export function markDays(products: readonly MarkedProduct[]): MarkDay[] {
  const days: MarkDay[] = [];
  for (const product of products) {
    const day = startOfDay(product.marked_at);
    const last = days.at(-1);
    if (last?.day === day) last.products.push(product);
    else days.push({ day, products: [product] });
  }
  return days;
}

/** How many days before the day of `now` the day starting at `day` is: 0 today, 1 yesterday (local calendar days). */
export function daysAgo(day: number, now: number): number {
  const today = new Date(startOfDay(now));
  const then = new Date(day);
  // Calendar days rather than 24-hour spans, so that a day of 23 or 25 hours (daylight saving) counts as one.
  const utc = (date: Date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((utc(today) - utc(then)) / 86_400_000);
}
