import { useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { AddressLines, OrderItems } from '../../features/shop/OrderCard';
import { LogisticsForm } from '../../features/shop/LogisticsForm';
import { OrderGuarantee } from '../../features/shop/OrderGuarantee';
import { ORDERS_QUERY, shipOrder, type Logistics, type Order } from '../../features/shop/orders';
import { OrderPage } from '../../features/shop/OrderPage';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

/** The logistics form of a paid order; shipped, the seller's shipped orders open. */
function ShipmentForm({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const ship = async (logistics: Logistics) => {
    try {
      await shipOrder(order.id, logistics, { token: user?.token, locale: i18n.language });
      toast(t('order.sent'));
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
      void navigate('/shop/business-order?status=shipped', { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  return <LogisticsForm id="ship" header={t('order.logistics')} submit={t('order.ship')} onSubmit={ship} />;
}

/** Where a paid order goes and what it holds, then its logistics form; an order in any other state says so. */
function Shipment({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <>
      <List header={t('order.address')}>
        <List.Item>
          <AddressLines address={order.address} />
        </List.Item>
      </List>
      <section className="order-section">
        <OrderItems items={order.items} />
      </section>
      <OrderGuarantee order={order} side="seller" />
      {order.status === 'paid' ? (
        <ShipmentForm order={order} />
      ) : (
        <ErrorBlock status="default" title={t('order.notAwaiting')} description={t(`order.seller_${order.status}`)} />
      )}
    </>
  );
}

/**
 * Ship an order (spec §2 shop/business-send, param id; §3 "Logistics: company, shipment number"): the order's address
 * and products from `shop/order_view`, and the logistics company (1 to 20 characters) and shipment number (4 to 40
 * letters, digits or '-') sent with `shop/business_send`.
 */
export default function ShipOrder() {
  const { t } = useTranslation();
  return <OrderPage title={t('order.sendTitle')}>{(order) => <Shipment order={order} />}</OrderPage>;
}
