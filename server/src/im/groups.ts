import { accessGrant } from '../auth/token.js';
import { ServiceError } from '../errors.js';
import { assertIds } from '../ids.js';
import type { MembershipAction, PresenceService } from '../presence/service.js';
import { CODES, LIMITS, MESSAGES } from '../protocol.js';
import type { Actor } from '../push.js';
import type { ConversationStore, GroupStore, MessageStore } from '../store/index.js';
import { groupKey } from './keys.js';
import { KeyedMutex } from './mutex.js';

/** Group membership: who receives a group's messages and may read its history (IM-20..). */
export interface GroupService {
  /**
   * `subscribeGroups`: joins the groups, checking the access token when the app requires one; not with `trusted`
   * (IM-31: the app's own server adds the member).
   */
  subscribe(
    actor: Actor,
    groupIds: readonly string[],
    accessToken: string | null | undefined,
    options?: { trusted?: boolean },
  ): Promise<void>;
  /** `unsubscribeGroup`. */
  unsubscribe(actor: Actor, groupId: string): Promise<void>;
  /** Whether `userId` is a member. */
  isMember(appkey: string, groupId: string, userId: string): Promise<boolean>;
  /** The members of a group (not to be changed: the store may keep this very array). */
  members(appkey: string, groupId: string): Promise<readonly string[]>;
  /**
   * IM-22: whether `actor` may send to the group: always, unless the app requires access tokens; then a member,
   * or the holder of a token naming the group. `true` at once when nothing is to be looked up, as for every send
   * of an app without tokens.
   */
  maySend(actor: Actor, groupId: string, accessToken: string | null | undefined): true | Promise<boolean>;
}

/** What {@link createGroupService} needs. */
export interface GroupServiceDeps {
  groups: GroupStore;
  conversations: Pick<ConversationStore, 'joined'>;
  messages: Pick<MessageStore, 'raiseReadOffset'>;
  presence: Pick<PresenceService, 'membershipChanged'>;
  now: () => number;
  /** Told of the groups a user joined or left, once done (HOOK-5: `group.join`, `group.leave`). May not throw. */
  onMembership?: ((actor: Actor, groupIds: readonly string[], action: MembershipAction) => void) | undefined;
}

/** Creates the group service. */
export function createGroupService(deps: GroupServiceDeps): GroupService {
  const { groups, presence } = deps;
  const joins = new KeyedMutex();

  /** IM-21: an access token `{u: userId, g: groupId | [groupIds], e: expiry ms}` naming every one of the groups. */
  const tokenCovers = (actor: Actor, groupIds: readonly string[], token: string | null | undefined): boolean =>
    accessGrant({
      secret: actor.app.secretKey,
      token,
      userId: actor.userId,
      now: deps.now(),
      field: 'g',
      ids: groupIds,
    }) !== undefined;

  return {
    async subscribe(actor, groupIds, accessToken, options) {
      assertIds(groupIds);
      if (!options?.trusted && actor.app.requireAccessToken && !tokenCovers(actor, groupIds, accessToken)) {
        throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
      }
      const appkey = actor.app.appkey;
      const userId = actor.userId;
      // IM-28: one user's joins one at a time on this node, so that joins sent together cannot pass the bound.
      const joined = await joins.run(JSON.stringify([appkey, userId]), async () => {
        const held = new Set(await groups.groupsOf(appkey, userId));
        const adding = new Set(groupIds.filter((groupId) => !held.has(groupId))).size;
        if (held.size + adding > LIMITS.userGroupsMax) {
          throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.userGroupsTooMany);
        }
        return groups.join({ appkey, userId, groupIds, now: deps.now() });
      });
      if (joined.length === 0) return;
      // IM-20: a group with messages is listed to its new member at once; what was said before their first join is
      // not unread to them (a member who left and came back still has unread what was said while away).
      const listed = await deps.conversations.joined({
        appkey,
        ownerId: userId,
        groups: joined.map((groupId) => ({ groupId, convKey: groupKey(groupId) })),
      });
      for (const { convKey, lastTs } of listed) {
        await deps.messages.raiseReadOffset({ appkey, convKey, userId, ts: lastTs });
      }
      await presence.membershipChanged(actor, joined, 'join');
      deps.onMembership?.(actor, joined, 'join');
    },
    async unsubscribe(actor, groupId) {
      assertIds([groupId]);
      if (await groups.leave({ appkey: actor.app.appkey, userId: actor.userId, groupId })) {
        await presence.membershipChanged(actor, [groupId], 'leave');
        deps.onMembership?.(actor, [groupId], 'leave');
      }
    },
    isMember: (appkey, groupId, userId) => groups.isMember(appkey, groupId, userId),
    members: (appkey, groupId) => groups.members(appkey, groupId),
    maySend(actor, groupId, accessToken) {
      if (!actor.app.requireAccessToken) return true;
      return groups
        .isMember(actor.app.appkey, groupId, actor.userId)
        .then((member) => member || tokenCovers(actor, [groupId], accessToken));
    },
  };
}
