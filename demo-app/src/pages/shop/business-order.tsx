import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { SellerActions } from '../../features/shop/OrderActions';
import { OrderCard } from '../../features/shop/OrderCard';
import { ORDERS_QUERY, shopOrderPage, type OrderFilter } from '../../features/shop/orders';
import { OrderTabs } from '../../features/shop/OrderTabs';
import { NavBar } from '../../ui/NavBar';

/**
 * The seller's tabs, in the spec's order: unpaid, awaiting delivery, shipped, refunds (under way) and refunded (ended),
 * needs review (completed, the buyer yet to review), successful, closed.
 */
const TABS: readonly OrderFilter[] = [
  'unpaid',
  'paid',
  'shipped',
  'refunding',
  'refunded',
  'unreviewed',
  'completed',
  'cancelled',
];

/** The seller's orders of `status`, newest first, a page at a time, each with its action. */
function ShopOrders({ status }: { status: OrderFilter }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [ORDERS_QUERY, 'shop', user?.id, status],
    (before) => shopOrderPage({ status, before }, context),
    user !== null,
  );
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={t('order.none')} description="" />}>
      {(orders) =>
        orders.map((order) => (
          <OrderCard
            key={order.id}
            order={order}
            side="seller"
            heading={t('order.receiver', { name: order.address.name })}
            actions={<SellerActions order={order} />}
            onOpen={() => open(`shop/business-order-view?id=${encodeURIComponent(order.id)}`)}
          />
        ))
      }
    </PagedList>
  );
}

/**
 * The seller's orders (spec §2 shop/business-order, "Seller order tabs: unpaid, awaiting delivery, shipped, refunded,
 * needs review, successful, closed"): refunds as those under way and those refunded, and needs review as the
 * completed orders the buyer can still review; each order with its receiver, products, total, state, guarantee claim
 * and refund; a paid one is shipped on shop/business-send, a refund under way handled on shop/business-drawback;
 * tapped, an order opens on shop/business-order-view.
 */
export default function BusinessOrders() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shop.orders')} />
      <OrderTabs tabs={TABS} title={(status) => t(`order.seller_${status}`)}>
        {(status) => <ShopOrders status={status} />}
      </OrderTabs>
    </div>
  );
}
