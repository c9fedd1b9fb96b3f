import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import {
  WALLET_QUERY,
  cancelRecharge,
  goToPayment,
  rechargePage,
  rechargePayUrl,
  yuan,
  type Recharge,
  type RechargeStatus,
} from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './wallet.css';

const STATUS_COLOR: Record<RechargeStatus, 'warning' | 'success' | 'danger' | 'default'> = {
  unpaid: 'warning',
  success: 'success',
  abnormal: 'warning',
  failed: 'danger',
  cancelled: 'default',
};

/**
 * Recharge records (spec §2 member/recharge-records): each recharge's amount, how it is paid, when, and where its
 * payment stands (a failed one with its reason), newest first, twenty at a time; one waiting for payment can be
 * cancelled.
 */
export default function RechargeRecords() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [WALLET_QUERY, user?.id, 'recharges'],
    (before) => rechargePage(before, context),
    user !== null,
  );

  // A page is asked for anew each time: a provider's page is good for a few minutes only (PAY-4).
  const pay = async (recharge: Recharge) => {
    try {
      goToPayment(await rechargePayUrl(recharge.id, context));
    } catch (error) {
      toastError(errorText(error, t));
    }
  };
  const cancel = async (recharge: Recharge) => {
    const ok = await Dialog.confirm({
      content: t('wallet.cancelConfirm', { amount: yuan(recharge.amount) }),
      confirmText: t('wallet.cancelYes'),
      cancelText: t('wallet.keep'),
    });
    if (!ok) return;
    try {
      // Paid or closed meanwhile, though its provider had not told the server yet: the answer says so.
      const answer = await cancelRecharge(recharge.id, context);
      const said = { success: 'wallet.cancelPaid', failed: 'wallet.cancelClosed' } as const;
      toast(t(answer.status === 'success' || answer.status === 'failed' ? said[answer.status] : 'wallet.cancelled'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [WALLET_QUERY] });
  };

  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('wallet.records')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('wallet.noRecords')} description="" />}>
        {(items) => (
          <List>
            {items.map((item) => (
              <List.Item
                key={item.id}
                data-testid="recharge"
                description={
                  <>
                    <div>{new Date(item.created_at).toLocaleString(i18n.language)}</div>
                    {item.order_code !== '' && <div>{t('wallet.forOrder', { code: item.order_code })}</div>}
                    {(item.status === 'failed' || item.status === 'abnormal') && (
                      <div>{t('wallet.reason', { reason: item.reason })}</div>
                    )}
                    {item.status === 'unpaid' && (
                      <span className="recharge-actions">
                        {item.payable && (
                          <Button size="mini" color="primary" onClick={() => void pay(item)}>
                            {t('wallet.pay')}
                          </Button>
                        )}
                        <Button size="mini" fill="outline" onClick={() => void cancel(item)}>
                          {t('wallet.cancel')}
                        </Button>
                      </span>
                    )}
                  </>
                }
                extra={<Tag color={STATUS_COLOR[item.status]}>{t(`wallet.status_${item.status}`)}</Tag>}
              >
                {t('wallet.line', { amount: yuan(item.amount), by: t(`wallet.${item.type}`) })}
              </List.Item>
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
