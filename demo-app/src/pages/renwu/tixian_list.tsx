import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { TASKS_QUERY } from '../../features/tasks/api';
import { WithdrawalItem } from '../../features/tasks/PayoutViews';
import { withdrawalPage } from '../../features/tasks/withdrawals';
import { NavBar } from '../../ui/NavBar';
import './renwu.css';

/**
 * Withdrawal records (spec §2 renwu/tixian_list): each withdrawal's amount, where it went, when, and where its review
 * stands (under review, paid, or rejected with the reason and the coins returned), newest first, twenty at a time.
 */
export default function WithdrawalRecords() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [TASKS_QUERY, user?.id, 'withdrawals'],
    (before) => withdrawalPage(before, context),
    user !== null,
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('withdraw.recordsTitle')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('withdraw.noRecords')} description="" />}>
        {(items) => (
          <List>
            {items.map((item) => (
              <WithdrawalItem key={item.id} item={item} />
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
