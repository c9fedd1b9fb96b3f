import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { isRefusal } from '../api/request';
import { WALLET_QUERY } from '../wallet/api';
import { ORDERS_QUERY, cancelOrder, confirmReceipt, payByBalance, type Order } from './orders';

/**
 * The buyer's actions on an order (spec §2 "Orders: ... cancel, pay, confirm receipt"): an unpaid one is paid by
 * balance or cancelled after asking; a shipped one's receipt is confirmed after asking. Others have none. After
 * each, every order list and page reads again.
 */
export function BuyerActions({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };

  const refresh = () => queryClient.invalidateQueries({ queryKey: [ORDERS_QUERY] });

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
          <Button size="small" color="primary" onClick={() => void pay()}>
            {t('order.pay')}
          </Button>
        </>
      );
    case 'shipped':
      return (
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
      );
    case 'paid':
    case 'completed':
    case 'cancelled':
      return null;
  }
}
