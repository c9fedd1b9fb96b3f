/**
 * Connection states (product spec §4). `expired_reconnected` is a reconnect that the server answered with a new
 * session id: whatever the old session held (subscriptions, presence) must be set up again.
 */
export type ConnectionStatus =
  | 'disconnected'
  | 'connecting'
  | 'connected'
  | 'reconnecting'
  | 'reconnected'
  | 'expired_reconnected'
  | 'disconnecting'
  | 'connect_failed';

/** Every state, in the order of the spec. */
export const CONNECTION_STATUSES: readonly ConnectionStatus[] = [
  'disconnected',
  'connecting',
  'connected',
  'reconnecting',
  'reconnected',
  'expired_reconnected',
  'disconnecting',
  'connect_failed',
];

/**
 * The transitions the connection core may make. Anything else is a bug, and the core refuses it.
 * - `connect()`: disconnected or connect_failed -> connecting
 * - authorized: connecting -> connected; reconnecting -> reconnected (same sid) or expired_reconnected (new sid)
 * - authorize refused: connecting or reconnecting -> connect_failed (while reconnecting, 429 and 5xx are retried:
 *   CONN-13)
 * - link lost: connected, reconnected, expired_reconnected -> reconnecting
 * - `disconnect()`: any state but disconnected -> disconnecting -> disconnected
 */
export const TRANSITIONS: Readonly<Record<ConnectionStatus, readonly ConnectionStatus[]>> = {
  disconnected: ['connecting'],
  connecting: ['connected', 'connect_failed', 'disconnecting'],
  connected: ['reconnecting', 'disconnecting'],
  reconnecting: ['reconnected', 'expired_reconnected', 'connect_failed', 'disconnecting'],
  reconnected: ['reconnecting', 'disconnecting'],
  expired_reconnected: ['reconnecting', 'disconnecting'],
  disconnecting: ['disconnected'],
  connect_failed: ['connecting', 'disconnecting'],
};

/** Whether requests can flow: the connection is up and authorized. */
export function isOnline(status: ConnectionStatus): boolean {
  switch (status) {
    case 'connected':
    case 'reconnected':
    case 'expired_reconnected':
      return true;
    case 'disconnected':
    case 'connecting':
    case 'reconnecting':
    case 'disconnecting':
    case 'connect_failed':
      return false;
  }
}

/** The context every `connectionStatus` listener receives. */
export interface ConnectionStatusChange {
  /** The state now. */
  status: ConnectionStatus;
  /** The state before. */
  previous: ConnectionStatus;
  /** Why it changed, for logs and display. */
  reason: string;
  /** For `connect_failed`: the server's refusal or the timeout. */
  error?: { code: number; content: string };
}
