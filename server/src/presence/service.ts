import type { AppConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import { userDataJson, type Actor, type Pusher } from '../push.js';
import { KeyedMutex } from '../im/mutex.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  SERVER_PUSHES,
  type WireHereNowUser,
  type WirePresenceBody,
  type WirePresenceEvent,
} from '../protocol.js';
import type { GroupStore, PresenceSubscriptionStore, UserStore } from '../store/index.js';
import type { PresenceRegistry } from './registry.js';

/** A membership change that group-presence subscribers hear about. */
export type MembershipAction = 'join' | 'leave';

/** User and group presence: who is online, who wants to know, and the pushes that tell them (PRES-1..). */
export interface PresenceService {
  /** An authorized connection of `actor` opened; the user's first one announces `online`. */
  connected(actor: Actor): Promise<void>;
  /** A connection of `actor` closed; the user's last one announces `offline`. */
  disconnected(actor: Actor): Promise<void>;
  /** Tells group-presence subscribers that `actor` joined or left these groups. */
  membershipChanged(actor: Actor, groupIds: readonly string[], action: MembershipAction): Promise<void>;
  /** `subscribeUserPresence`: persisted per subscriber. */
  subscribeUsers(actor: Actor, userIds: readonly string[]): Promise<void>;
  /** `unsubscribeUserPresence`. */
  unsubscribeUser(actor: Actor, userId: string): Promise<void>;
  /** `subscribeGroupPresence`: persisted per subscriber. */
  subscribeGroups(actor: Actor, groupIds: readonly string[]): Promise<void>;
  /** `unsubscribeGroupPresence`. */
  unsubscribeGroup(actor: Actor, groupId: string): Promise<void>;
  /**
   * PRES-6: refuses (401) a look into groups the user is not a member of, when the app requires access tokens: its
   * groups are private, so their presence is for members. Open apps, and members, pass.
   */
  assertMayWatch(app: AppConfig, userId: string, groupIds: readonly string[]): Promise<void>;
  /** `imHereNow`: those of `userIds` online, with their data. */
  hereNow(appkey: string, userIds: readonly string[]): Promise<WireHereNowUser[]>;
  /** `imGroupHereNow`: the online members of a group, with their data. */
  groupHereNow(appkey: string, groupId: string): Promise<WireHereNowUser[]>;
  /** `imGroupOnlineCount`: how many members of a group are online. */
  groupOnlineCount(appkey: string, groupId: string): Promise<number>;
  /** A node stopped without cleanup: its users who have no other connection go `offline`. */
  nodeGone(nodeId: string): Promise<void>;
}

/** A user whose presence is announced, with their data as the JSON the wire carries. */
interface Who {
  appkey: string;
  userId: string;
  userData: string;
}

/** What {@link createPresenceService} needs. */
export interface PresenceServiceDeps {
  registry: PresenceRegistry;
  users: UserStore;
  groups: GroupStore;
  subscriptions: PresenceSubscriptionStore;
  pusher: Pusher;
  now: () => number;
  /**
   * Told of each user's first connection in the cluster and of their last one closing (or their node's loss), once
   * announced (HOOK-6: `user.online`, `user.offline`). `userData` is JSON. May not throw.
   */
  onPresence?: ((appkey: string, event: WirePresenceEvent) => void) | undefined;
}

