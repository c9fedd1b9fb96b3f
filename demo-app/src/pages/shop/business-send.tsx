import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Input, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { AddressLines, OrderItems } from '../../features/shop/OrderCard';
import { LOGISTICS_LIMITS, ORDERS_QUERY, logisticsProblem, shipOrder, type Order } from '../../features/shop/orders';
import { OrderPage } from '../../features/shop/OrderPage';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';

/** The logistics form of a paid order, checked before sending; shipped, the seller's shipped orders open. */
function ShipmentForm({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [company, setCompany] = useState('');
  const [number, setNumber] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    const problem = logisticsProblem({ company, number });
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await shipOrder(order.id, { company, number }, { token: user?.token, locale: i18n.language });
      toast(t('order.sent'));
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
      void navigate('/shop/business-order?status=shipped', { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List header={t('order.logistics')}>
        <List.Item title={<label htmlFor="ship-company">{t('order.company')}</label>}>
          <Input
            id="ship-company"
            value={company}
            onChange={setCompany}
            maxLength={LOGISTICS_LIMITS.companyMax}
            placeholder={t('order.companyPlaceholder', { max: LOGISTICS_LIMITS.companyMax })}
          />
        </List.Item>
        <List.Item title={<label htmlFor="ship-number">{t('order.shipmentNumber')}</label>}>
          <Input
            id="ship-number"
            value={number}
            onChange={setNumber}
            maxLength={LOGISTICS_LIMITS.numberMax}
            placeholder={t('order.numberPlaceholder')}
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={sending} onClick={() => void send()}>
          {t('order.ship')}
        </Button>
      </div>
    </>
  );
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
