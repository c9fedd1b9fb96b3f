import { useQuery } from '@tanstack/react-query';
import { ErrorBlock, Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { memberProfile } from '../../features/member/api';
import { FOLLOWS_QUERY, followPage, type FollowListType } from '../../features/member/follows';
import { MemberList } from '../../features/member/MemberList';
import { NavBar } from '../../ui/NavBar';

/**
 * Follows (spec §2 member/guanzhu): whom a member follows and who follows them, as two tabs (`?tab=fans` opens the
 * second), the signed-in member's own or, with `?id=`, another member's. Each line opens that member's home and
 * follows or unfollows them; twenty at a time, newest first.
 */
export default function Follows() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const owner = params.get('id') || undefined;
  const own = owner === undefined || owner === user?.id;
  const type: FollowListType = params.get('tab') === 'fans' ? 'fans' : 'follows';
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
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
      <MemberList
        list={list}
        ownFans={own && type === 'fans'}
        empty={
          <ErrorBlock
            status="empty"
            title={type === 'fans' ? t('follows.noFans') : t('follows.noFollows')}
            description={own && type === 'follows' ? t('follows.noFollowsHint') : ''}
          />
        }
      />
    </div>
  );
}
