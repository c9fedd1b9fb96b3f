import { List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { yuan } from '../wallet/api';
import type { Claim, ClaimStatus } from './claims';
import type { OrderSide } from './OrderCard';
import './orders.css';

/** The colour of each claim status's tag: waiting, upheld, rejected or cancelled. */
const CLAIM_STATUS_COLOR: Record<ClaimStatus, 'warning' | 'success' | 'danger' | 'default'> = {
  pending: 'warning',
  upheld: 'success',
  rejected: 'danger',
  cancelled: 'default',
};

/** A claim in one line, for an order's card: its kind, and where it stands. */
export function ClaimSummary({ claim }: { claim: Claim }) {
  const { t } = useTranslation();
  return (
    <div className="order-refund-summary" data-testid="claim-summary">
      <span>{t(`claim.title_${claim.kind}`)}</span>
      <Tag color={CLAIM_STATUS_COLOR[claim.status]} fill="outline">
        {t(`claim.status_${claim.status}`)}
      </Tag>
    </div>
  );
}

/**
 * A guarantee claim in full, as `side` sees it: its kind, where it stands, the platform's reason, what went back to
 * the buyer and the compensation once upheld, the description and images, when it was filed and decided; while it is
 * pending, the seller reads that their proceeds wait for the decision.
 */
export function ClaimDetails({ claim, side }: { claim: Claim; side: OrderSide }) {
  const { t, i18n } = useTranslation();
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language);
  return (
    <List header={t(`claim.title_${claim.kind}`)}>
      <List.Item extra={<span data-testid="claim-status">{t(`claim.status_${claim.status}`)}</span>}>
        {t('claim.status')}
      </List.Item>
      {claim.status === 'pending' && side === 'seller' && (
        <List.Item data-testid="claim-seller-note">
          <span className="order-claim-note">{t('claim.sellerPending')}</span>
        </List.Item>
      )}
      {claim.reason && <List.Item description={claim.reason}>{t('claim.reason')}</List.Item>}
      {claim.refund > 0 && (
        <List.Item extra={<span className="product-price">{yuan(claim.refund)}</span>}>{t('claim.refund')}</List.Item>
      )}
      {claim.compensation > 0 && (
        <List.Item extra={<span className="product-price">{yuan(claim.compensation)}</span>}>
          {t('claim.compensation')}
        </List.Item>
      )}
      <List.Item description={<span className="order-refund-description">{claim.description}</span>}>
        {t('claim.description')}
      </List.Item>
      <List.Item>
        <div className="order-refund-images">
          {claim.images.map((url, index) => (
            <img key={url} className="order-refund-thumb" src={url} alt={t('claim.image', { n: index + 1 })} />
          ))}
        </div>
      </List.Item>
      <List.Item extra={time(claim.created_at)}>{t('claim.filedAt')}</List.Item>
      {claim.decided_at !== null && <List.Item extra={time(claim.decided_at)}>{t('claim.decidedAt')}</List.Item>}
    </List>
  );
}
