import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { ClaimDetails } from './ClaimDetails';
import { CLAIM_KINDS, cancelClaim, claimTarget, claimUntil, type Claim } from './claims';
import { ORDERS_QUERY, type Order } from './orders';
import './guarantees.css';

/**
 * The guarantee claim of an order, as its buyer sees it, unless they cancelled it: the claim in full and, while it
 * waits for the platform, cancelling it after asking; then every order list and page reads again.
 */
export function BuyerClaim({ order, claim }: { order: Order; claim: Claim }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  if (claim.status === 'cancelled') return null;

  const cancel = async () => {
    const ok = await Dialog.confirm({
      content: t('claim.cancelConfirm'),
      confirmText: t('claim.cancel'),
      cancelText: t('claim.keep'),
    });
    if (!ok) return;
    try {
      await cancelClaim(order.id, { token: user?.token, locale: i18n.language });
      toast(t('claim.cancelled'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
  };

  return (
    <>
      <ClaimDetails claim={claim} side="buyer" />
      {claim.status === 'pending' && (
        <div className="order-card-actions page-actions">
          <Button size="small" fill="outline" onClick={() => void cancel()}>
            {t('claim.cancel')}
          </Button>
        </div>
      )}
    </>
  );
}

/**
 * What the buyer may claim on an order now (spec §9 damage refund and counterfeit compensation, as the order's
 * `claimable` says): for each kind, until when it can be reported once its window has started, and a button that
 * opens the claim form. Nothing when neither can be.
 */
export function ClaimOffer({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const kinds = CLAIM_KINDS.filter((kind) => order.claimable[kind]);
  if (kinds.length === 0) return null;
  return (
    <section data-testid="claim-offer">
      {kinds.map((kind) => {
        const until = claimUntil(order, kind);
        return (
          until !== null && (
            <p key={kind} className="order-guarantee" data-testid={`claim-until-${kind}`}>
              {t(`claim.until_${kind}`, { time: new Date(until).toLocaleString(i18n.language) })}
            </p>
          )
        );
      })}
      <div className="order-card-actions page-actions">
        {kinds.map((kind) => (
          <Button key={kind} size="small" fill="outline" onClick={() => open(claimTarget(order.id, kind))}>
            {t(`claim.report_${kind}`)}
          </Button>
        ))}
      </div>
    </section>
  );
}
