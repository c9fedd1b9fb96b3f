/** A user of an app. */
export interface AppUser {
  appkey: string;
  userId: string;
}

/**
 * Who is online, per app: a user is online while at least one authorized connection of theirs exists (PRES-1).
 * The in-memory registry below serves one node; the Redis registry (`redis-registry.ts`) serves several, so that
 * every node sees the same users online and agrees on each user's first and last connection.
 */
export interface PresenceRegistry {
  /** Records an authorized connection; resolves true when it is the user's first (the user came online). */
  connected(appkey: string, userId: string, connectionId: string): Promise<boolean>;
  /** Forgets a connection; resolves true when it was the user's last (the user went offline). */
  disconnected(appkey: string, userId: string, connectionId: string): Promise<boolean>;
  /** Those of `userIds` that are online, in the order given. */
  online(appkey: string, userIds: readonly string[]): Promise<string[]>;
  /**
   * Forgets the connections a node registered, when it stopped without cleanup; resolves with the users that went
   * offline through it. Only one caller gets each user.
   */
  forgetNode(nodeId: string): Promise<AppUser[]>;
}

/** A {@link PresenceRegistry} in this process's memory: right for one node. */
export function createMemoryPresenceRegistry(): PresenceRegistry {
  // appkey -> userId -> connection ids. Sets make a repeated connect or disconnect of one connection harmless.
  const apps = new Map<string, Map<string, Set<string>>>();
  return {
    connected(appkey, userId, connectionId) {
      let users = apps.get(appkey);
      if (!users) apps.set(appkey, (users = new Map<string, Set<string>>()));
      let connections = users.get(userId);
      if (!connections) users.set(userId, (connections = new Set<string>()));
      const first = connections.size === 0;
      connections.add(connectionId);
      return Promise.resolve(first);
    },
    disconnected(appkey, userId, connectionId) {
      const users = apps.get(appkey);
      const connections = users?.get(userId);
      if (!users || !connections?.delete(connectionId)) return Promise.resolve(false);
      if (connections.size > 0) return Promise.resolve(false);
      users.delete(userId);
      if (users.size === 0) apps.delete(appkey);
      return Promise.resolve(true);
    },
    online(appkey, userIds) {
      const users = apps.get(appkey);
      return Promise.resolve(users ? userIds.filter((u) => users.has(u)) : []);
    },
    // One node: there is no other node whose connections could be left behind.
    forgetNode: () => Promise.resolve([]),
  };
}
