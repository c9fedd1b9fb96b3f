import type { ConnectionStatus, ParleyClient } from 'parley-im';
import { useSyncExternalStore } from 'react';

/** A value that changes over time: `subscribe` and `getSnapshot`, as the SDK's live values have. */
export interface Live<T> {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => T;
}

/** Re-renders whenever `source` changes. */
export function useLive<T>(source: Live<T>): T {
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
}

/** The link to the server as a chat sees it: whether requests can go out now, and news when they can again. */
export interface ChatLink {
  isOnline(): boolean;
  /** Calls `listener` each time the connection comes (back) up; returns the unsubscribe function. */
  onOnline(listener: () => void): () => void;
}

const ONLINE: ReadonlySet<ConnectionStatus> = new Set(['connected', 'reconnected', 'expired_reconnected']);

/** The link of an SDK client. */
export function clientLink(client: ParleyClient): ChatLink {
  return {
    isOnline: () => ONLINE.has(client.getConnectionStatus()),
    onOnline: (listener) =>
      client.on('connectionStatus', ({ status }) => {
        if (ONLINE.has(status)) listener();
      }),
  };
}
