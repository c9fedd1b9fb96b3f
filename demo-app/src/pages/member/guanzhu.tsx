import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, List, Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { memberProfile } from '../../features/member/api';
import { FOLLOWS_QUERY, followPage, type FollowListType, type FollowedMember } from '../../features/member/follows';
import { useFollow } from '../../features/member/relations';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';

/** The follow button of one line: none on oneself; Following (or Mutual, among one's own fans) to unfollow; Follow. */
function FollowButton({ member, ownFans }: { member: FollowedMember; ownFans: boolean }) {
  const { t } = useTranslation();
  const follow = useFollow();
  const label = member.followed
    ? t(ownFans ? 'follows.mutual' : 'follows.following')
    : t(ownFans ? 'follows.followBack' : 'follows.follow');
  return (
    <Button
      size="small"
      color={member.followed ? 'default' : 'primary'}
      fill={member.followed ? 'outline' : 'solid'}
      onClick={(event) => {
        event.stopPropagation();
        void follow(member.id, !member.followed);
      }}
    >
      {label}
    </Button>
  );
}

/**
 * Follows (spec §2 member/guanzhu): whom a member follows and who follows them, as two tabs (`?tab=fans` opens the
 * second), the signed-in member's own or, with `?id=`, another member's. Each line opens that member's home and
 * follows or unfollows them; twenty at a time, newest first.
 */
export default function Follows() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [params, setParams] = useSearchParams();
  const owner = params.get('id') || undefined;
  const own = owner === undefined || owner === user?.id;
  const type: FollowListType = params.get('tab') === 'fans' ? 'fans' : 'follows';
  const context = { token: user?.token, locale: i18n.language };
  const { query, items } = usePagedList(
    [FOLLOWS_QUERY, user?.id, own ? undefined : owner, type],
    (before) => followPage({ type, owner: own ? undefined : owner, before }, context),
    user !== null,
  );
  const profile = useQuery({
    queryKey: ['member/profile', owner],
    queryFn: () => memberProfile(owner ?? '', context),
    enabled: user !== null && !own,
    retry: false,
  });
  if (!user) return null;

  const name = own ? undefined : profile.data?.username;
  const switchTo = (key: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (key === 'fans') next.set('tab', 'fans');
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="page">
      <NavBar title={name ? t('follows.titleOf', { name }) : t('follows.title')} />
      <Tabs activeKey={type} onChange={switchTo}>
        <Tabs.Tab title={t('follows.followsTab')} key="follows" />
        <Tabs.Tab title={t('follows.fansTab')} key="fans" />
      </Tabs>
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError && items.length === 0 ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : items.length === 0 ? (
        <ErrorBlock
          status="empty"
          title={type === 'fans' ? t('follows.noFans') : t('follows.noFollows')}
          description={own && type === 'follows' ? t('follows.noFollowsHint') : ''}
        />
      ) : (
        <List>
          {items.map((member) => (
            <List.Item
              key={member.id}
              prefix={<Avatar src={member.img} style={{ '--size': '40px', '--border-radius': '50%' }} />}
              description={member.qianming || undefined}
              extra={member.id === user.id ? null : <FollowButton member={member} ownFans={own && type === 'fans'} />}
              onClick={() => open(`user/home?id=${encodeURIComponent(member.id)}`)}
              data-testid="follow-line"
            >
              {member.username || t('im.user', { id: member.id })}
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
