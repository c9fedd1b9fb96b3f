import { Button } from 'antd-mobile';
import type { Message } from 'parley-im';
import { useConnectionStatus, useMessages, useParleyClient, useTyping, type ConversationTarget } from 'parley-im/react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { Composer } from './Composer';
import { errorText } from './errors';
import { MessageBubble } from './MessageBubble';
import './im.css';

/** A user's shown name: the `name` of their data, or their id. */
function nameOf(data: Record<string, unknown>, id: string): string {
  return typeof data['name'] === 'string' && data['name'] !== '' ? data['name'] : id;
}

/** Loading older messages starts when the list is scrolled this close to its top. */
const TOP_THRESHOLD_PX = 40;

/**
 * A chat: history paging on scroll up, live messages, read marks, who is typing, sending text and files, retry,
 * recall and delete.
 */
export function ChatRoom({ target, emoji }: { target: ConversationTarget; emoji: Record<string, string> | undefined }) {
  const { t } = useTranslation();
  const client = useParleyClient();
  const status = useConnectionStatus();
  // Used as `chat.x()`: the SDK declares these as methods.
  const chat = useMessages(target);
  const typing = useTyping(target);
  const { messages, uploads, loading, hasMore, error } = chat;
  const me = String(client.user?.id ?? '');
  const list = useRef<HTMLDivElement>(null);
  // Scroll height before an older page was prepended, to keep what the reader sees in place.
  const heightBeforeMore = useRef<number | undefined>(undefined);
  const newest = messages.at(-1);

  // Read marks: whatever arrives from others while this chat is open counts as read.
  const newestIncoming = messages.findLast((m) => m.senderId !== me && m.status === 'success')?.timestamp;
  useEffect(() => {
    if (newestIncoming !== undefined && document.visibilityState === 'visible')
      void chat.markRead().catch(() => undefined);
  }, [newestIncoming, chat]);

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (heightBeforeMore.current !== undefined) {
      el.scrollTop = el.scrollHeight - heightBeforeMore.current;
      heightBeforeMore.current = undefined;
    } else {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages.length, newest?.messageId]);

  const loadMore = () => {
    const el = list.current;
    if (el) heightBeforeMore.current = el.scrollHeight;
    void chat.loadMore();
  };
  const onScroll = () => {
    const el = list.current;
    if (!el || loading || !hasMore || error || el.scrollTop > TOP_THRESHOLD_PX || messages.length === 0) return;
    loadMore();
  };

  const run = (work: Promise<unknown>) => void work.catch((e: unknown) => toastError(errorText(e, t)));
  const onRecall = (m: Message) => run(client.im.recallMessage({ messages: [m] }));
  const onDelete = (m: Message) => run(client.im.deleteMessage({ messages: [m] }));

  return (
    <>
      {status !== 'connected' && status !== 'reconnected' && status !== 'expired_reconnected' && (
        <div className="connection-banner" role="status">
          {status === 'connect_failed'
            ? t('im.connectFailed')
            : status === 'reconnecting'
              ? t('im.reconnecting')
              : t('im.connecting')}
        </div>
      )}
      <div className="messages" ref={list} onScroll={onScroll} data-testid="messages">
        <div className="messages-top">
          {error ? (
            <span role="alert">
              {t('im.historyFailed')}{' '}
              <Button size="mini" fill="none" color="primary" onClick={loadMore}>
                {t('common.retry')}
              </Button>
            </span>
          ) : loading ? (
            t('im.loadingMore')
          ) : hasMore ? (
            ''
          ) : (
            t('im.noMore')
          )}
        </div>
        {messages.map((m) => (
          <MessageBubble
            key={m.messageId}
            message={m}
            me={me}
            emoji={emoji}
            showSender={target.type === 'group'}
            upload={uploads[m.messageId]}
            onRetry={(failed) => run(chat.retry(failed))}
            onRecall={onRecall}
            onDelete={onDelete}
            onAbort={(sending) => chat.abort(sending)}
          />
        ))}
      </div>
      {typing.typingUsers.length > 0 && (
        <div className="typing-line" role="status">
          {target.type === 'private'
            ? t('im.typing')
            : t('im.typingIn', {
                names: typing.typingUsers.map((u) => nameOf(u.data, u.id)).join(t('im.nameSeparator')),
              })}
        </div>
      )}
      <Composer
        emoji={emoji}
        onSend={(text) => run(chat.sendText(text))}
        onTooLong={() => toastError(t('im.textTooLong'))}
        onAttach={(kind, file) => run(chat.sendFile({ kind, file }))}
        onTyping={typing.keystroke}
        onStopTyping={typing.stopTyping}
      />
    </>
  );
}
