import { List, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { yuan } from '../wallet/api';
import { ClaimSummary } from './ClaimDetails';
import { OrderGuarantee } from './OrderGuarantee';
import type { Order, OrderAddress, OrderItem, OrderStatus } from './orders';
import { RefundSummary } from './RefundDetails';
import './orders.css';

/** The colour of each order status's tag. */
export const ORDER_STATUS_COLOR: Record<OrderStatus, 'warning' | 'primary' | 'success' | 'default'> = {
  unpaid: 'warning',
  paid: 'primary',
  shipped: 'primary',
  completed: 'success',
  refunded: 'default',
  cancelled: 'default',
};

/** Whose words name an order's status: the buyer's ("to ship") or the seller's ("awaiting delivery"). */
export type OrderSide = 'buyer' | 'seller';

/** The label key of `status` as `side` says it. */
export function statusLabelKey(status: OrderStatus, side: OrderSide): string {
  return side === 'buyer' ? `order.status_${status}` : `order.seller_${status}`;
}

/** Where an order goes: the receiver and phone, then the address. */
export function AddressLines({ address }: { address: OrderAddress }) {
  return (
    <>
      <div className="order-address-who">
        <span className="order-address-name">{address.name}</span>
        <span>{address.phone}</span>
      </div>
      <div className="order-address-where">
        {address.region} {address.detail}
      </div>
    </>
  );
}

/** Where an order goes and, once shipped, how: its address, then its logistics company and shipment number. */
export function OrderDelivery({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <>
      <List header={t('order.address')}>
        <List.Item>
          <AddressLines address={order.address} />
        </List.Item>
      </List>
      {order.logistics && (
        <List header={t('order.logistics')}>
          <List.Item extra={order.logistics.company}>{t('order.company')}</List.Item>
          <List.Item extra={order.logistics.number}>{t('order.shipmentNumber')}</List.Item>
        </List>
      )}
    </>
  );
}

/** The times an order has reached, each `[label key, ms or null]`: one line each, in the app's language. */
export function OrderTimes({ times }: { times: ReadonlyArray<readonly [string, number | null]> }) {
  const { t, i18n } = useTranslation();
  return times.map(
    ([label, at]) =>
      at !== null && (
        <List.Item key={label} extra={new Date(at).toLocaleString(i18n.language)}>
          {t(label)}
        </List.Item>
      ),
  );
}

/** An order's products: each with its image, title, price and how many. */
export function OrderItems({ items }: { items: readonly OrderItem[] }) {
  const { t } = useTranslation();
  return (
    <ul className="order-items">
      {items.map((item) => (
        <li key={item.product_id} className="order-item">
          <img className="product-thumb" src={item.image} alt="" />
          <span className="order-item-title">{item.title}</span>
          <span className="order-item-line">{t('order.line', { price: yuan(item.price), num: item.num })}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * An order in a list: `heading` (the shop for the buyer, the receiver for the seller) and its status, its products,
 * its total, its service guarantees, its guarantee claim and its refund unless cancelled, and `actions`. Tapping it,
 * but not an action, calls `onOpen`.
 */
export function OrderCard({
  order,
  side,
  heading,
  actions,
  onOpen,
}: {
  order: Order;
  side: OrderSide;
  heading: ReactNode;
  actions?: ReactNode;
  onOpen?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  return (
    <article
      className={onOpen ? 'order-card order-card-open' : 'order-card'}
      data-testid="order"
      onClick={onOpen}
      onKeyDown={onOpen && ((event) => event.key === 'Enter' && event.target === event.currentTarget && onOpen())}
      tabIndex={onOpen ? 0 : undefined}
    >
      <header className="order-card-head">
        <span className="order-card-heading">{heading}</span>
        <Tag color={ORDER_STATUS_COLOR[order.status]}>{t(statusLabelKey(order.status, side))}</Tag>
      </header>
      <OrderItems items={order.items} />
      <div className="order-card-total">{t('order.total', { amount: yuan(order.total) })}</div>
      <OrderGuarantee order={order} side={side} />
      {order.claim && order.claim.status !== 'cancelled' && <ClaimSummary claim={order.claim} />}
      {order.refund && order.refund.status !== 'cancelled' && <RefundSummary refund={order.refund} />}
      {actions && (
        // Actions act on the order without opening it.
        <div className="order-card-actions" onClick={(event) => event.stopPropagation()} role="presentation">
          {actions}
        </div>
      )}
    </article>
  );
}
