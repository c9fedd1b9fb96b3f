import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { QueryView } from '../api/QueryView';
import { NavBar } from '../../ui/NavBar';
import { ORDERS_QUERY, orderView, type Order } from './orders';

/**
 * A page about one order of the signed-in member's, named by the `id` parameter (spec §2 shop/user-order-view,
 * user-drawback, user-ping-add, business-send and the seller's refund page): the order read with `shop/order_view`
 * under `title`, then `children` of it; loading and refusals as every query shows them. Nothing for a visitor, whom
 * the router sends to sign in.
 */
export function OrderPage({ title, children }: { title: string; children: (order: Order) => ReactNode }) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: [ORDERS_QUERY, 'view', id, user?.id],
    queryFn: () => orderView(id, { token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={title} />
      <QueryView query={query}>{children}</QueryView>
    </div>
  );
}
