import { useQuery } from '@tanstack/react-query';
import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { WALLET_QUERY, wallet, yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import './wallet.css';

/**
 * The wallet (spec §2 member/money): the balance, what recharges waiting for payment add up to, **Recharge**, and the
 * balance details and recharge records.
 */
export default function Money() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const query = useQuery({
    queryKey: [WALLET_QUERY, user?.id, 'money'],
    queryFn: () => wallet({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('wallet.title')} />
      <QueryView query={query}>
        {(data) => (
          <>
            <section className="wallet-head">
              <span>{t('wallet.balance')}</span>
              <strong data-testid="balance">{yuan(data.balance)}</strong>
              {data.unpaid > 0 && (
                <span className="wallet-unpaid">{t('wallet.unpaid', { amount: yuan(data.unpaid) })}</span>
              )}
            </section>
            <div className="page-actions">
              <Button block color="primary" onClick={() => open('member/recharge')}>
                {t('wallet.recharge')}
              </Button>
            </div>
            <List>
              <List.Item onClick={() => open('member/money-records')}>{t('wallet.details')}</List.Item>
              <List.Item onClick={() => open('member/recharge-records')}>{t('wallet.records')}</List.Item>
            </List>
          </>
        )}
      </QueryView>
    </div>
  );
}
