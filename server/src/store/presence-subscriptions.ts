import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Presence subscriptions in storage, per subscriber: the reference client never re-sends them after a reconnect,
 * so they must outlive connections.
 */
export interface PresenceSubscriptionStore {
  /** `subscriberId` hears the presence of `userIds` from now on. */
  subscribeUsers(params: { appkey: string; subscriberId: string; userIds: readonly string[] }): Promise<void>;
  /** Ends one user subscription; a missing one is no error. */
  unsubscribeUser(params: { appkey: string; subscriberId: string; userId: string }): Promise<void>;
  /** Who hears the presence of `userId`. */
  userSubscribers(appkey: string, userId: string): Promise<string[]>;
  /** The users whose presence `subscriberId` hears. */
  watchedUsers(appkey: string, subscriberId: string): Promise<string[]>;
  /** `subscriberId` hears the presence of the members of `groupIds` from now on. */
  subscribeGroups(params: { appkey: string; subscriberId: string; groupIds: readonly string[] }): Promise<void>;
  /** Ends one group subscription; a missing one is no error. */
  unsubscribeGroup(params: { appkey: string; subscriberId: string; groupId: string }): Promise<void>;
  /** Who hears the presence of `groupId`'s members. */
  groupSubscribers(appkey: string, groupId: string): Promise<string[]>;
  /** The groups whose members' presence `subscriberId` hears. */
  watchedGroups(appkey: string, subscriberId: string): Promise<string[]>;
}

/** The Kysely implementation of {@link PresenceSubscriptionStore}. */
export function createPresenceSubscriptionStore(db: Kysely<Database>): PresenceSubscriptionStore {
  return {
    async subscribeUsers({ appkey, subscriberId, userIds }) {
      if (userIds.length === 0) return;
      await db
        .insertInto('presence_user_subscriptions')
        .values([...new Set(userIds)].map((user_id) => ({ appkey, subscriber_id: subscriberId, user_id })))
        .onConflict((oc) => oc.columns(['appkey', 'subscriber_id', 'user_id']).doNothing())
        .execute();
    },
    async unsubscribeUser({ appkey, subscriberId, userId }) {
      await db
        .deleteFrom('presence_user_subscriptions')
        .where('appkey', '=', appkey)
        .where('subscriber_id', '=', subscriberId)
        .where('user_id', '=', userId)
        .execute();
    },
    async userSubscribers(appkey, userId) {
      const rows = await db
        .selectFrom('presence_user_subscriptions')
        .select('subscriber_id')
        .where('appkey', '=', appkey)
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => r.subscriber_id);
    },
    async watchedUsers(appkey, subscriberId) {
      const rows = await db
        .selectFrom('presence_user_subscriptions')
        .select('user_id')
        .where('appkey', '=', appkey)
        .where('subscriber_id', '=', subscriberId)
        .execute();
      return rows.map((r) => r.user_id);
    },
    async subscribeGroups({ appkey, subscriberId, groupIds }) {
      if (groupIds.length === 0) return;
      await db
        .insertInto('presence_group_subscriptions')
        .values([...new Set(groupIds)].map((group_id) => ({ appkey, subscriber_id: subscriberId, group_id })))
        .onConflict((oc) => oc.columns(['appkey', 'subscriber_id', 'group_id']).doNothing())
        .execute();
    },
    async unsubscribeGroup({ appkey, subscriberId, groupId }) {
      await db
        .deleteFrom('presence_group_subscriptions')
        .where('appkey', '=', appkey)
        .where('subscriber_id', '=', subscriberId)
        .where('group_id', '=', groupId)
        .execute();
    },
    async groupSubscribers(appkey, groupId) {
      const rows = await db
        .selectFrom('presence_group_subscriptions')
        .select('subscriber_id')
        .where('appkey', '=', appkey)
        .where('group_id', '=', groupId)
        .execute();
      return rows.map((r) => r.subscriber_id);
    },
    async watchedGroups(appkey, subscriberId) {
      const rows = await db
        .selectFrom('presence_group_subscriptions')
        .select('group_id')
        .where('appkey', '=', appkey)
        .where('subscriber_id', '=', subscriberId)
        .execute();
      return rows.map((r) => r.group_id);
    },
  };
}
