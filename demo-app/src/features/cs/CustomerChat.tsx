import type { CsMessage } from 'parley-im';
import { useParleyClient } from 'parley-im/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../ui/toast';
import { errorText } from '../im/errors';
import { Composer } from '../im/Composer';
import { LiveCsChat, customerChannel } from './chat';
import { ConnectionBanner, useReadMarks } from './ChatParts';
import { CsMessageList } from './CsMessageList';
import { CsStatusLine } from './CsStatusLine';
import { clientLink, useLive } from './live';
import { customerView } from './status';
import './cs.css';

/**
 * The customer's chat with a customer-service team (spec §6: a customer sees only their own conversation): the
 * session status, the messages with the team, and the composer.
 */
export function CustomerChat({
  teamId,
  teamName,
  me,
  emoji,
}: {
  teamId: string;
  /** As configured; may be empty. */
  teamName: string;
  me: string;
  emoji: Record<string, string> | undefined;
}) {
  const { t } = useTranslation();
  const client = useParleyClient();
  const chat = useMemo(
    () => new LiveCsChat(customerChannel(client, teamId, { name: teamName }), clientLink(client)),
    [client, teamId, teamName],
  );
  const state = useLive(chat);
  const markRead = useMemo(() => () => chat.markRead(), [chat]);
  useReadMarks(state, me, markRead);
  const run = (work: Promise<unknown>) => void work.catch((e: unknown) => toastError(errorText(e, t)));

  return (
    <>
      <ConnectionBanner />
      <CsStatusLine view={customerView(state.messages, me)} perspective="customer" me={me} />
      <CsMessageList
        messages={state.messages}
        me={me}
        emoji={emoji}
        loading={state.loading}
        hasMore={state.hasMore}
        onLoadMore={() => void chat.loadMore()}
        onRetry={(m: CsMessage) => run(chat.retry(m))}
      />
      {state.typing && (
        <div className="typing-line" role="status">
          {t('cs.agentTyping')}
        </div>
      )}
      <Composer
        emoji={emoji}
        onSend={(text) => run(chat.sendText(text))}
        onTooLong={() => toastError(t('im.textTooLong'))}
        onTyping={() => chat.keystroke()}
        onStopTyping={() => chat.stopTyping()}
      />
    </>
  );
}
