import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { isRefusal } from '../../features/api/request';
import { PostList } from '../../features/circle/PostList';
import { ArticleList } from '../../features/content/ArticleList';
import { ReportSheet } from '../../features/content/ReportSheet';
import { memberProfile, type Gender, type PublicProfile } from '../../features/member/api';
import { FollowCounts } from '../../features/member/FollowCounts';
import { VerifiedBadge } from '../../features/member/VerifiedBadge';
import { useBlock, useFollow } from '../../features/member/relations';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import './home.css';

/** The profile's head: background, avatar, name, ID, signature, gender, region and follow counts. */
function ProfileHead({ profile, owner }: { profile: PublicProfile; owner?: string }) {
  const { t } = useTranslation();
  const gender: Gender = profile.gender ?? 'hidden';
  const facts = [gender === 'hidden' ? undefined : t(`profile.gender_${gender}`), profile.region || undefined].filter(
    (fact): fact is string => fact !== undefined,
  );
  return (
    <section
      className="home-head"
      style={profile.background ? { backgroundImage: `url(${JSON.stringify(profile.background)})` } : undefined}
      data-testid="home-head"
    >
      <Avatar src={profile.img} style={{ '--size': '72px', '--border-radius': '50%' }} />
      <div className="home-name">
        {profile.username || t('im.user', { id: profile.id })}
        {profile.shiming === 1 && <VerifiedBadge />}
      </div>
      <div className="muted">{t('mine.id', { id: profile.id })}</div>
      {facts.length > 0 && <div className="home-facts">{facts.join(' · ')}</div>}
      <p className="home-signature">{profile.qianming || t('home.noSignature')}</p>
      <FollowCounts owner={owner} follows={profile.follows ?? 0} fans={profile.fans ?? 0} likes={profile.likes ?? 0} />
    </section>
  );
}

/** A member's works on their home: their articles, and their circle posts, each in a tab. */
function HomeWorks({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState('articles');
  return (
    <>
      <Tabs activeKey={tab} onChange={setTab} className="home-works">
        <Tabs.Tab key="articles" title={t('article.works')} />
        <Tabs.Tab key="posts" title={t('circle.works')} />
      </Tabs>
      {tab === 'articles' ? (
        <ArticleList uid={uid} empty={t('article.noneOfMember')} />
      ) : (
        <PostList uid={uid} empty={t('circle.noneOfMember')} />
      )}
    </>
  );
}

/**
 * A member's home (spec §2 user/home, `?id=`; without an id, the signed-in member's own): their public profile and
 * follow counts, and for someone else a way to follow or unfollow, message, block or unblock, and report them (for
 * their profile: nickname, avatar, background, signature). Visitors are asked to sign in first, since profiles are
 * shown to members only.
 */
export default function UserHome() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const follow = useFollow();
  const changeBlock = useBlock();
  const [params] = useSearchParams();
  const [reporting, setReporting] = useState(false);
  const id = params.get('id') || user?.id || '';
  const own = id !== '' && id === user?.id;
  const context = { token: user?.token, locale: i18n.language };
  const profile = useQuery({
    queryKey: ['member/profile', id],
    queryFn: () => memberProfile(id, context),
    enabled: user !== null && id !== '' && !own,
    retry: false,
  });

  let body;
  if (!user) {
    body = (
      <ErrorBlock status="default" title={t('home.signInToSee')} description="">
        <Button color="primary" onClick={() => open(LOGIN_PATH)}>
          {t('mine.signIn')}
        </Button>
      </ErrorBlock>
    );
  } else if (own) {
    body = (
      <>
        <ProfileHead
          profile={{
            id: user.id,
            username: user.username,
            img: user.img,
            gender: user.gender ?? 'hidden',
            region: user.region ?? '',
            qianming: user.qianming ?? '',
            background: user.background ?? '',
            shiming: user.shiming ?? 0,
            follows: user.follows ?? 0,
            fans: user.fans ?? 0,
            likes: user.likes ?? 0,
          }}
        />
        <div className="page-actions">
          <Button block color="primary" onClick={() => open('member/sz-user')}>
            {t('settings.profile')}
          </Button>
        </div>
        <HomeWorks uid={id} />
      </>
    );
  } else if (profile.isPending) {
    body = <DelayedLoading />;
  } else if (profile.isError) {
    body = (
      <ErrorBlock
        status="empty"
        title={isRefusal(profile.error) ? t('errors.user_missing') : errorText(profile.error, t)}
        description=""
      />
    );
  } else {
    const blocked = profile.data.blocked === true;
    const followed = profile.data.followed === true;
    body = (
      <>
        <ProfileHead profile={profile.data} owner={id} />
        {blocked && (
          <div className="blocked-banner" role="status">
            {t('blocks.youBlocked')}
          </div>
        )}
        <div className="page-actions home-actions">
          <Button
            block
            color="primary"
            fill={followed ? 'outline' : 'solid'}
            disabled={blocked}
            onClick={() => void follow(id, !followed)}
          >
            {followed ? t('follows.following') : t('follows.follow')}
          </Button>
          <Button block disabled={blocked} onClick={() => open(`im/view?uid=${encodeURIComponent(id)}`)}>
            {t('home.message')}
          </Button>
          <Button
            block
            color={blocked ? 'default' : 'danger'}
            fill="outline"
            onClick={() => void changeBlock(id, !blocked)}
          >
            {blocked ? t('blocks.unblock') : t('blocks.block')}
          </Button>
        </div>
        {!blocked && (
          <>
            <HomeWorks uid={id} />
          </>
        )}
      </>
    );
  }

  // Another member who is there can be reported, blocked or not.
  const report = profile.isSuccess ? (
    <button type="button" className="feedback-mine" onClick={() => setReporting(true)}>
      {t('report.action')}
    </button>
  ) : undefined;
  return (
    <div className="page">
      <NavBar title={own ? t('home.mine') : t('home.title')} right={report} />
      {profile.isSuccess && (
        <ReportSheet kind="user" targetId={id} visible={reporting} onClose={() => setReporting(false)} />
      )}
      {body}
    </div>
  );
}
