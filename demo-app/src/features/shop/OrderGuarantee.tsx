import { useTranslation } from 'react-i18next';
import { yuan } from '../wallet/api';
import { SERVICE_GUARANTEES } from './guarantees';
import type { OrderSide } from './OrderCard';
import type { Order } from './orders';
import './guarantees.css';

/**
 * What the service guarantees (spec §9) mean for one order, as `side` sees it: until when a paid one ships (for the
 * seller, or the buyer is compensated), the late-delivery compensation once the buyer got it (for the seller, taken
 * from the order's proceeds), and until when a completed one can be returned (for the seller, when its proceeds
 * arrive). Nothing for an order they no longer concern.
 */
export function OrderGuarantee({ order, side }: { order: Order; side: OrderSide }) {
  const { t, i18n } = useTranslation();
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language);
  const seller = side === 'seller';
  const shipBy = order.status === 'paid' && order.ship_by !== null && order.compensation === 0 ? order.ship_by : null;
  return (
    <>
      {shipBy !== null && (
        <p className="order-guarantee" data-testid="order-ship-by">
          {seller
            ? t('order.shipBySeller', {
                time: time(shipBy),
                amount: yuan(SERVICE_GUARANTEES.lateCompensationYuan),
              })
            : t('order.shipBy', { time: time(shipBy) })}
        </p>
      )}
      {order.compensation > 0 && (
        <p className="order-guarantee order-guarantee-compensation" data-testid="order-compensation">
          {t(seller ? 'order.compensationSeller' : 'order.compensation', { amount: yuan(order.compensation) })}
        </p>
      )}
      {order.return_until !== null && (
        <p className="order-guarantee" data-testid="order-return-until">
          {t(seller ? 'order.proceedsAfter' : 'order.returnUntil', { time: time(order.return_until) })}
        </p>
      )}
    </>
  );
}
