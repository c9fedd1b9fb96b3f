/**
 * Live sessions (`CS_LIVE_SESSION`): connections of agents watching one customer of a team. Kept in this node's
 * memory, per connection, like the socket it serves: a watch ends with `CS_QUIT_LIVE` or when its connection closes.
 */
export interface LiveWatchers {
  /** `connectionId` of `userId` watches the customer; a connection watches at most one customer (as the client). */
  watch(params: { appkey: string; teamId: string; customerId: string; connectionId: string; userId: string }): void;
  /** Ends the connection's watch of that customer. */
  quit(params: { appkey: string; teamId: string; customerId: string; connectionId: string }): void;
  /** Ends every watch of a closed connection. */
  closed(connectionId: string): void;
  /** The watching connections of a customer, with their users. */
  of(appkey: string, teamId: string, customerId: string): Array<{ connectionId: string; userId: string }>;
}

/** Creates the in-memory watcher registry. */
export function createLiveWatchers(): LiveWatchers {
  const byCustomer = new Map<string, Map<string, string>>();
  const byConnection = new Map<string, string>();
  const keyOf = (appkey: string, teamId: string, customerId: string) => JSON.stringify([appkey, teamId, customerId]);
  const drop = (connectionId: string) => {
    const key = byConnection.get(connectionId);
    if (key === undefined) return;
    byConnection.delete(connectionId);
    const watchers = byCustomer.get(key);
    watchers?.delete(connectionId);
    if (watchers?.size === 0) byCustomer.delete(key);
  };
  return {
    watch({ appkey, teamId, customerId, connectionId, userId }) {
      drop(connectionId);
      const key = keyOf(appkey, teamId, customerId);
      let watchers = byCustomer.get(key);
      if (!watchers) byCustomer.set(key, (watchers = new Map<string, string>()));
      watchers.set(connectionId, userId);
      byConnection.set(connectionId, key);
    },
    quit({ appkey, teamId, customerId, connectionId }) {
      if (byConnection.get(connectionId) === keyOf(appkey, teamId, customerId)) drop(connectionId);
    },
    closed: drop,
    of(appkey, teamId, customerId) {
      const watchers = byCustomer.get(keyOf(appkey, teamId, customerId));
      return watchers ? [...watchers].map(([connectionId, userId]) => ({ connectionId, userId })) : [];
    },
  };
}
