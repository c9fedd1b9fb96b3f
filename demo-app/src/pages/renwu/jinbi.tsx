import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { TASKS_QUERY, coinPage } from '../../features/tasks/api';
import { NavBar } from '../../ui/NavBar';
import './renwu.css';

/**
 * My coins (spec §2 renwu/jinbi): what each sign-in and streak bonus paid, what each withdrawal took and a rejected one
 * returned, newest first, twenty at a time.
 */
export default function MyCoins() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList([TASKS_QUERY, user?.id, 'coins'], (before) => coinPage(before, context), user !== null);
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('tasks.ledger')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('tasks.noCoins')} description="" />}>
        {(items) => (
          <List>
            {items.map((line) => (
              <List.Item
                key={line.id}
                description={new Date(line.created_at).toLocaleString(i18n.language)}
                extra={
                  <span className={line.amount < 0 ? 'coin-amount coin-amount-out' : 'coin-amount'}>
                    {line.amount < 0 ? line.amount : `+${line.amount}`}
                  </span>
                }
                data-testid="coin-line"
              >
                {t(`tasks.kind_${line.kind}`)}
              </List.Item>
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
