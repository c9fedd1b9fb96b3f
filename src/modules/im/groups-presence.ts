import { CLIENT_EVENTS } from '../../protocol/index.js';
import type { Me } from './state.js';
import type { OnlineUser } from './types.js';
import { validateId, validateIds } from './validate.js';
import type { ImWire } from './wire.js';

/** The group and presence half of `client.im`: joining groups, presence subscriptions and here-now. */
export abstract class ImGroupsAndPresence {
  /** The IM requests. @internal */
  protected abstract get imWire(): ImWire;
  /** The connected user; throws when there is none. @internal */
  protected abstract requireUser(): Me;
  /** Brings the conversation list up to a change of membership (IM-9: groups are listed to members only). @internal */
  protected abstract membershipChanged(change: { left: string } | { joined: readonly string[] }): Promise<void>;

  /** Joins groups: their messages reach this user from now on, on every device, until unsubscribed. */
  async subscribeGroup(options: { groupIds: Array<string | number>; accessToken?: string }): Promise<void> {
    this.requireUser();
    const groupIds = validateIds(options?.groupIds);
    await this.imWire.call(CLIENT_EVENTS.subscribeGroups, { groupIds, at: options.accessToken }, 'read');
    await this.membershipChanged({ joined: groupIds });
  }

  /** Leaves a group; its conversation leaves the list (until the user joins again). */
  async unsubscribeGroup(options: { groupId: string | number }): Promise<void> {
    this.requireUser();
    const groupId = validateId(options?.groupId, 'groupIdEmpty');
    await this.imWire.call(CLIENT_EVENTS.unsubscribeGroup, { groupId }, 'read');
    await this.membershipChanged({ left: groupId });
  }

  /** Receives `USER_PRESENCE` for these users. */
  async subscribeUserPresence(options: { userIds: Array<string | number> }): Promise<void> {
    this.requireUser();
    await this.imWire.call(CLIENT_EVENTS.subscribeUserPresence, { userIds: validateIds(options?.userIds) }, 'write');
  }

  /** Stops `USER_PRESENCE` for a user. */
  async unsubscribeUserPresence(options: { userId: string | number }): Promise<void> {
    this.requireUser();
    await this.imWire.call(
      CLIENT_EVENTS.unsubscribeUserPresence,
      { userId: validateId(options?.userId, 'userIdEmpty') },
      'write',
    );
  }

  /** Receives `GROUP_PRESENCE` for these groups. */
  async subscribeGroupPresence(options: { groupIds: Array<string | number> }): Promise<void> {
    this.requireUser();
    await this.imWire.call(CLIENT_EVENTS.subscribeGroupPresence, { groupIds: validateIds(options?.groupIds) }, 'write');
  }

  /** Stops `GROUP_PRESENCE` for a group. */
  async unsubscribeGroupPresence(options: { groupId: string | number }): Promise<void> {
    this.requireUser();
    await this.imWire.call(
      CLIENT_EVENTS.unsubscribeGroupPresence,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'write',
    );
  }

  /** Which of these users are online, with their data. */
  async hereNow(options: { userIds: Array<string | number> }): Promise<OnlineUser[]> {
    this.requireUser();
    const list = await this.imWire.call<unknown>(
      CLIENT_EVENTS.imHereNow,
      { userIds: validateIds(options?.userIds) },
      'read',
      'query',
    );
    return toOnlineUsers(list);
  }

  /** The online members of a group, with their data. */
  async groupHereNow(options: { groupId: string | number }): Promise<OnlineUser[]> {
    this.requireUser();
    const list = await this.imWire.call<unknown>(
      CLIENT_EVENTS.imGroupHereNow,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'read',
      'query',
    );
    return toOnlineUsers(list);
  }

  /** How many members of a group are online. */
  async groupOnlineCount(options: { groupId: string | number }): Promise<number> {
    this.requireUser();
    const content = await this.imWire.call<{ count?: unknown } | number>(
      CLIENT_EVENTS.imGroupOnlineCount,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'read',
      'query',
    );
    return typeof content === 'number' ? content : Number(content?.count ?? 0);
  }
}

/** Maps here-now entries (`{userId, userData}` with JSON data) to users. */
export function toOnlineUsers(list: unknown): OnlineUser[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry: { userId?: unknown; userData?: unknown }) => {
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = typeof entry.userData === 'string' ? JSON.parse(entry.userData) : entry.userData;
      if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
    } catch {
      data = {};
    }
    return { id: String(entry.userId), data };
  });
}
