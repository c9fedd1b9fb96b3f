import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { WALLET_QUERY, moneyPage, yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import './wallet.css';

/** Balance details (spec §2 member/money-records): every movement of the wallet's money, newest first, twenty at a time. */
export default function MoneyRecords() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList([WALLET_QUERY, user?.id, 'lines'], (before) => moneyPage(before, context), user !== null);
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('wallet.details')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('wallet.noLines')} description="" />}>
        {(items) => (
          <List>
            {items.map((line) => (
              <List.Item
                key={line.id}
                data-testid="money-line"
                description={new Date(line.created_at).toLocaleString(i18n.language)}
                extra={
                  <span className={line.amount < 0 ? 'wallet-amount wallet-amount-out' : 'wallet-amount'}>
                    {line.amount < 0 ? `-${yuan(-line.amount)}` : `+${yuan(line.amount)}`}
                  </span>
                }
              >
                {t(`wallet.kind_${line.kind}`)}
              </List.Item>
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
