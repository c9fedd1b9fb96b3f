import { Button, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { OrderCard } from '../../features/shop/OrderCard';
import { ORDERS_QUERY, ORDER_STATUSES, shopOrderPage, type OrderStatus } from '../../features/shop/orders';
import { OrderTabs } from '../../features/shop/OrderTabs';
import { NavBar } from '../../ui/NavBar';

/** The seller's orders of `status`, newest first, a page at a time; a paid one is shipped from its card. */
function ShopOrders({ status }: { status: OrderStatus }) {
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
            actions={
              order.status === 'paid' && (
                <Button
                  size="small"
                  color="primary"
                  onClick={() => open(`shop/business-send?id=${encodeURIComponent(order.id)}`)}
                >
                  {t('order.ship')}
                </Button>
              )
            }
          />
        ))
      }
    </PagedList>
  );
}

/**
 * The seller's orders (spec §2 shop/business-order, "Seller order tabs: unpaid, awaiting delivery, shipped, refunded,
 * needs review, successful, closed"): the tabs of the states orders have so far (refunds and reviews are not built),
 * each order with its receiver, products, total and state; a paid one is shipped on shop/business-send.
 */
export default function BusinessOrders() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('shop.orders')} />
      <OrderTabs tabs={ORDER_STATUSES} title={(status) => t(`order.seller_${status}`)}>
        {(status) => <ShopOrders status={status} />}
      </OrderTabs>
    </div>
  );
}
