import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ImageDraftGrid } from '../../features/content/ImageDraftGrid';
import { useImageDraft } from '../../features/content/useImageDraft';
import {
  CLAIM_LIMITS,
  claimProblem,
  claimUntil,
  fileClaim,
  isClaimKind,
  pendingClaim,
  type ClaimKind,
} from '../../features/shop/claims';
import { SERVICE_GUARANTEES } from '../../features/shop/guarantees';
import { OrderItems } from '../../features/shop/OrderCard';
import { OrderPage } from '../../features/shop/OrderPage';
import { ORDERS_QUERY, type Order } from '../../features/shop/orders';
import { openRefund } from '../../features/shop/refunds';
import { yuan } from '../../features/wallet/api';
import { CharCount } from '../../ui/CharCount';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/guarantees.css';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';
import '../member/feedback.css';

/** The target of the order's page. */
const orderTarget = (order: Order) => `shop/user-order-view?id=${encodeURIComponent(order.id)}`;

/**
 * The claim form: a description with its count and 1 to 3 images, shown from the device and uploaded on Submit;
 * checked before anything is uploaded, then filed, and the order's page opens in its place.
 */
function ClaimForm({ order, kind }: { order: Order; kind: ClaimKind }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const images = useImageDraft({ max: CLAIM_LIMITS.imagesMax });
  const [description, setDescription] = useState('');
  const [sending, setSending] = useState(false);
  const length = [...description.trim()].length;
  const { descriptionMax, imagesMax } = CLAIM_LIMITS;
  const busy = sending || images.progress !== undefined;

  const send = async () => {
    const problem = claimProblem({ description, images: images.images.length });
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    const urls = await images.upload();
    if (!urls) return setSending(false);
    try {
      await fileClaim({ id: order.id, kind, description, images: urls }, { token: user?.token, locale: i18n.language });
    } catch (error) {
      setSending(false);
      images.setProgress(undefined);
      toastError(errorText(error, t));
      // The order may have moved on (a claim or a refund under way, its window passed): the page then says so.
      return queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    }
    toast(t('claim.filed'));
    await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
    void navigate(`/${orderTarget(order)}`, { replace: true });
  };

  return (
    <>
      <List header={<label htmlFor="claim-description">{t('claim.description')}</label>}>
        <List.Item>
          <TextArea
            id="claim-description"
            value={description}
            onChange={setDescription}
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t(`claim.placeholder_${kind}`)}
          />
          <CharCount length={length} max={descriptionMax} />
        </List.Item>
      </List>
      <List header={t('claim.images', { max: imagesMax })}>
        <List.Item>
          <ImageDraftGrid
            draft={images}
            max={imagesMax}
            labels={{
              image: (n) => t('claim.image', { n }),
              remove: (n) => t('claim.removeImage', { n }),
              add: t('claim.addImage'),
            }}
            progressTestId="claim-progress"
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void send()}>
          {t('claim.submit')}
        </Button>
      </div>
    </>
  );
}

/** Why no claim of `kind` can be filed on `order` now, as a label key, or undefined when one can. */
function whyNoClaim(order: Order, kind: ClaimKind): string | undefined {
  if (order.claimable[kind]) return undefined;
  if (pendingClaim(order)) return 'errors.claim_open';
  if (openRefund(order)) return 'errors.refund_open';
  const { claim } = order;
  if (claim?.kind === kind && (claim.status === 'upheld' || claim.status === 'rejected')) return 'errors.claim_decided';
  return `claim.closed_${kind}`;
}

/**
 * What the order holds and what was paid, what an upheld claim of `kind` gives and until when it can be filed, then
 * the claim form; an order that cannot be claimed for `kind` now says why instead.
 */
function ClaimApplication({ order, kind }: { order: Order; kind: ClaimKind }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const blocked = whyNoClaim(order, kind);
  const until = claimUntil(order, kind);
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
          <Button onClick={() => open(orderTarget(order))}>{t('claim.viewOrder')}</Button>
        </ErrorBlock>
      ) : (
        <>
          <p className="order-guarantee" data-testid="claim-hint">
            {t(`claim.hint_${kind}`, { times: SERVICE_GUARANTEES.counterfeitTimes })}
          </p>
          {until !== null && (
            <p className="order-guarantee" data-testid={`claim-until-${kind}`}>
              {t(`claim.until_${kind}`, { time: new Date(until).toLocaleString(i18n.language) })}
            </p>
          )}
          <ClaimForm order={order} kind={kind} />
        </>
      )}
    </>
  );
}

/**
 * File a guarantee claim (spec §9 "Damage refund: within 72 hours (24 hours for food and fresh items)",
 * "Counterfeit compensation: four times"), params id (the order) and kind (`damage` or `counterfeit`): the order from
 * `shop/order_view`, and the claim sent with `shop/claim_add`. Another kind says so.
 */
export default function FileClaim() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const kind = params.get('kind');
  if (!isClaimKind(kind)) {
    return (
      <OrderPage title={t('claim.formTitle')}>
        {() => <ErrorBlock status="default" title={t('errors.claim_kind_invalid')} description="" />}
      </OrderPage>
    );
  }
  return (
    <OrderPage title={t(`claim.report_${kind}`)}>{(order) => <ClaimApplication order={order} kind={kind} />}</OrderPage>
  );
}
