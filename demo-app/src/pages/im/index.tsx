import { Avatar, Badge, ErrorBlock, List, SwipeAction } from 'antd-mobile';
import type { TFunction } from 'i18next';
import type { Conversation } from 'parley-im';
import { useConversations, useParleyClient } from 'parley-im/react';
import { useTranslation } from 'react-i18next';
import { useMessaging } from '../../app/messaging';
import { useNavigateTo } from '../../app/navigation';
import { csPreview } from '../../features/cs/preview';
import { relativeTime } from '../../features/im/time';
import { useNow } from '../../features/im/useNow';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';

/**
 * The other side's id, and where its chat opens: customer service opens the customer's chat with the team, or for
 * an agent's conversation with a customer, the console.
 */
function targetOf(c: Conversation): { id: string; path: string } {
  if (c.type === 'cs') {
    const teamId = c.teamId ?? c.id ?? '';
    const id = c.id ?? '';
    return id === teamId
      ? { id, path: `im/view?${new URLSearchParams({ team: teamId }).toString()}` }
      : { id, path: `im/console?${new URLSearchParams({ team: teamId, customer: id }).toString()}` };
  }
  return c.type === 'group'
    ? { id: c.groupId ?? '', path: `im/view?gid=${encodeURIComponent(c.groupId ?? '')}` }
    : { id: c.userId ?? '', path: `im/view?uid=${encodeURIComponent(c.userId ?? '')}` };
}

/** A conversation's name: its data's, else the words for a team, a customer, a group or a user. */
function nameOf(c: Conversation, id: string, t: TFunction): string {
  if (typeof c.data['name'] === 'string' && c.data['name'] !== '') return c.data['name'];
  if (c.type === 'cs') return id === (c.teamId ?? id) ? t('cs.team') : t('cs.customer', { id });
  return t(c.type === 'group' ? 'im.group' : 'im.user', { id });
}

function ConversationList() {
  const { t, i18n } = useTranslation();
  const client = useParleyClient();
  const { list, loading } = useConversations();
  const open = useNavigateTo();
  const now = useNow();
  const me = String(client.user?.id ?? '');

  if (!list) return loading ? <DelayedLoading /> : <DelayedLoading delayMs={2000} />;
  if (list.conversations.length === 0) return <ErrorBlock status="empty" title={t('im.empty')} description="" />;
  // The SDK sorts pinned first, then newest; sorting again keeps that promise visible here.
  const sorted = [...list.conversations].sort(
    (a, b) => Number(b.top) - Number(a.top) || b.lastMessage.timestamp - a.lastMessage.timestamp,
  );
  const act = (work: Promise<unknown>) => work.catch((e: unknown) => toastError((e as Error).message));

  return (
    <List className="conversations">
      {sorted.map((c) => {
        const { id, path } = targetOf(c);
        const name = nameOf(c, id, t);
        const avatar = typeof c.data['avatar'] === 'string' ? c.data['avatar'] : '';
        return (
          <SwipeAction
            key={`${c.type}:${c.teamId ?? ''}:${id}`}
            rightActions={[
              {
                key: 'top',
                text: c.top ? t('im.unpin') : t('im.pin'),
                color: 'primary',
                onClick: () => void act(client.im.topConversation({ conversation: c, top: !c.top })),
              },
              {
                key: 'remove',
                text: t('im.remove'),
                color: 'danger',
                onClick: () => void act(client.im.removeConversation({ conversation: c })),
              },
            ]}
          >
            <List.Item
              className={c.top ? 'conversation pinned' : 'conversation'}
              data-testid="conversation"
              prefix={
                <Badge content={c.unread > 0 ? (c.unread > 99 ? '99+' : c.unread) : null}>
                  <Avatar src={avatar} style={{ '--size': '44px', '--border-radius': '50%' }} />
                </Badge>
              }
              description={<span className="preview">{csPreview(c.lastMessage, me, t)}</span>}
              extra={<span className="time">{relativeTime(c.lastMessage.timestamp, now, t, i18n.language)}</span>}
              onClick={() => open(path)}
            >
              {name}
            </List.Item>
          </SwipeAction>
        );
      })}
    </List>
  );
}

/** Conversation list: avatar, name, last message, relative time, unread badge, pinned first; swipe to pin or delete. */
export default function ImIndex() {
  const { t } = useTranslation();
  const { available } = useMessaging();
  return (
    <div className="page">
      <NavBar title={t('im.title')} />
      {available ? <ConversationList /> : <DelayedLoading />}
    </div>
  );
}
