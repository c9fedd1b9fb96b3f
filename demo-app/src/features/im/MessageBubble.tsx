import { ActionSheet, Avatar, Button, DotLoading } from 'antd-mobile';
import type { Message, MessageUpload } from 'parley-im';
import { useTranslation } from 'react-i18next';
import { isMedia } from './media';
import { MediaContent } from './MediaContent';
import { MessageText } from './MessageText';
import { previewOf } from './preview';

/** Props of {@link MessageBubble}. */
export interface MessageBubbleProps {
  message: Message;
  me: string;
  emoji: Record<string, string> | undefined;
  /** Whether to show the sender's name (group chats). */
  showSender: boolean;
  /** The upload of an own media message this device sends, or failed to. */
  upload?: MessageUpload | undefined;
  onRetry: (message: Message) => void;
  onRecall: (message: Message) => void;
  onDelete: (message: Message) => void;
  onAbort?: (message: Message) => void;
}

/**
 * One message: own on the right with its status (sending with upload progress, failed with retry, read), others on
 * the left. Text and media; tap a text bubble, long-press any, or use "more" beside media, for recall and delete.
 */
export function MessageBubble({
  message: m,
  me,
  emoji,
  showSender,
  upload,
  onRetry,
  onRecall,
  onDelete,
  onAbort,
}: MessageBubbleProps) {
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
  const media = isMedia(m);

  // Recall: own, successful, not yet recalled (spec §4); delete: anything not being sent (spec §5).
  const actions = [
    ...(own && m.status === 'success' ? [{ key: 'recall', text: t('im.recall'), onClick: () => onRecall(m) }] : []),
    ...(m.status !== 'sending'
      ? [{ key: 'delete', text: t('im.delete'), danger: true, onClick: () => onDelete(m) }]
      : []),
  ];
  const openActions = () => {
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
        <div className="message-row">
          <div
            className={media ? 'bubble bubble-media' : 'bubble'}
            onClick={media ? undefined : openActions}
            onContextMenu={(e) => {
              e.preventDefault();
              openActions();
            }}
            role={media ? undefined : 'button'}
            tabIndex={media ? undefined : 0}
          >
            {media ? (
              <MediaContent
                kind={m.type}
                payload={m.payload}
                upload={upload}
                uploading={m.status === 'sending'}
                onAbort={() => onAbort?.(m)}
              />
            ) : (
              // previewOf gives a text message's own text, and "[message]" for an app's custom types.
              <MessageText text={previewOf(m, me, t)} emoji={emoji} />
            )}
          </div>
          {media && actions.length > 0 && (
            <button type="button" className="message-more" aria-label={t('im.more')} onClick={openActions}>
              ⋯
            </button>
          )}
        </div>
        {own && (
          <div className="message-status">
            {m.status === 'sending' && !upload && (
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
