import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, ErrorBlock, List, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import type { CallContext } from '../../features/api/request';
import { AddressLines, OrderItems, statusLabelKey } from '../../features/shop/OrderCard';
import { OrderGuarantee } from '../../features/shop/OrderGuarantee';
import { ORDER_TAB_PARAM } from '../../features/shop/OrderTabs';
import { ORDERS_QUERY, type Order } from '../../features/shop/orders';
import { RefundDetails } from '../../features/shop/RefundDetails';
import {
  REFUND_LIMITS,
  decideRefund,
  openRefund,
  receiveGoodsBack,
  refuseReasonValid,
  type Refund,
} from '../../features/shop/refunds';
import { yuan } from '../../features/wallet/api';
import { OrderPage } from '../../features/shop/OrderPage';
import { CharCount } from '../../ui/CharCount';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';
import '../member/feedback.css';

/**
 * Runs the seller's step on a refund: done, it says `done` and the seller's orders open at the tab the order is now
 * in (Refunds while the refund is under way); refused, it says why and the order reads again.
 */
function useSellerStep() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  return async (work: (context: CallContext) => Promise<Order>, done: string) => {
    try {
      const order = await work(context);
      toast(done);
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
      const tab = openRefund(order) ? 'refunding' : order.status;
      void navigate(`/shop/business-order?${ORDER_TAB_PARAM}=${tab}`, { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    }
  };
}

/** The reason the seller refuses with, 1 to 100 characters with its count, checked before it is sent. */
function RefuseForm({ order, onClose }: { order: Order; onClose: () => void }) {
  const { t } = useTranslation();
  const run = useSellerStep();
  const [reason, setReason] = useState('');
  const [sending, setSending] = useState(false);
  const length = [...reason.trim()].length;
  const max = REFUND_LIMITS.refuseReasonMax;

  const send = async () => {
    if (!refuseReasonValid(reason)) return toastError(t('errors.refund_refuse_reason_invalid'));
    setSending(true);
    await run((context) => decideRefund(order.id, { agree: false, reason }, context), t('refund.refused'));
    setSending(false);
  };

  return (
    <section className="order-refund-form">
      <List header={<label htmlFor="refuse-reason">{t('refund.refuseLabel')}</label>}>
        <List.Item>
          <TextArea
            id="refuse-reason"
            value={reason}
            // The reason is one line, as the server takes it: a line break typed is a space.
            onChange={(value) => setReason(value.replace(/[\r\n]+/g, ' '))}
            autoSize={{ minRows: 3, maxRows: 6 }}
            placeholder={t('refund.refusePlaceholder', { max })}
          />
          <CharCount length={length} max={max} />
        </List.Item>
      </List>
      <div className="order-card-actions page-actions">
        <Button size="small" fill="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button size="small" color="danger" loading={sending} onClick={() => void send()}>
          {t('refund.refuseSend')}
        </Button>
      </div>
    </section>
  );
}

/**
 * What the seller can do about a refund: one waiting for them is agreed (the money back at once, or once the goods
 * are back; only the latter for a completed order, whose goods the buyer has), each after asking, or refused with a
 * reason; goods sent back are received after asking, which pays the
 * money back. A refund waiting for the buyer's parcel says so; others have nothing left to do.
 */
function SellerRefundActions({ order, refund }: { order: Order; refund: Refund }) {
  const { t } = useTranslation();
  const run = useSellerStep();
  const [refusing, setRefusing] = useState(false);
  const amount = yuan(refund.amount);

  /** Asks `question`; if agreed, runs `work` and says `done`. */
  const ask = async (question: string, yes: string, work: (context: CallContext) => Promise<Order>, done: string) => {
    const ok = await Dialog.confirm({ content: question, confirmText: yes, cancelText: t('common.cancel') });
    if (ok) await run(work, done);
  };

  switch (refund.status) {
    case 'pending':
      return refusing ? (
        <RefuseForm order={order} onClose={() => setRefusing(false)} />
      ) : (
        <div className="order-card-actions page-actions">
          <Button size="small" fill="outline" color="danger" onClick={() => setRefusing(true)}>
            {t('refund.refuse')}
          </Button>
          <Button
            size="small"
            fill="outline"
            color="primary"
            onClick={() =>
              void ask(
                t('refund.agreeReturnConfirm', { amount }),
                t('refund.agreeReturn'),
                (context) => decideRefund(order.id, { agree: true, withReturn: true }, context),
                t('refund.returnAgreed'),
              )
            }
          >
            {t('refund.agreeReturn')}
          </Button>
          {/* The buyer of a completed order has the goods: they come back before the money does. */}
          {order.status !== 'completed' && (
            <Button
              size="small"
              color="primary"
              onClick={() =>
                void ask(
                  t('refund.agreeConfirm', { amount }),
                  t('refund.agree'),
                  (context) => decideRefund(order.id, { agree: true, withReturn: false }, context),
                  t('refund.refundedToBuyer'),
                )
              }
            >
              {t('refund.agree')}
            </Button>
          )}
        </div>
      );
    case 'returned':
      return (
        <div className="order-card-actions page-actions">
          <Button
            size="small"
            color="primary"
            onClick={() =>
              void ask(
                t('refund.receiveConfirm', { amount }),
                t('refund.receive'),
                (context) => receiveGoodsBack(order.id, context),
                t('refund.refundedToBuyer'),
              )
            }
          >
            {t('refund.receive')}
          </Button>
        </div>
      );
    case 'returning':
      return <p className="order-refund-note">{t('refund.waitingReturn')}</p>;
    case 'refused':
    case 'cancelled':
    case 'refunded':
      return null;
  }
}

/** Whom the order goes to and what it holds, then its refund and what the seller can do about it. */
function RefundCase({ order }: { order: Order }) {
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
      <List>
        <List.Item extra={order.id}>{t('order.number')}</List.Item>
        <List.Item extra={t(statusLabelKey(order.status, 'seller'))}>{t('order.state')}</List.Item>
        <List.Item extra={<span className="product-price">{yuan(order.total)}</span>}>
          {t('order.actualPayment')}
        </List.Item>
      </List>
      <OrderGuarantee order={order} side="seller" />
      {order.refund ? (
        <>
          <RefundDetails refund={order.refund} />
          <SellerRefundActions order={order} refund={order.refund} />
        </>
      ) : (
        <ErrorBlock status="default" title={t('refund.noRefund')} description="" />
      )}
    </>
  );
}

/**
 * Handle a refund (spec §4 refund flow, "the merchant reviews and agrees (with or without return of goods) or refuses
 * with a reason ... after return and acceptance the money goes to the wallet"), param id: the order from
 * `shop/order_view` and its refund, decided with `shop/business_drawback` and the goods received with
 * `shop/business_drawback_receive`.
 */
export default function HandleRefund() {
  const { t } = useTranslation();
  return <OrderPage title={t('refund.handleTitle')}>{(order) => <RefundCase order={order} />}</OrderPage>;
}
