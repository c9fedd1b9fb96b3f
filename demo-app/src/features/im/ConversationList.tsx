import { Avatar, Badge, Button, ErrorBlock, List, SwipeAction } from 'antd-mobile';
import type { TFunction } from 'i18next';
import type { Conversation } from 'parley-im';
import { useConversations, useParleyClient } from 'parley-im/react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { toastError } from '../../ui/toast';
import { csPreview } from '../cs/preview';
import { errorText } from './errors';
import { relativeTime } from './time';
import { useNow } from './useNow';

/**
 * The other side's id, and where its chat opens: a user's or a group's chat; customer service opens the customer's
 * chat with the team, or for an agent's conversation with a customer, the console.
 */
export function targetOf(c: Conversation): { id: string; path: string } {
  if (c.type === 'cs') {
    const teamId = c.teamId ?? c.id ?? '';
    const id = c.id ?? '';
    return id === teamId
      ? { id, path: `im/view?${new URLSearchParams({ team: teamId }).toString()}` }
      : { id, path: `im/console?${new URLSearchParams({ team: teamId, customer: id }).toString()}` };
  }
  return c.type === 'group'
    ? { id: c.groupId ?? '', path: `im/view?${new URLSearchParams({ gid: c.groupId ?? '' }).toString()}` }
    : { id: c.userId ?? '', path: `im/view?${new URLSearchParams({ uid: c.userId ?? '' }).toString()}` };
}

/** A conversation's name: its data's, else the words for a team, a customer, a group or a user. */
function nameOf(c: Conversation, id: string, t: TFunction): string {
  if (typeof c.data['name'] === 'string' && c.data['name'] !== '') return c.data['name'];
  if (c.type === 'cs') return id === (c.teamId ?? id) ? t('cs.team') : t('cs.customer', { id });
  return t(c.type === 'group' ? 'im.group' : 'im.user', { id });
}

/**
 * The conversation list (spec §2, §9): avatar, name, last message ("[Image]" and the like for media), relative
 * time, unread badge, pinned first then newest; swipe to pin or remove; a failed load says so and offers a retry.
 */
export function ConversationList() {
  const { t, i18n } = useTranslation();
  const client = useParleyClient();
  // Used as `conversations.refresh()`: the SDK declares it as a method.
  const conversations = useConversations();
  const { list, loading, error } = conversations;
  const open = useNavigateTo();
  const now = useNow();
  const me = String(client.user?.id ?? '');

  if (!list && error && !loading) {
    return (
      <ErrorBlock status="disconnected" title={t('im.listFailed')} description={errorText(error, t)}>
        <Button color="primary" onClick={() => void conversations.refresh()}>
          {t('common.retry')}
        </Button>
      </ErrorBlock>
    );
  }
  if (!list) return <DelayedLoading />;
  if (list.conversations.length === 0) return <ErrorBlock status="empty" title={t('im.empty')} description="" />;
  // The SDK sorts pinned first, then newest; sorting again keeps that promise visible here.
  const sorted = [...list.conversations].sort(
    (a, b) => Number(b.top) - Number(a.top) || b.lastMessage.timestamp - a.lastMessage.timestamp,
  );
  const act = (work: Promise<unknown>) => work.catch((e: unknown) => toastError(errorText(e, t)));

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
              data-type={c.type}
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
