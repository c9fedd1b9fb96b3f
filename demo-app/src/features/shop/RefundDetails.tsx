import { List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { yuan } from '../wallet/api';
import type { Refund, RefundStatus } from './refunds';
import './orders.css';

/** The colour of each refund status's tag: under way, refused or cancelled, or paid back. */
const REFUND_STATUS_COLOR: Record<RefundStatus, 'warning' | 'danger' | 'default' | 'success'> = {
  pending: 'warning',
  returning: 'warning',
  returned: 'warning',
  refused: 'danger',
  cancelled: 'default',
  refunded: 'success',
};

/** A refund in one line, for an order's card: how much, and where it stands. */
export function RefundSummary({ refund }: { refund: Refund }) {
  const { t } = useTranslation();
  return (
    <div className="order-refund-summary" data-testid="refund-summary">
      <span>{t('refund.summary', { amount: yuan(refund.amount) })}</span>
      <Tag color={REFUND_STATUS_COLOR[refund.status]} fill="outline">
        {t(`refund.status_${refund.status}`)}
      </Tag>
    </div>
  );
}

/**
 * A refund in full (spec §3 "Refund: amount, reason, supplementary description, up to 3 proof images"): where it
 * stands, why the seller refused it, the amount, reason, description, proof images, the parcel sent back, and when it
 * was asked for.
 */
export function RefundDetails({ refund }: { refund: Refund }) {
  const { t, i18n } = useTranslation();
  const parcel = refund.return_logistics;
  return (
    <List header={t('refund.title')}>
      <List.Item extra={<span data-testid="refund-status">{t(`refund.status_${refund.status}`)}</span>}>
        {t('refund.status')}
      </List.Item>
      {refund.status === 'refused' && <List.Item extra={refund.refuse_reason}>{t('refund.refuseReason')}</List.Item>}
      <List.Item extra={<span className="product-price">{yuan(refund.amount)}</span>}>{t('refund.amount')}</List.Item>
      <List.Item extra={refund.reason}>{t('refund.reason')}</List.Item>
      <List.Item description={<span className="order-refund-description">{refund.description}</span>}>
        {t('refund.description')}
      </List.Item>
      <List.Item>
        <div className="order-refund-images">
          {refund.images.map((url, index) => (
            <img key={url} className="order-refund-thumb" src={url} alt={t('refund.image', { n: index + 1 })} />
          ))}
        </div>
      </List.Item>
      {parcel && (
        <>
          <List.Item extra={parcel.company}>{t('refund.returnCompany')}</List.Item>
          <List.Item extra={parcel.number}>{t('refund.returnNumber')}</List.Item>
        </>
      )}
      <List.Item extra={new Date(refund.created_at).toLocaleString(i18n.language)}>{t('refund.appliedAt')}</List.Item>
    </List>
  );
}
