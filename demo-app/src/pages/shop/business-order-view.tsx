import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ClaimDetails } from '../../features/shop/ClaimDetails';
import { SellerActions } from '../../features/shop/OrderActions';
import { OrderDelivery, OrderItems, OrderTimes, statusLabelKey } from '../../features/shop/OrderCard';
import { OrderGuarantee } from '../../features/shop/OrderGuarantee';
import { OrderPage } from '../../features/shop/OrderPage';
import type { Order } from '../../features/shop/orders';
import { RefundDetails } from '../../features/shop/RefundDetails';
import { yuan } from '../../features/wallet/api';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

/** One order, as its seller sees it. */
function SellerOrderDetails({ order }: { order: Order }) {
  const { t } = useTranslation();
  const times = [
    ['order.createdAt', order.created_at],
    ['order.paidAt', order.paid_at],
    ['order.shippedAt', order.shipped_at],
    ['order.completedAt', order.completed_at],
    ['order.closedAt', order.closed_at],
  ] as const;
  const { claim, refund } = order;
  return (
    <>
      <section className="order-section">
        <h2 data-testid="order-status">{t(statusLabelKey(order.status, 'seller'))}</h2>
      </section>
      <OrderGuarantee order={order} side="seller" />
      {claim && claim.status !== 'cancelled' && <ClaimDetails claim={claim} side="seller" />}
      {refund && refund.status !== 'cancelled' && <RefundDetails refund={refund} />}
      <OrderDelivery order={order} />
      <section className="order-section">
        <OrderItems items={order.items} />
      </section>
      <List>
        <List.Item extra={order.id}>{t('order.number')}</List.Item>
        <List.Item extra={<span className="product-price">{yuan(order.total)}</span>}>
          {order.paid_at !== null ? t('order.actualPayment') : t('order.toPay')}
        </List.Item>
        <OrderTimes times={times} />
      </List>
      <div className="order-card-actions page-actions">
        <SellerActions order={order} />
      </div>
    </>
  );
}

/**
 * An order of the seller's shop (param id): where it stands, its service guarantees, its guarantee claim as the
 * platform decides it (read-only: the seller does not take part), its refund, the address, the logistics, the
 * products, its number, total and times, and the same action as in the seller's orders.
 */
export default function SellerOrderView() {
  const { t } = useTranslation();
  return <OrderPage title={t('order.viewTitle')}>{(order) => <SellerOrderDetails order={order} />}</OrderPage>;
}
