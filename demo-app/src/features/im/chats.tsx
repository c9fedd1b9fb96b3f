import { useQuery } from '@tanstack/react-query';
import { ActionSheet, Button } from 'antd-mobile';
import { useConnectionStatus, useParleyClient, usePresence } from 'parley-im/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { memberProfile } from '../member/api';
import { useBlock } from '../member/relations';
import { ChatRoom } from './ChatRoom';
import { GroupPresence } from './GroupPresence';

type Emoji = Record<string, string> | undefined;

const ONLINE = new Set(['connected', 'reconnected', 'expired_reconnected']);

/**
 * Private chat with `uid`: the peer's name and presence (online or offline) in the header, and a menu to open their
 * home and to block or unblock them (spec §2 member/lahei). While they are blocked a banner says so, with a way to
 * unblock; the server refuses private messages between members who blocked each other, either way.
 */
export function PrivateChat({ uid, emoji }: { uid: string; emoji: Emoji }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const presence = usePresence([uid]);
  const [menu, setMenu] = useState(false);
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const profile = useQuery({
    queryKey: ['member/profile', uid],
    queryFn: () => memberProfile(uid, context),
    retry: false,
  });
  const name = profile.data?.username || t('im.user', { id: uid });
  const online = presence[uid];
  const blocked = profile.data?.blocked === true;

  const changeBlock = useBlock();

  return (
    <>
      <NavBar
        title={name}
        right={
          <span className="chat-header-right">
            {online === undefined ? null : (
              <span className={online ? 'presence online' : 'presence'} data-testid="presence">
                {online ? t('im.online') : t('im.offline')}
              </span>
            )}
            {profile.data && (
              <button type="button" className="chat-menu" aria-label={t('blocks.menu')} onClick={() => setMenu(true)}>
                ⋯
              </button>
            )}
          </span>
        }
      />
      {blocked && (
        <div className="blocked-banner" role="status">
          <span>{t('blocks.youBlocked')}</span>
          <Button size="mini" color="primary" fill="outline" onClick={() => void changeBlock(uid, false)}>
            {t('blocks.unblock')}
          </Button>
        </div>
      )}
      <ActionSheet
        visible={menu}
        onClose={() => setMenu(false)}
        cancelText={t('common.cancel')}
        actions={[
          { key: 'home', text: t('home.title') },
          blocked
            ? { key: 'unblock', text: t('blocks.unblock') }
            : { key: 'block', text: t('blocks.block'), danger: true, description: t('blocks.blockHint') },
        ]}
        onAction={(action) => {
          setMenu(false);
          if (action.key === 'home') open(`user/home?id=${encodeURIComponent(uid)}`);
          else void changeBlock(uid, action.key === 'block');
        }}
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
