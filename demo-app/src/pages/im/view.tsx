import { ErrorBlock } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useParleyClient, usePresence } from 'parley-im/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMessaging } from '../../app/messaging';
import { useSession } from '../../app/session';
import { useAppConfig } from '../../features/api/config';
import { CustomerChat } from '../../features/cs/CustomerChat';
import { teamTitle } from '../../features/cs/teams';
import { ChatRoom } from '../../features/im/ChatRoom';
import { memberProfile } from '../../features/member/api';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';

/** Private chat with `uid`: the peer's name and presence in the header. */
function PrivateChat({ uid, emoji }: { uid: string; emoji: Record<string, string> | undefined }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const presence = usePresence([uid]);
  const profile = useQuery({
    queryKey: ['member/profile', uid],
    queryFn: () => memberProfile(uid, { token: user?.token, locale: i18n.language }),
    retry: false,
  });
  const name = profile.data?.username || t('im.user', { id: uid });
  const online = presence[uid];
  return (
    <>
      <NavBar
        title={name}
        right={
          online === undefined ? null : (
            <span className={online ? 'presence online' : 'presence'} data-testid="presence">
              {online ? t('im.online') : t('im.offline')}
            </span>
          )
        }
      />
      {profile.isPending ? (
        <DelayedLoading />
      ) : (
        <ChatRoom
          target={{
            type: 'private',
            id: uid,
            data: profile.data ? { name: profile.data.username, avatar: profile.data.img } : {},
          }}
          emoji={emoji}
        />
      )}
    </>
  );
}

/** Group chat: joins the group so that its messages arrive, then shows it. */
function GroupChat({ gid, emoji }: { gid: string; emoji: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  const client = useParleyClient();
  useEffect(() => {
    void client.im.subscribeGroup({ groupIds: [gid] }).catch(() => undefined);
  }, [client, gid]);
  const name = t('im.group', { id: gid });
  return (
    <>
      <NavBar title={name} />
      <ChatRoom target={{ type: 'group', id: gid, data: { name } }} emoji={emoji} />
    </>
  );
}

/** The user's own chat with a customer-service team, as the kefu link opens it. */
function ServiceChat({ teamId, me, emoji }: { teamId: string; me: string; emoji: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  const kefu = useAppConfig().data?.kefu_team;
  const name = kefu?.id === teamId ? kefu.name : '';
  return (
    <>
      <NavBar title={teamTitle(name, t)} />
      <CustomerChat teamId={teamId} teamName={name} me={me} emoji={emoji} />
    </>
  );
}

/** im/view?uid= (private), im/view?gid= (group) or im/view?team= (customer service, from the kefu link). */
export default function ImView() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { available } = useMessaging();
  const { user } = useSession();
  const emoji = useAppConfig().data?.emoji;
  const uid = params.get('uid') ?? '';
  const gid = params.get('gid') ?? '';
  const team = params.get('team') ?? '';

  let body;
  if (uid !== '' && uid === user?.id) {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <ErrorBlock status="default" title={t('im.cannotMessageYourself')} description="" />
      </>
    );
  } else if (uid === '' && gid === '' && team === '') {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      </>
    );
  } else if (!available) {
    body = (
      <>
        <NavBar title={t('im.title')} />
        <DelayedLoading />
      </>
    );
  } else if (uid !== '') {
    body = <PrivateChat uid={uid} emoji={emoji} />;
  } else if (gid !== '') {
    body = <GroupChat gid={gid} emoji={emoji} />;
  } else {
    body = <ServiceChat teamId={team} me={user?.id ?? ''} emoji={emoji} />;
  }
  return <div className="page page-chat">{body}</div>;
}
