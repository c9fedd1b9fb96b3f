import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { TASKS_QUERY, signInToday, taskOverview, type TaskOverview } from '../../features/tasks/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './renwu.css';

/** The days of the streak's cycle, the ones signed marked, the bonus day last. */
function StreakDays({ overview }: { overview: TaskOverview }) {
  const { t } = useTranslation();
  const { streak_days: cycle } = overview.rules;
  // Where the streak is in its cycle: a finished cycle shows full until a new one begins.
  const done = overview.streak === 0 ? 0 : ((overview.streak - 1) % cycle) + 1;
  return (
    <ol className="streak-days" aria-label={t('tasks.streak', { count: overview.streak })}>
      {Array.from({ length: cycle }, (_, i) => (
        <li key={i} className={i < done ? 'streak-day streak-day-done' : 'streak-day'} data-done={i < done}>
          <span className="streak-day-coins">
            +{overview.rules.daily + (i === cycle - 1 ? overview.rules.streak_bonus : 0)}
          </span>
          <span>{t('tasks.day', { n: i + 1 })}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * The task centre (spec §2 renwu/index): the member's gold coins, today's sign-in and the streak, with the bonus on
 * every seventh day in a row (spec §9); the coins open their ledger (renwu/jinbi); invitations (renwu/yaoqing) and
 * withdrawal (renwu/tixian) are a tap away.
 */
export default function TaskCentre() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const query = useQuery({
    queryKey: [TASKS_QUERY, user?.id, 'overview'],
    queryFn: () => taskOverview(context),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;

  const sign = async () => {
    try {
      const result = await signInToday(context);
      toast(
        result.bonus > 0
          ? t('tasks.signedBonus', { coins: result.coins, bonus: result.bonus, days: result.streak })
          : t('tasks.signed', { coins: result.coins }),
      );
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [TASKS_QUERY] });
  };

  return (
    <div className="page">
      <NavBar title={t('tasks.title')} />
      <QueryView query={query}>
        {(overview) => (
          <>
            <section className="tasks-head">
              <button type="button" className="tasks-coins" onClick={() => open('renwu/jinbi')}>
                <strong data-testid="coins">{overview.coins}</strong>
                <span>{t('tasks.coins')}</span>
              </button>
              <div className="tasks-streak">{t('tasks.streak', { count: overview.streak })}</div>
            </section>
            <StreakDays overview={overview} />
            <div className="page-actions">
              <Button block color="primary" disabled={overview.signed_today} onClick={() => void sign()}>
                {overview.signed_today ? t('tasks.signedToday') : t('tasks.signIn')}
              </Button>
            </div>
            <List>
              <List.Item arrow onClick={() => open('renwu/yaoqing')}>
                {t('tasks.invite')}
              </List.Item>
              <List.Item arrow onClick={() => open('renwu/tixian')}>
                {t('tasks.withdraw')}
              </List.Item>
              <List.Item arrow onClick={() => open('renwu/jinbi')}>
                {t('tasks.ledger')}
              </List.Item>
            </List>
            <List header={t('tasks.rules')}>
              <List.Item>
                {t('tasks.rulesText', {
                  daily: overview.rules.daily,
                  days: overview.rules.streak_days,
                  bonus: overview.rules.streak_bonus,
                })}
              </List.Item>
            </List>
          </>
        )}
      </QueryView>
    </div>
  );
}
