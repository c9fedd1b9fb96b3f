import type { Server } from 'socket.io';
import type { PubsubFanout, PubsubService, Subscriber } from '../pubsub/service.js';
import {
  CLIENT_EVENTS,
  CLIENT_NOTICES,
  SERVER_PUSHES,
  channelRefSchema,
  hereNowSchema,
  historyMessagesSchema,
  presenceSubscribeSchema,
  publishSchema,
  pubsubAckSchema,
  subscribeSchema,
  subscribedChannels,
  unsubscribeSchema,
  WIRE_MODULES,
  type PubsubModuleData,
  type WirePubsubMessage,
  type ServerPushName,
  type WireRedelivered,
} from '../protocol.js';
import type { Gateway, RequestContext } from './index.js';
import type { LateJoins } from './late-joins.js';
import type { GatewayMetrics } from '../metrics.js';
import type { RemoteBroadcastFilter } from './redis-adapter.js';

/** The room of a channel's subscribers. */
export function channelRoom(appkey: string, channel: string): string {
  return `ch:${appkey}:${channel}`;
}

/** The room of a channel's presence watchers. */
export function presenceRoom(appkey: string, channel: string): string {
  return `chp:${appkey}:${channel}`;
}

/**
 * Socket.io disconnect reasons that mean the client left on purpose: it sent `manualDisconnect` (the gateway then
 * disconnects it) or closed its socket (the reference client's `disconnect()`). Anything else is a lost link.
 */
const MANUAL_REASONS: ReadonlySet<string> = new Set(['server namespace disconnect', 'client namespace disconnect']);

/**
 * The pub/sub fan-out over socket.io rooms; with the Redis adapter, room broadcasts reach every node. A join that
 * says from which message time it listens is remembered in `lateJoins`, whose {@link lateChannelJoins} filter keeps
 * older messages still arriving from other nodes away from it (PUB-9).
 */
export function socketIoFanout(io: Server, lateJoins?: LateJoins, metrics?: GatewayMetrics): PubsubFanout {
  const local = (connectionId: string) => io.of('/').sockets.get(connectionId);
  /** Emits `event` through `to` (a room's broadcast, or a socket here) and counts it (METRICS-2). */
  const push = (
    to: { emit(event: string, payload: unknown): unknown } | undefined,
    event: ServerPushName,
    payload: unknown,
  ) => {
    if (!to) return;
    to.emit(event, payload);
    metrics?.pushed(event);
  };
  return {
    joinChannel: (id, appkey, channel, from) => {
      const socket = local(id);
      if (!socket) return;
      const room = channelRoom(appkey, channel);
      if (from !== undefined) lateJoins?.joined(room, id, from);
      void socket.join(room);
    },
    leaveChannel: (id, appkey, channel) => {
      const room = channelRoom(appkey, channel);
      lateJoins?.left(room, id);
      void local(id)?.leave(room);
    },
    joinPresence: (id, appkey, channel) => void local(id)?.join(presenceRoom(appkey, channel)),
    leavePresence: (id, appkey, channel) => void local(id)?.leave(presenceRoom(appkey, channel)),
    message: (appkey, channel, message) => push(io.to(channelRoom(appkey, channel)), SERVER_PUSHES.message, message),
    presence: (appkey, channel, event) =>
      push(io.to(presenceRoom(appkey, channel)), SERVER_PUSHES.pubsubPresence, event),
    toConnection: (id, message) => push(local(id), SERVER_PUSHES.message, message),
    redelivered: (id, channels) => {
      const payload: WireRedelivered = channels ? { channels: [...channels] } : {};
      push(local(id), SERVER_PUSHES.redelivered, payload);
    },
    isConnected: (id) => local(id)?.connected === true,
  };
}

/** The adapter's filter for channel messages from other nodes: not to the sockets that joined after them (PUB-9). */
export function lateChannelJoins(lateJoins: LateJoins): RemoteBroadcastFilter {
  return (rooms, data) => {
    if (data[0] !== SERVER_PUSHES.message || rooms.length !== 1) return [];
    const time = (data[1] as Partial<WirePubsubMessage> | undefined)?.t;
    return typeof time === 'number' ? lateJoins.excluded(rooms[0] as string, time) : [];
  };
}

