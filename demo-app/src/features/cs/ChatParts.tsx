import { useConnectionStatus } from 'parley-im/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CsChatState } from './chat';

/** The connection state while it is not up: connecting, reconnecting, failed. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const status = useConnectionStatus();
  if (status === 'connected' || status === 'reconnected' || status === 'expired_reconnected') return null;
  return (
    <div className="connection-banner" role="status">
      {status === 'connect_failed'
        ? t('im.connectFailed')
        : status === 'reconnecting'
          ? t('im.reconnecting')
          : t('im.connecting')}
    </div>
  );
}

/** Marks the chat read whenever something new arrives from the other side while it is shown. */
export function useReadMarks(state: CsChatState, me: string, markRead: () => Promise<void>): void {
  const newestIncoming = state.messages.findLast((m) => m.senderId !== me && m.status === 'success')?.timestamp;
  useEffect(() => {
    if (newestIncoming !== undefined && document.visibilityState === 'visible') void markRead().catch(() => undefined);
  }, [newestIncoming, markRead]);
}
