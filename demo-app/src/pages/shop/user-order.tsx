import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { BuyerActions } from '../../features/shop/OrderActions';
import { OrderCard } from '../../features/shop/OrderCard';
import { ORDERS_QUERY, myOrderPage, type OrderFilter } from '../../features/shop/orders';
import { OrderTabs } from '../../features/shop/OrderTabs';
import { NavBar } from '../../ui/NavBar';

/**
 * The buyer's tabs: all orders, one per status an order goes through with those to review once received, then those
 * with a refund under way (a refunded order has ended, and shows under All).
 */
const TABS: readonly ('all' | OrderFilter)[] = [
  'all',
  'unpaid',
  'paid',
  'shipped',
  'unreviewed',
  'completed',
  'cancelled',
  'refunding',
];

/** The buyer's orders of `status` (all without it), newest first, a page at a time. */
function BuyerOrders({ status }: { status: OrderFilter | undefined }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [ORDERS_QUERY, 'mine', user?.id, status ?? 'all'],
    (before) => myOrderPage({ status, before }, context),
    user !== null,
  );
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={t('order.none')} description="" />}>
      {(orders) =>
        orders.map((order) => (
          <OrderCard
            key={order.id}
            order={order}
            side="buyer"
            heading={order.shop?.name ?? t('order.shopClosed')}
            actions={<BuyerActions order={order} />}
            onOpen={() => open(`shop/user-order-view?id=${encodeURIComponent(order.id)}`)}
          />
        ))
      }
    </PagedList>
  );
}

/**
 * My orders (spec §2 shop/user-order; "Orders: list by status, detail, cancel, pay, confirm receipt, apply for
 * refund, review"): tabs All, Unpaid, To ship, To receive, To review, Completed, Cancelled and Refunds; each order with
 * its shop, products, total, status and refund, paid or cancelled while unpaid, a refund asked for once paid, its
 * receipt confirmed once shipped, reviewed once completed; tapped, its page opens.
 */
export default function MyOrders() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('order.title')} />
      <OrderTabs tabs={TABS} title={(tab) => (tab === 'all' ? t('order.tab_all') : t(`order.status_${tab}`))}>
        {(tab) => <BuyerOrders status={tab === 'all' ? undefined : tab} />}
      </OrderTabs>
    </div>
  );
}
