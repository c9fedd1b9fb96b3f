import type { Pusher } from '../push.js';
import type { ServerPushName } from '../protocol.js';

/** A customer of a team of an app. */
interface CustomerKey {
  appkey: string;
  teamId: string;
  customerId: string;
}

/**
 * Live sessions (`CS_LIVE_SESSION`): connections of agents watching one customer of a team. Each watch is a
 * socket.io room of the customer, so that a message handled on any node reaches the watchers on every node (CS-11);
 * which customer a connection watches is kept on the connection's node, since a watch ends with `CS_QUIT_LIVE` or
 * when its connection closes.
 */
export interface LiveWatchers {
  /** `connectionId` watches the customer; a connection watches at most one customer (as the client). */
  watch(params: CustomerKey & { connectionId: string }): void;
  /** Ends the connection's watch of that customer. */
  quit(params: CustomerKey & { connectionId: string }): void;
  /** Forgets the watch of a closed connection (its rooms went with it). */
  closed(connectionId: string): void;
  /**
   * Sends `payload` as `event` to the customer's watchers on every node, except the connections of `exceptUserIds`
   * (who got it already) and the connection `exceptConnectionId`.
   */
  push(
    key: CustomerKey,
    params: { event: ServerPushName; payload: object; exceptUserIds: readonly string[]; exceptConnectionId: string },
  ): void;
}

/** The room of a customer's watchers. */
function liveRoom({ appkey, teamId, customerId }: CustomerKey): string {
  return `cs-live:${JSON.stringify([appkey, teamId, customerId])}`;
}

/** Creates the watcher registry over the pusher's rooms. */
export function createLiveWatchers(pusher: Pusher): LiveWatchers {
  /** The room each connection of this node watches. */
  const byConnection = new Map<string, string>();
  const drop = (connectionId: string) => {
    const room = byConnection.get(connectionId);
    if (room === undefined) return;
    byConnection.delete(connectionId);
    pusher.joinRoom({ connectionId, room, leave: true });
  };
  return {
    watch(params) {
      drop(params.connectionId);
      const room = liveRoom(params);
      byConnection.set(params.connectionId, room);
      pusher.joinRoom({ connectionId: params.connectionId, room });
    },
    quit(params) {
      if (byConnection.get(params.connectionId) === liveRoom(params)) drop(params.connectionId);
    },
    closed(connectionId) {
      byConnection.delete(connectionId);
    },
    push(key, { event, payload, exceptUserIds, exceptConnectionId }) {
      pusher.toRoom({ appkey: key.appkey, room: liveRoom(key), event, payload, exceptUserIds, exceptConnectionId });
    },
  };
}
