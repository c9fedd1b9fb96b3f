import { ActionSheet, Avatar, Button, DotLoading } from 'antd-mobile';
import type { Message } from 'parley-im';
import { useTranslation } from 'react-i18next';
import { MessageText } from './MessageText';
import { previewOf } from './preview';

/** Props of {@link MessageBubble}. */
export interface MessageBubbleProps {
  message: Message;
  me: string;
  emoji: Record<string, string> | undefined;
  /** Whether to show the sender's name (group chats). */
  showSender: boolean;
  onRetry: (message: Message) => void;
  onRecall: (message: Message) => void;
  onDelete: (message: Message) => void;
}

/** One message: own on the right with its status (sending, failed with retry, read), others on the left. */
export function MessageBubble({ message: m, me, emoji, showSender, onRetry, onRecall, onDelete }: MessageBubbleProps) {
  const { t } = useTranslation();
  const own = m.senderId === me;
  if (m.recalled) {
    return (
      <div className="message-notice" data-testid="message-recalled">
        {own ? t('im.youRecalled') : t('im.recalled')}
      </div>
    );
  }
  const sender = m.scene === 'group' ? m.senderData : {};
  // previewOf gives a text message's own text, and "[image]" and the like for the rest.
  const text = previewOf(m, me, t);

  const openActions = () => {
    // Recall: own, successful, not yet recalled (spec §4); delete: anything not being sent (spec §5).
    const actions = [
      ...(own && m.status === 'success' ? [{ key: 'recall', text: t('im.recall'), onClick: () => onRecall(m) }] : []),
      ...(m.status !== 'sending'
        ? [{ key: 'delete', text: t('im.delete'), danger: true, onClick: () => onDelete(m) }]
        : []),
    ];
    if (actions.length === 0) return;
    const sheet = ActionSheet.show({
      actions: actions.map(({ onClick, ...a }) => ({ ...a, onClick: () => (sheet.close(), onClick()) })),
      cancelText: t('common.cancel'),
    });
  };

  return (
    <div className={own ? 'message own' : 'message'} data-testid="message" data-status={m.status}>
      {!own && <Avatar src={typeof sender['avatar'] === 'string' ? sender['avatar'] : ''} className="message-avatar" />}
      <div className="message-body">
        {showSender && !own && typeof sender['name'] === 'string' && (
          <div className="message-sender">{sender['name']}</div>
        )}
        <div className="bubble" onClick={openActions} role="button" tabIndex={0}>
          <MessageText text={text} emoji={emoji} />
        </div>
        {own && (
          <div className="message-status">
            {m.status === 'sending' && (
              <span>
                <DotLoading /> {t('im.sending')}
              </span>
            )}
            {m.status === 'fail' && (
              <Button size="mini" color="danger" fill="none" onClick={() => onRetry(m)}>
                {t('im.failed')} · {t('common.retry')}
              </Button>
            )}
            {m.status === 'success' && m.scene === 'private' && (
              <span className={m.read ? 'read' : 'unread'} data-testid="read-mark">
                {m.read ? t('im.read') : t('im.unread')}
              </span>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
