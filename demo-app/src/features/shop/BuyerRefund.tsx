import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import type { CallContext } from '../api/request';
import { LogisticsForm } from './LogisticsForm';
import { ORDERS_QUERY, type Order } from './orders';
import { RefundDetails } from './RefundDetails';
import { cancelRefund, sendGoodsBack, type Refund } from './refunds';

/** Runs the buyer's step on a refund: says `done`, or the refusal; either way every order list and page reads again. */
function useRefundStep() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  return async (work: (context: CallContext) => Promise<Order>, done: string) => {
    try {
      await work(context);
      toast(done);
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
  };
}

/** The logistics of the goods sent back, checked as a shipment's are before they are sent. */
function ReturnForm({ order }: { order: Order }) {
  const { t } = useTranslation();
  const run = useRefundStep();
  return (
    <section className="order-refund-form">
      <LogisticsForm
        id="return"
        header={t('refund.returnTitle')}
        hint={t('refund.returnHint')}
        submit={t('refund.sendBack')}
        onSubmit={(parcel) => run((context) => sendGoodsBack(order.id, parcel, context), t('refund.sentBack'))}
      />
    </section>
  );
}

/**
 * The refund of an order, as its buyer sees it (spec §4 refund flow), unless they cancelled it: the refund in full;
 * while the seller waits for the goods, the form for the parcel's logistics; while it waits for the seller or for the
 * goods, cancelling it after asking.
 */
export function BuyerRefund({ order, refund }: { order: Order; refund: Refund }) {
  const { t } = useTranslation();
  const run = useRefundStep();
  if (refund.status === 'cancelled') return null;

  const cancel = async () => {
    const ok = await Dialog.confirm({
      content: t('refund.cancelConfirm'),
      confirmText: t('refund.cancel'),
      cancelText: t('refund.keep'),
    });
    if (ok) await run((context) => cancelRefund(order.id, context), t('refund.cancelled'));
  };

  return (
    <>
      <RefundDetails refund={refund} />
      {refund.status === 'returning' && <ReturnForm order={order} />}
      {(refund.status === 'pending' || refund.status === 'returning') && (
        <div className="order-card-actions page-actions">
          <Button size="small" fill="outline" onClick={() => void cancel()}>
            {t('refund.cancel')}
          </Button>
        </div>
      )}
    </>
  );
}
