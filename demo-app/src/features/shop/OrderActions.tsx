import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionSheet, Button, Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { isRefusal } from '../api/request';
import { WALLET_QUERY, goToPayment, wallet, type RechargeType } from '../wallet/api';
import { ORDERS_QUERY, cancelOrder, confirmReceipt, payByBalance, payByProvider, type Order } from './orders';
import { canApplyForRefund, openRefund } from './refunds';
import { canReview } from './reviews';

/** The target of a page about order `id`. */
const orderPage = (page: string, id: string) => `shop/${page}?id=${encodeURIComponent(id)}`;

/**
 * The buyer's actions on an order (spec §2 "Orders: ... cancel, pay, confirm receipt, apply for refund, review"): an
 * unpaid one is paid by balance, or on the page of a provider the server has set up (chosen in a sheet when there is
 * one), or cancelled after asking; a paid or shipped one without a refund under way opens the
 * refund form, and so does a completed one within its 7-day no-reason return (spec §9) as a return; a shipped one's
 * receipt is confirmed after asking, unless a refund is under way; a completed one not reviewed yet opens the review
 * form while it still can be reviewed. Others have none. After each, every order list and page reads again.
 */
export function BuyerActions({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };

  const refresh = () => queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });
  const money = useQuery({
    queryKey: [WALLET_QUERY, user?.id, 'money'],
    queryFn: () => wallet(context),
    enabled: user !== null && order.status === 'unpaid',
    retry: false,
  });
  const providers = money.data?.providers ?? [];
  const [choosing, setChoosing] = useState(false);

  const payAtProvider = async (provider: RechargeType) => {
    try {
      const { pay_url: payUrl } = await payByProvider(order.code, provider, context);
      if (!goToPayment(payUrl)) toastError(t('errors.pay_page_unavailable'));
    } catch (error) {
      toastError(errorText(error, t));
      await refresh();
    }
  };

  const pay = async () => {
    try {
      // The code pays every unpaid order placed with this one, as the payment page would have.
      await payByBalance(order.code, context);
      toast(t('order.paid'));
      await queryClient.invalidateQueries({ queryKey: [WALLET_QUERY] });
    } catch (error) {
      if (isRefusal(error) && error.code === 'balance_insufficient') {
        const recharge = await Dialog.confirm({
          content: errorText(error, t),
          confirmText: t('order.recharge'),
          cancelText: t('common.cancel'),
        });
        if (recharge) open('member/recharge');
      } else toastError(errorText(error, t));
    }
    await refresh();
  };

  /** Asks `question`; if agreed, runs `work` and says `done`. */
  const change = async (question: string, yes: string, no: string, work: () => Promise<Order>, done: string) => {
    const ok = await Dialog.confirm({ content: question, confirmText: yes, cancelText: no });
    if (!ok) return;
    try {
      await work();
      toast(done);
    } catch (error) {
      toastError(errorText(error, t));
    }
    await refresh();
  };

  const applyForRefund = canApplyForRefund(order) && (
    <Button size="small" fill="outline" onClick={() => open(orderPage('user-drawback', order.id))}>
      {t(order.status === 'completed' ? 'order.applyReturn' : 'order.applyRefund')}
    </Button>
  );

  switch (order.status) {
    case 'unpaid':
      return (
        <>
          <Button
            size="small"
            fill="outline"
            onClick={() =>
              void change(
                t('order.cancelConfirm'),
                t('order.cancel'),
                t('order.keep'),
                () => cancelOrder(order.id, context),
                t('order.cancelled'),
              )
            }
          >
            {t('order.cancel')}
          </Button>
          <Button
            size="small"
            color="primary"
            onClick={() => (providers.length === 0 ? void pay() : setChoosing(true))}
          >
            {t('order.pay')}
          </Button>
          <ActionSheet
            visible={choosing}
            onClose={() => setChoosing(false)}
            extra={t('order.payMethod')}
            cancelText={t('common.cancel')}
            actions={[
              { key: 'balance', text: t('order.payByBalance') },
              ...providers.map((provider) => ({
                key: provider,
                text: t('order.payWith', { method: t(`wallet.${provider}`) }),
              })),
            ]}
            onAction={(action) => {
              setChoosing(false);
              const provider = providers.find((p) => p === action.key);
              void (provider ? payAtProvider(provider) : pay());
            }}
          />
        </>
      );
    case 'shipped':
      return (
        <>
          {applyForRefund}
          {!openRefund(order) && (
            <Button
              size="small"
              color="primary"
              onClick={() =>
                void change(
                  t('order.confirmConfirm'),
                  t('order.confirm'),
                  t('common.cancel'),
                  () => confirmReceipt(order.id, context),
                  t('order.confirmed'),
                )
              }
            >
              {t('order.confirm')}
            </Button>
          )}
        </>
      );
    case 'paid':
      return applyForRefund || null;
    case 'completed':
      return (
        <>
          {applyForRefund}
          {canReview(order) && (
            <Button size="small" color="primary" onClick={() => open(orderPage('user-ping-add', order.id))}>
              {t('order.review')}
            </Button>
          )}
        </>
      );
    case 'refunded':
    case 'cancelled':
      return null;
  }
}

/**
 * The seller's action on an order: one with a refund under way opens it to be handled on shop/business-drawback
 * (it cannot be shipped meanwhile); a paid one is shipped on shop/business-send. Others have none.
 */
export function SellerActions({ order }: { order: Order }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  if (openRefund(order)) {
    return (
      <Button size="small" color="warning" onClick={() => open(orderPage('business-drawback', order.id))}>
        {t('order.handleRefund')}
      </Button>
    );
  }
  if (order.status !== 'paid') return null;
  return (
    <Button size="small" color="primary" onClick={() => open(orderPage('business-send', order.id))}>
      {t('order.ship')}
    </Button>
  );
}