function subscriberOf(ctx: RequestContext): Subscriber {
  return {
    app: ctx.app,
    userId: ctx.userId,
    userData: ctx.userData,
    sid: ctx.sid,
    connectionId: ctx.socketId,
    restore: ctx.previousSeenAt !== null,
    replaces: ctx.replacedSid,
  };
}

/**
 * Registers pub/sub: the connection lifecycle into the service, the requests (permissions as the reference client
 * asks for them: publish needs write, the rest read), and the `ack` notice. The session is restored before the
 * authorize ack; redeliveries are pushed on the next turn of the event loop, after the ack of the request that
 * triggered them, so that the client is authorized (and subscribed) by the time they arrive, and `PS_REDELIVERED`
 * follows them (PUB-8).
 */
export function registerPubsubHandlers(gateway: Gateway, io: Server, pubsub: PubsubService): void {
  const later = (work: () => unknown) => void setTimeout(work, 0);
  const moduleData: PubsubModuleData = { redelivered: true };
  gateway.moduleData(WIRE_MODULES.pubsub, () => Promise.resolve({ ...moduleData }));

  gateway.onConnection({
    authorized: async (ctx) => {
      const subscriber = subscriberOf(ctx);
      try {
        await pubsub.connected(subscriber);
      } finally {
        // The client holds its messages until this authorize's redeliveries are said to be out, failed or not.
        later(() => pubsub.redeliver(subscriber));
      }
    },
    // Disconnects are handled below, where socket.io's reason tells a deliberate leave from a lost link.
    closed: () => Promise.resolve(),
  });
  io.on('connection', (socket) => {
    socket.on('disconnect', (reason) => void pubsub.disconnected(socket.id, MANUAL_REASONS.has(reason)));
  });

  gateway.handle(CLIENT_EVENTS.subscribe, {
    schema: subscribeSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      const subscriber = subscriberOf(ctx);
      const channels = subscribedChannels(params);
      await pubsub.subscribe(subscriber, {
        channels,
        accessToken: params.accessToken,
        presence: params.presence?.enable === true,
        resubscribe: params.resubscribe === true,
      });
      later(() => pubsub.redeliver(subscriber, channels));
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.unsubscribe, {
    schema: unsubscribeSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await pubsub.unsubscribe(subscriberOf(ctx), params.channel);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.publish, {
    schema: publishSchema,
    permission: 'write',
    handler: (ctx, params) =>
      pubsub.publish({
        app: ctx.app,
        userId: ctx.userId,
        channel: params.channel,
        content: params.content,
        guid: params.guid,
        qos: params.q === 1 ? 1 : 0,
        notification: params.nt,
        accessToken: params.at,
      }),
  });
  gateway.handle(CLIENT_EVENTS.historyMessages, {
    schema: historyMessagesSchema,
    permission: 'read',
    handler: (ctx, params) => pubsub.history(subscriberOf(ctx), params),
  });
  gateway.handle(CLIENT_EVENTS.presenceSubscribe, {
    schema: presenceSubscribeSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await pubsub.watchPresence(subscriberOf(ctx), params);
      return null;
    },
  });
  // The reference client asks write for this one; read is enough to stop listening, so read it is.
  gateway.handle(CLIENT_EVENTS.presenceUnsubscribe, {
    schema: channelRefSchema,
    permission: 'read',
    handler: async (ctx, params) => {
      await pubsub.unwatchPresence(subscriberOf(ctx), params.channel);
      return null;
    },
  });
  gateway.handle(CLIENT_EVENTS.presenceHereNow, {
    schema: hereNowSchema,
    permission: 'read',
    handler: (ctx, params) => pubsub.hereNow(subscriberOf(ctx), params),
  });
  gateway.notice(CLIENT_NOTICES.ack, {
    schema: pubsubAckSchema,
    handler: (ctx, params) => {
      pubsub.ack(subscriberOf(ctx), params.publishGuid);
      return Promise.resolve();
    },
  });
}
