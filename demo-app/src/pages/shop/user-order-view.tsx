import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { BuyerClaim, ClaimOffer } from '../../features/shop/BuyerClaim';
import { BuyerRefund } from '../../features/shop/BuyerRefund';
import { BuyerActions } from '../../features/shop/OrderActions';
import { OrderDelivery, OrderItems, OrderTimes, statusLabelKey } from '../../features/shop/OrderCard';
import { OrderGuarantee } from '../../features/shop/OrderGuarantee';
import { type Order } from '../../features/shop/orders';
import { ReviewDetails } from '../../features/shop/ReviewCard';
import { canReview } from '../../features/shop/reviews';
import { yuan } from '../../features/wallet/api';
import { OrderPage } from '../../features/shop/OrderPage';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

/** One order, as its buyer sees it. */
function OrderDetails({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language);
  const paid = order.paid_at !== null;
  const times = [
    ['order.paidAt', order.paid_at],
    ['order.shippedAt', order.shipped_at],
    ['order.completedAt', order.completed_at],
    ['order.closedAt', order.closed_at],
  ] as const;
  return (
    <>
      <section className="order-section">
        <h2 data-testid="order-status">{t(statusLabelKey(order.status, 'buyer'))}</h2>
      </section>
      {order.status === 'unpaid' && (
        <p className="order-expires" role="status">
          {t('order.expires', { time: time(order.expires_at) })}
        </p>
      )}
      {order.review_until !== null && canReview(order) && (
        <p className="order-expires" role="status">
          {t('order.reviewUntil', { time: time(order.review_until) })}
        </p>
      )}
      <OrderGuarantee order={order} side="buyer" />
      {order.claim && <BuyerClaim order={order} claim={order.claim} />}
      <ClaimOffer order={order} />
      {order.refund && <BuyerRefund order={order} refund={order.refund} />}
      {order.review && <ReviewDetails review={order.review} />}
      <OrderDelivery order={order} />
      <section className="order-section">
        <h2>{order.shop?.name ?? t('order.shopClosed')}</h2>
        <OrderItems items={order.items} />
      </section>
      <List>
        <List.Item extra={order.id}>{t('order.number')}</List.Item>
        <List.Item extra={time(order.created_at)}>{t('order.createdAt')}</List.Item>
        <List.Item extra={paid ? t('order.payStatus_paid') : t('order.payStatus_unpaid')}>
          {t('order.payStatus')}
        </List.Item>
        <List.Item extra={t(order.pay_method === '' ? 'order.method_none' : `order.method_${order.pay_method}`)}>
          {t('order.payMethod')}
        </List.Item>
        <List.Item extra={<span className="product-price">{yuan(order.total)}</span>}>
          {paid ? t('order.actualPayment') : t('order.toPay')}
        </List.Item>
        <OrderTimes times={times} />
      </List>
      <div className="order-card-actions page-actions">
        <BuyerActions order={order} />
      </div>
    </>
  );
}

/**
 * An order's page (spec §2 shop/user-order-view, param id; §3 "Order: order number, time, payment status, payment
 * method, actual payment"): where it stands (an unpaid one with when it cancels itself, a completed one to review with
 * until when it can be), its service guarantees (spec §9: when it ships, its late-delivery compensation, until when
 * it can be returned), its refund with what the buyer can do about it, the buyer's review with the seller's reply,
 * the address, its logistics once shipped, its products, its number, times and payment, and the same actions as in
 * the list. Its guarantee claim (spec §9 damage refund, counterfeit compensation) shows with where it stands and can be
 * cancelled while pending; a claim the order allows now is offered with until when, opening shop/user-claim.
 */
export default function OrderView() {
  const { t } = useTranslation();
  return <OrderPage title={t('order.viewTitle')}>{(order) => <OrderDetails order={order} />}</OrderPage>;
}
