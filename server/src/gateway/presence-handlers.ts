import type { PresenceService } from '../presence/service.js';
import { CLIENT_EVENTS, groupIdsSchema, groupRefSchema, userIdsSchema, userRefSchema } from '../protocol.js';
import { actorOf } from './actor.js';
import type { Gateway } from './index.js';

/**
 * Registers user and group presence: connection lifecycle into the presence service, and the presence requests.
 * Subscriptions need write, as in the reference client's table; queries need read.
 */
export function registerPresenceHandlers(gateway: Gateway, presence: PresenceService): void {
  gateway.onConnection({
    authorized: (ctx) => (ctx.userId === null ? Promise.resolve() : presence.connected(actorOf(ctx))),
    closed: (ctx) => (ctx.userId === null ? Promise.resolve() : presence.disconnected(actorOf(ctx))),
  });

  gateway.handle(CLIENT_EVENTS.subscribeUserPresence, {
    schema: userIdsSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await presence.subscribeUsers(actorOf(ctx), params.userIds.map(String));
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.unsubscribeUserPresence, {
    schema: userRefSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await presence.unsubscribeUser(actorOf(ctx), params.userId);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.subscribeGroupPresence, {
    schema: groupIdsSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      const actor = actorOf(ctx);
      const groupIds = params.groupIds.map(String);
      await presence.assertMayWatch(actor.app, actor.userId, groupIds);
      await presence.subscribeGroups(actor, groupIds);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.unsubscribeGroupPresence, {
    schema: groupRefSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await presence.unsubscribeGroup(actorOf(ctx), params.groupId);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imHereNow, {
    schema: userIdsSchema,
    permission: 'read',
    handler: (ctx, params) => presence.hereNow(actorOf(ctx).app.appkey, params.userIds.map(String)),
  });
  gateway.handle(CLIENT_EVENTS.imGroupHereNow, {
    schema: groupRefSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      const actor = actorOf(ctx);
      await presence.assertMayWatch(actor.app, actor.userId, [params.groupId]);
      return presence.groupHereNow(actor.app.appkey, params.groupId);
    },
  });
  gateway.handle(CLIENT_EVENTS.imGroupOnlineCount, {
    schema: groupRefSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      const actor = actorOf(ctx);
      await presence.assertMayWatch(actor.app, actor.userId, [params.groupId]);
      return { count: await presence.groupOnlineCount(actor.app.appkey, params.groupId) };
    },
  });
}