/** Creates the presence service. */
export function createPresenceService(deps: PresenceServiceDeps): PresenceService {
  const { registry, groups, subscriptions, pusher } = deps;

  /**
   * PRES-7: adds presence subscriptions within {@link LIMITS.presenceSubscriptionsMax} of each kind; one user's run
   * one at a time on this node, so that subscribes sent together cannot pass the bound between them.
   */
  const watches = new KeyedMutex();
  const withinBound = (actor: Actor, kind: 'users' | 'groups', ids: readonly string[], add: () => Promise<void>) =>
    watches.run(JSON.stringify([kind, actor.app.appkey, actor.userId]), async () => {
      const { appkey } = actor.app;
      const held = new Set(
        kind === 'users'
          ? await subscriptions.watchedUsers(appkey, actor.userId)
          : await subscriptions.watchedGroups(appkey, actor.userId),
      );
      const adding = new Set(ids.filter((id) => !held.has(id))).size;
      if (held.size + adding > LIMITS.presenceSubscriptionsMax) {
        const message = kind === 'users' ? MESSAGES.userPresenceTooMany : MESSAGES.groupPresenceTooMany;
        throw new ServiceError(CODES.BAD_REQUEST, message);
      }
      await add();
    });

  const onlineMembers = async (appkey: string, groupId: string) =>
    registry.online(appkey, await groups.members(appkey, groupId));

  const withData = async (appkey: string, userIds: readonly string[]): Promise<WireHereNowUser[]> => {
    const known = new Map((await deps.users.find(appkey, userIds)).map((u) => [u.userId, u.data]));
    return userIds.map((userId) => ({ userId, userData: known.get(userId) ?? '{}' }));
  };

  const eventOf = (who: Who, action: WirePresenceEvent['action']): WirePresenceEvent => ({
    userId: who.userId,
    userData: who.userData,
    time: deps.now(),
    action,
  });

  /** PRES-4: group-presence subscribers of each group hear the event with the group's online count. */
  const announceToGroups = async (appkey: string, groupIds: readonly string[], event: WirePresenceEvent) => {
    for (const groupId of groupIds) {
      const subscribers = await subscriptions.groupSubscribers(appkey, groupId);
      if (subscribers.length === 0) continue;
      const body: WirePresenceBody = {
        groupId,
        userAmount: (await onlineMembers(appkey, groupId)).length,
        events: [event],
      };
      pusher.toUsers({
        appkey,
        userIds: subscribers,
        event: SERVER_PUSHES.groupPresence,
        payload: { c: JSON.stringify(body) },
      });
    }
  };

  /** PRES-2, PRES-3: a user's online/offline goes to their subscribers and to their groups' subscribers. */
  const announce = async (who: Who, action: 'online' | 'offline') => {
    const { appkey } = who;
    const event = eventOf(who, action);
    const subscribers = await subscriptions.userSubscribers(appkey, who.userId);
    if (subscribers.length > 0) {
      const body: WirePresenceBody = { events: [event] };
      pusher.toUsers({
        appkey,
        userIds: subscribers,
        event: SERVER_PUSHES.userPresence,
        payload: { c: JSON.stringify(body) },
      });
    }
    await announceToGroups(appkey, await groups.groupsOf(appkey, who.userId), event);
    deps.onPresence?.(appkey, event);
  };

  const whoIs = (actor: Actor): Who => ({
    appkey: actor.app.appkey,
    userId: actor.userId,
    userData: userDataJson(actor),
  });

  return {
    async connected(actor) {
      if (await registry.connected(actor.app.appkey, actor.userId, actor.connectionId)) {
        await announce(whoIs(actor), 'online');
      }
    },
    async disconnected(actor) {
      if (await registry.disconnected(actor.app.appkey, actor.userId, actor.connectionId)) {
        await announce(whoIs(actor), 'offline');
      }
    },
    async membershipChanged(actor, groupIds, action) {
      await announceToGroups(actor.app.appkey, groupIds, eventOf(whoIs(actor), action));
    },
    async subscribeUsers(actor, userIds) {
      assertIds(userIds);
      await withinBound(actor, 'users', userIds, () =>
        subscriptions.subscribeUsers({ appkey: actor.app.appkey, subscriberId: actor.userId, userIds }),
      );
    },
    async unsubscribeUser(actor, userId) {
      await subscriptions.unsubscribeUser({ appkey: actor.app.appkey, subscriberId: actor.userId, userId });
    },
    async subscribeGroups(actor, groupIds) {
      assertIds(groupIds);
      await withinBound(actor, 'groups', groupIds, () =>
        subscriptions.subscribeGroups({ appkey: actor.app.appkey, subscriberId: actor.userId, groupIds }),
      );
    },
    async unsubscribeGroup(actor, groupId) {
      await subscriptions.unsubscribeGroup({ appkey: actor.app.appkey, subscriberId: actor.userId, groupId });
    },
    async assertMayWatch(app, userId, groupIds) {
      if (!app.requireAccessToken) return;
      const all = await Promise.all(groupIds.map((groupId) => groups.isMember(app.appkey, groupId, userId)));
      if (!all.every(Boolean)) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
    },
    async hereNow(appkey, userIds) {
      return withData(appkey, await registry.online(appkey, userIds));
    },
    async groupHereNow(appkey, groupId) {
      return withData(appkey, await onlineMembers(appkey, groupId));
    },
    async groupOnlineCount(appkey, groupId) {
      return (await onlineMembers(appkey, groupId)).length;
    },
    async nodeGone(nodeId) {
      const gone = await registry.forgetNode(nodeId);
      // The user's data as they last authorized: the node that knew it from the connection is gone.
      const byApp = new Map<string, string[]>();
      for (const { appkey, userId } of gone) {
        const userIds = byApp.get(appkey);
        if (userIds) userIds.push(userId);
        else byApp.set(appkey, [userId]);
      }
      for (const [appkey, userIds] of byApp) {
        for (const user of await withData(appkey, userIds)) {
          await announce({ appkey, userId: user.userId, userData: user.userData }, 'offline');
        }
      }
    },
  };
}
