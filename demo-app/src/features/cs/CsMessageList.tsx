import { Avatar, Button, DotLoading } from 'antd-mobile';
import type { CsMessage } from 'parley-im';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageText } from '../im/MessageText';
import { previewOf } from '../im/preview';
import { csPreview, isSessionEvent } from './preview';
import { nameOf } from './status';

/** Loading older messages starts when the list is scrolled this close to its top. */
const TOP_THRESHOLD_PX = 40;

/** Props of {@link CsMessageList}. */
export interface CsMessageListProps {
  messages: readonly CsMessage[];
  me: string;
  emoji: Record<string, string> | undefined;
  loading: boolean;
  hasMore: boolean;
  onLoadMore: () => void;
  onRetry: (message: CsMessage) => void;
}

/** A session event as a line of its own: accepted by, handed over to, ended. */
function Notice({ message, me }: { message: CsMessage; me: string }) {
  const { t } = useTranslation();
  return (
    <div className="message-notice" data-testid="cs-notice">
      {csPreview(message, me, t)}
    </div>
  );
}

/** One message: mine on the right with its status, others on the left with their name. No recall: spec §5. */
function Bubble({
  message: m,
  me,
  emoji,
  onRetry,
}: {
  message: CsMessage;
  me: string;
  emoji?: Record<string, string>;
  onRetry: (m: CsMessage) => void;
}) {
  const { t } = useTranslation();
  const own = m.senderId === me;
  const avatar = m.senderData['avatar'];
  return (
    <div className={own ? 'message own' : 'message'} data-testid="message" data-status={m.status}>
      {!own && <Avatar src={typeof avatar === 'string' ? avatar : ''} className="message-avatar" />}
      <div className="message-body">
        {!own && nameOf(m.senderData) !== '' && <div className="message-sender">{nameOf(m.senderData)}</div>}
        <div className="bubble">
          <MessageText text={previewOf(m, me, t)} emoji={emoji} />
        </div>
        {own && m.status !== 'success' && (
          <div className="message-status">
            {m.status === 'fail' ? (
              <Button size="mini" color="danger" fill="none" onClick={() => onRetry(m)}>
                {t('im.failed')} · {t('common.retry')}
              </Button>
            ) : (
              <span>
                <DotLoading /> {t('im.sending')}
              </span>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

/** A customer-service conversation: session events as notices, messages as bubbles, older pages on scroll up. */
export function CsMessageList({ messages, me, emoji, loading, hasMore, onLoadMore, onRetry }: CsMessageListProps) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  // Scroll height before an older page was prepended, to keep what the reader sees in place.
  const heightBeforeMore = useRef<number | undefined>(undefined);
  const newest = messages.at(-1);

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    el.scrollTop =
      heightBeforeMore.current === undefined ? el.scrollHeight : el.scrollHeight - heightBeforeMore.current;
    heightBeforeMore.current = undefined;
  }, [messages.length, newest?.messageId]);

  const onScroll = () => {
    const el = list.current;
    if (!el || loading || !hasMore || el.scrollTop > TOP_THRESHOLD_PX || messages.length === 0) return;
    heightBeforeMore.current = el.scrollHeight;
    onLoadMore();
  };

  return (
    <div className="messages" ref={list} onScroll={onScroll} data-testid="messages">
      <div className="messages-top">{loading ? t('im.loadingMore') : hasMore ? '' : t('im.noMore')}</div>
      {messages.map((m) =>
        isSessionEvent(m) ? (
          <Notice key={m.messageId} message={m} me={me} />
        ) : (
          <Bubble key={m.messageId} message={m} me={me} emoji={emoji} onRetry={onRetry} />
        ),
      )}
    </div>
  );
}
