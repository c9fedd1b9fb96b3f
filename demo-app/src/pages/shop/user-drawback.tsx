import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ImageGrid } from '../../features/api/ImageGrid';
import { useImageUpload } from '../../features/api/useImageUpload';
import { pendingClaim } from '../../features/shop/claims';
import { OrderItems } from '../../features/shop/OrderCard';
import { ORDERS_QUERY, type Order } from '../../features/shop/orders';
import {
  REFUND_LIMITS,
  REFUND_REASONS,
  applyForRefund,
  openRefund,
  orderEnded,
  refundProblem,
  type RefundReason,
} from '../../features/shop/refunds';
import { yuan } from '../../features/wallet/api';
import { OrderPage } from '../../features/shop/OrderPage';
import { CharCount } from '../../ui/CharCount';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';
import '../member/feedback.css';

/** The target of the order's page. */
const orderTarget = (order: Order) => `shop/user-order-view?id=${encodeURIComponent(order.id)}`;

/**
 * The refund form of a paid or shipped order: the amount (what was paid, to begin with), a reason picked from the
 * list, a description with its count, and 1 to 3 proof images uploaded as they are picked; checked in spec §5's order
 * before sending, then the order's page opens in its place.
 */
function RefundForm({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uploader = useImageUpload();
  const [amount, setAmount] = useState(order.total.toFixed(2));
  const [reason, setReason] = useState<RefundReason | undefined>();
  const [description, setDescription] = useState('');
  const [imgs, setImgs] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const length = [...description.trim()].length;
  const { descriptionMax, imagesMax } = REFUND_LIMITS;

  const send = async () => {
    // The reason goes as the buyer reads it, so that the seller reads the same words.
    const draft = { amount, reason: reason ? t(`refund.reason_${reason}`) : '', description, imgs };
    const problem = refundProblem(draft, order.total);
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await applyForRefund(order.id, draft, { token: user?.token, locale: i18n.language });
      toast(t('refund.applied'));
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
      void navigate(`/${orderTarget(order)}`, { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
      // The order may have moved on (ended, or a refund under way): the page then says so.
      await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List>
        <List.Item title={<label htmlFor="refund-amount">{t('refund.amountLabel')}</label>}>
          <Input
            id="refund-amount"
            inputMode="decimal"
            value={amount}
            onChange={setAmount}
            placeholder={t('refund.amountPlaceholder', { max: yuan(order.total) })}
          />
        </List.Item>
      </List>
      <List header={t('refund.reason')}>
        <List.Item>
          <Selector
            columns={2}
            options={REFUND_REASONS.map((value) => ({ value, label: t(`refund.reason_${value}`) }))}
            value={reason ? [reason] : []}
            onChange={(values) => setReason(values[0])}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor="refund-description">{t('refund.description')}</label>}>
        <List.Item>
          <TextArea
            id="refund-description"
            value={description}
            onChange={setDescription}
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t('refund.descriptionPlaceholder')}
          />
          <CharCount length={length} max={descriptionMax} />
        </List.Item>
      </List>
      <List header={t('refund.images', { max: imagesMax })}>
        <List.Item>
          <ImageGrid
            uploader={uploader}
            images={imgs}
            onChange={setImgs}
            max={imagesMax}
            labels={{
              image: (n) => t('refund.image', { n }),
              remove: (n) => t('refund.removeImage', { n }),
              add: t('refund.addImage'),
            }}
            progressTestId="refund-progress"
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button
          block
          color="primary"
          loading={sending}
          disabled={uploader.progress !== undefined}
          onClick={() => void send()}
        >
          {t('refund.submit')}
        </Button>
      </div>
    </>
  );
}

/** Why no refund of `order` can be asked for, as a label key, or undefined when one can. */
function whyNoRefund(order: Order): string | undefined {
  if (orderEnded(order)) return 'errors.refund_ended';
  if (order.status === 'unpaid') return 'refund.notPaid';
  if (pendingClaim(order)) return 'errors.claim_open';
  return openRefund(order) ? 'errors.refund_open' : undefined;
}

/**
 * What the order holds and what was paid, then the refund form; an order that has ended (spec §8 "the order has
 * ended and refund cannot be applied for"), is not paid, or has a refund under way or a claim pending says so instead.
 */
function RefundApplication({ order }: { order: Order }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const blocked = whyNoRefund(order);
  return (
    <>
      <section className="order-section">
        <h2>{order.shop?.name ?? t('order.shopClosed')}</h2>
        <OrderItems items={order.items} />
      </section>
      <List>
        <List.Item extra={<span className="product-price">{yuan(order.total)}</span>}>
          {t('order.actualPayment')}
        </List.Item>
      </List>
      {blocked ? (
        <ErrorBlock status="default" title={t(blocked)} description="">
          <Button onClick={() => open(orderTarget(order))}>{t('refund.viewOrder')}</Button>
        </ErrorBlock>
      ) : (
        <RefundForm order={order} />
      )}
    </>
  );
}

/**
 * Apply for a refund (spec §2 shop/user-drawback, param id; §3 "Refund: amount, reason, supplementary description,
 * up to 3 proof images"; §5): the order from `shop/order_view`, and the refund sent with `shop/drawback`.
 */
export default function ApplyForRefund() {
  const { t } = useTranslation();
  return <OrderPage title={t('refund.applyTitle')}>{(order) => <RefundApplication order={order} />}</OrderPage>;
}
