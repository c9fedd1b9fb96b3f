import * as z from 'zod/mini';
import type { ConversationService } from '../im/conversations.js';
import type { GroupService } from '../im/groups.js';
import type { MessageService } from '../im/messages.js';
import type { UserDirectory } from '../im/users.js';
import {
  CLIENT_EVENTS,
  CLIENT_NOTICES,
  conversationRefSchema,
  groupRefSchema,
  imAckSchema,
  imHistoryChangeSchema,
  imHistorySchema,
  imMarkAsReadSchema,
  imTypingSchema,
  imMessageTimesSchema,
  memberDataSchema,
  publishImSchema,
  readPublishIm,
  subscribeGroupsSchema,
  topConversationSchema,
  WIRE_MODULES,
  type ImModuleData,
} from '../protocol.js';
import { actorOf } from './actor.js';
import type { Gateway } from './index.js';

/** The IM services the gateway serves. */
export interface ImServices {
  messages: MessageService;
  conversations: ConversationService;
  groups: GroupService;
  users: UserDirectory;
}

/**
 * Registers the IM requests. Permissions follow the reference client's table (wire notes §0.3), except that
 * `IM_MARK_AS_READ` and `subscribeGroups` need only read: a subscribe-only client may still read and listen.
 */
export function registerImHandlers(gateway: Gateway, im: ImServices): void {
  // IM-23: Parley's SDK sends no imAck (half the packets of a busy group); the reference client's are followed
  // (IM-24). AUTH-8: `a` marks the module active, without which the reference client does not reload pending
  // conversations on reconnect.
  const imModuleData: ImModuleData = { a: true, ack: false };
  gateway.moduleData(WIRE_MODULES.im, () => Promise.resolve({ ...imModuleData }));
  gateway.onConnection({
    async authorized(ctx) {
      if (ctx.userId === null) return;
      const actor = actorOf(ctx);
      // IM-1: remember the data every named user authorizes with.
      await im.users.remember(actor);
      // IM-24: a client coming back gets what was stored while it was away. Before the ack, so that requests the
      // client buffered (its own sends) are not stored yet and come back to it; after joining the user's room, so
      // that nothing falls between the replay and the live pushes (a few may come twice; clients drop them by `i`).
      if (ctx.previousSeenAt !== null) await im.messages.replay(actor, ctx.previousSeenAt, ctx.replayExcept);
    },
    closed: () => Promise.resolve(),
  });

  gateway.handle(CLIENT_EVENTS.publishIM, {
    schema: publishImSchema,
    read: readPublishIm,
    permission: 'write',
    handler: (ctx, params) => {
      const acked = im.messages.publish(actorOf(ctx), params);
      const deliveries = ctx.deliveries;
      if (!deliveries) return acked;
      // Never pushed back to this connection, so never acknowledged: a replay must not bring it back (IM-24).
      return acked.then((ack) => {
        deliveries.sent(params.guid, ack.timestamp);
        return ack;
      });
    },
  });
  gateway.handle(CLIENT_EVENTS.imHistory, {
    schema: imHistorySchema,
    permission: 'read',
    handler: (ctx, params) => im.messages.history(actorOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.imHistoryChange, {
    schema: imHistoryChangeSchema,
    permission: 'read',
    handler: (ctx, params) => im.messages.historyChange(actorOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.imMarkAsRead, {
    schema: imMarkAsReadSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await im.messages.markAsRead(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imDeleteMessage, {
    schema: imMessageTimesSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await im.messages.deleteMessages(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imRecallMessage, {
    schema: imMessageTimesSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await im.messages.recall(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imTyping, {
    schema: imTypingSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await im.messages.typing(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imLastConversations, {
    schema: z.optional(z.nullable(z.looseObject({}))),
    permission: 'read',
    handler: (ctx) => im.conversations.list(actorOf(ctx)),
  });
  gateway.handle(CLIENT_EVENTS.topConversation, {
    schema: topConversationSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await im.conversations.top(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.removeConversation, {
    schema: conversationRefSchema,
    permission: 'write',
    handler: async (ctx, params) => {
      await im.conversations.remove(actorOf(ctx), params);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.imData, {
    schema: conversationRefSchema,
    permission: 'read',
    handler: (ctx, params) => im.conversations.data(actorOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.subscribeGroups, {
    schema: subscribeGroupsSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await im.groups.subscribe(actorOf(ctx), params.groupIds.map(String), params.at);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.unsubscribeGroup, {
    schema: groupRefSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await im.groups.unsubscribe(actorOf(ctx), params.groupId);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.memberData, {
    schema: memberDataSchema,
    permission: 'read',
    handler: (ctx, params) => im.users.memberData(actorOf(ctx).app.appkey, params.data.ids.map(String)),
  });
  // The reference acks every pushed message: what it has not acked when its link goes is replayed (IM-24).
  gateway.notice(CLIENT_NOTICES.imAck, {
    schema: imAckSchema,
    handler: (ctx, params) => {
      ctx.deliveries?.acked(params.publishGuid);
      return Promise.resolve();
    },
  });
}
