import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { QueryView } from '../../features/api/QueryView';
import { TASKS_QUERY } from '../../features/tasks/api';
import { invitationInfo, invitationLink, invitedPage, type InvitationInfo } from '../../features/tasks/invitations';
import { NavBar } from '../../ui/NavBar';
import { copyText } from '../../ui/clipboard';
import './renwu.css';

/** The code, what it earned, and the ways to pass the link on: the system's share sheet where there is one. */
function InvitationCard({ info }: { info: InvitationInfo }) {
  const { t } = useTranslation();
  const link = invitationLink(info.code);

  // Without a clipboard, the link itself, to copy by hand.
  const copy = () => copyText(link, t('invite.copied'), t('invite.copyFailed', { link }));
  const share = async () => {
    try {
      await navigator.share({ title: t('invite.title'), text: t('invite.shareText'), url: link });
    } catch {
      // Dismissed, or refused: nothing to say.
    }
  };

  return (
    <>
      <section className="tasks-head">
        <span className="tasks-streak">{t('invite.code')}</span>
        <strong className="invite-code" data-testid="invite-code">
          {info.code}
        </strong>
        <span className="tasks-streak">{t('invite.reward', { coins: info.rules.coins })}</span>
        <span data-testid="invite-summary">
          {t('invite.invited', { count: info.invited })} · {t('invite.earned', { coins: info.coins })}
        </span>
      </section>
      <div className="page-actions">
        <Button block color="primary" onClick={() => void copy()}>
          {t('invite.copy')}
        </Button>
        {typeof navigator.share === 'function' && (
          <Button block onClick={() => void share()}>
            {t('invite.share')}
          </Button>
        )}
      </div>
      <List header={t('invite.rules')}>
        <List.Item>{t('invite.rulesText', { coins: info.rules.coins, max: info.rules.daily_max })}</List.Item>
      </List>
    </>
  );
}

/**
 * Invite friends (spec §1 "invitations", §2 renwu/yaoqing): the member's invitation code and link, to copy or share,
 * what the invitations earned, and the friends who signed up with it, newest first, each opening their home.
 */
export default function InviteFriends() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const query = useQuery({
    queryKey: [TASKS_QUERY, user?.id, 'invite'],
    queryFn: () => invitationInfo(context),
    enabled: user !== null,
    retry: false,
  });
  const friends = usePagedList(
    [TASKS_QUERY, user?.id, 'invited'],
    (before) => invitedPage(before, context),
    user !== null,
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('invite.title')} />
      <QueryView query={query}>{(info) => <InvitationCard info={info} />}</QueryView>
      <List header={t('invite.friends')}>
        <PagedList list={friends} empty={<ErrorBlock status="empty" title={t('invite.none')} description="" />}>
          {(items) =>
            items.map((friend) => (
              <List.Item
                key={friend.id}
                data-testid="invited"
                prefix={<Avatar src={friend.img} style={{ '--size': '40px', '--border-radius': '50%' }} />}
                description={new Date(friend.created_at).toLocaleString(i18n.language)}
                extra={
                  <span className={friend.coins > 0 ? 'coin-amount' : 'coin-amount coin-amount-out'}>
                    {friend.coins > 0 ? t('invite.coins', { coins: friend.coins }) : t('invite.noCoins')}
                  </span>
                }
                onClick={friend.username ? () => open(`user/home?id=${encodeURIComponent(friend.id)}`) : undefined}
              >
                {friend.username || t('invite.cancelled')}
              </List.Item>
            ))
          }
        </PagedList>
      </List>
    </div>
  );
}
