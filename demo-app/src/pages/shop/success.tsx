import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Result } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { ORDERS_QUERY, payState, type PayState } from '../../features/shop/orders';
import { WALLET_QUERY } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';

/**
 * What the payment of a checkout came to: paid; waiting for the provider's word (the payer is back from its page
 * before it told the server); or not paid, the orders waiting in My orders, or closed with the money kept in the
 * balance when it came after them.
 */
type Outcome = 'paid' | 'waiting' | 'unpaid' | 'kept';

function outcomeOf({ paid, recharge, orders }: PayState): Outcome {
  if (paid) return 'paid';
  if (recharge?.status === 'unpaid') return 'waiting';
  const open = orders.some((order) => order.status === 'unpaid');
  return recharge?.status === 'success' && !open ? 'kept' : 'unpaid';
}

/** How each outcome shows: the result's status and its title's and description's texts. */
const SHOWN = {
  paid: { status: 'success', title: 'order.successTitle' },
  waiting: { status: 'waiting', title: 'order.payWaiting' },
  unpaid: { status: 'warning', title: 'order.payUnpaid' },
  kept: { status: 'info', title: 'order.payKept' },
} as const;

/**
 * After paying (spec §2 shop/success, param code): how the payment of the checkout `code` stands (`shop/pay_state`,
 * which asks a provider's payment still waiting at the provider): paid, with the order code; waiting for the
 * provider's confirmation, with a way to ask again; or not paid. Then the way to the orders or back to the shop.
 */
export default function PaymentSuccess() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const state = useQuery({
    // Not under the orders' key: what it finds refreshes them, and it is asked again only by the member.
    queryKey: ['pay-state', code, user?.id],
    queryFn: () => payState(code, { token: user?.token, locale: i18n.language }),
    enabled: code !== '' && user !== null,
    retry: false,
  });
  const outcome = state.data && outcomeOf(state.data);
  useEffect(() => {
    // Paid or kept, the balance and the orders changed.
    if (outcome === 'paid' || outcome === 'kept') {
      for (const key of [ORDERS_QUERY, WALLET_QUERY]) void queryClient.invalidateQueries({ queryKey: [key] });
    }
  }, [outcome, queryClient]);
  const actions = (
    <>
      <div className="page-actions">
        <Button block color="primary" onClick={() => open('shop/user-order')}>
          {t('order.viewOrders')}
        </Button>
      </div>
      <div className="page-actions">
        <Button block onClick={() => open('pages/shop/index')}>
          {t('order.keepShopping')}
        </Button>
      </div>
    </>
  );
  return (
    <div className="page">
      <NavBar title={t('order.resultTitle')} />
      {code === '' ? (
        <Result status="success" title={t('order.successTitle')} />
      ) : (
        <QueryView query={state}>
          {(shown) => {
            const now = outcomeOf(shown);
            const { status, title } = SHOWN[now];
            return (
              <>
                <Result status={status} title={t(title)} description={t('order.successCode', { code })} />
                {now === 'waiting' && (
                  <div className="page-actions">
                    <Button block onClick={() => void state.refetch()} loading={state.isFetching}>
                      {t('order.payCheckAgain')}
                    </Button>
                  </div>
                )}
              </>
            );
          }}
        </QueryView>
      )}
      {actions}
    </div>
  );
}
