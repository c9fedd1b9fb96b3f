import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { isRefusal } from '../api/request';
import { ORDER_LIMITS } from './orders';
import { productView, productViewKey, type ProductPage } from './products';

/**
 * A product the cart or the payment page holds, as `shop/view` answers it now: loading; gone (`product_missing`: taken
 * off sale or deleted since); failed otherwise, to retry; or ready, with how many of it can be bought (`max`, 0 when
 * none can: sold out, or not on sale).
 */
export type ProductLine =
  | { kind: 'loading'; id: string }
  | { kind: 'missing'; id: string; error: unknown }
  | { kind: 'failed'; id: string; error: unknown; retry: () => void }
  | { kind: 'ready'; id: string; product: ProductPage['product']; max: number };

/** How many of `product` one order can take: its stock, at most 99, and none unless it is on sale. */
export function buyableOf(product: ProductPage['product']): number {
  return product.status === 'on_sale' ? Math.max(0, Math.min(ORDER_LIMITS.num, product.stock)) : 0;
}

/** Products `ids`, each read with `shop/view` (sharing the product page's cache), in the order of `ids`. */
export function useProductLines(ids: readonly string[]): ProductLine[] {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const queries = useQueries({
    queries: ids.map((id) => ({
      queryKey: productViewKey(id, user?.id),
      queryFn: () => productView(id, context),
      enabled: true,
      retry: false,
    })),
  });
  return ids.map((id, index): ProductLine => {
    const query = queries[index];
    if (!query || query.isPending) return { kind: 'loading', id };
    if (query.isError) {
      return isRefusal(query.error) && query.error.code === 'product_missing'
        ? { kind: 'missing', id, error: query.error }
        : { kind: 'failed', id, error: query.error, retry: () => void query.refetch() };
    }
    return { kind: 'ready', id, product: query.data.product, max: buyableOf(query.data.product) };
  });
}
