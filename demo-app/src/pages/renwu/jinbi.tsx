import { Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { TASKS_QUERY, coinPage } from '../../features/tasks/api';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';

/** My coins (spec §2 renwu/jinbi): what each sign-in and streak bonus paid, newest first, twenty at a time. */
export default function MyCoins() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const { query, items } = usePagedList(
    [TASKS_QUERY, user?.id, 'coins'],
    (before) => coinPage(before, context),
    user !== null,
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('tasks.ledger')} />
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError && items.length === 0 ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : items.length === 0 ? (
        <ErrorBlock status="empty" title={t('tasks.noCoins')} description="" />
      ) : (
        <List>
          {items.map((line) => (
            <List.Item
              key={line.id}
              description={new Date(line.created_at).toLocaleString(i18n.language)}
              extra={<span className="coin-amount">+{line.amount}</span>}
              data-testid="coin-line"
            >
              {t(`tasks.kind_${line.kind}`)}
            </List.Item>
          ))}
        </List>
      )}
      {query.hasNextPage && (
        <div className="page-actions">
          <Button block loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('feedback.more')}
          </Button>
        </div>
      )}
    </div>
  );
}
