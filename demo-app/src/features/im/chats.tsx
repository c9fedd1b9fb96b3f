import { useQuery } from '@tanstack/react-query';
import { useConnectionStatus, useParleyClient, usePresence } from 'parley-im/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { memberProfile } from '../member/api';
import { ChatRoom } from './ChatRoom';
import { GroupPresence } from './GroupPresence';

type Emoji = Record<string, string> | undefined;

const ONLINE = new Set(['connected', 'reconnected', 'expired_reconnected']);

/** Private chat with `uid`: the peer's name and presence (online or offline) in the header. */
export function PrivateChat({ uid, emoji }: { uid: string; emoji: Emoji }) {
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

/**
 * Group chat: opening it joins the group (again after each new connection, which costs nothing when already a
 * member). Membership outlives the page, as in every chat app: the group's messages keep arriving, and the group
 * stays in the conversation list. The group's presence shows under the title while the page is open.
 */
export function GroupChat({ gid, emoji }: { gid: string; emoji: Emoji }) {
  const { t } = useTranslation();
  const client = useParleyClient();
  const online = ONLINE.has(useConnectionStatus());
  useEffect(() => {
    if (!online) return;
    void client.im.subscribeGroup({ groupIds: [gid] }).catch(() => undefined);
  }, [client, gid, online]);
  const name = t('im.group', { id: gid });
  return (
    <>
      <NavBar title={name} />
      <GroupPresence groupId={gid} />
      <ChatRoom target={{ type: 'group', id: gid, data: { name } }} emoji={emoji} />
    </>
  );
}
