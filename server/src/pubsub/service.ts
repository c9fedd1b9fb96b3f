import type { AppConfig, PubsubHistoryConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  PUBSUB_LIMITS,
  type HereNowAck,
  type HistoryMessagesAck,
  type PublishAck,
  type WireChannelPresenceEvent,
  type WireNotification,
  type WirePubsubMessage,
} from '../protocol.js';
import type { PubsubStore } from '../store/index.js';
import { channelAccessAllowed } from './access.js';
import { ChannelPresenceRegistry, type PresenceChange } from './presence.js';
import { channelKey, SubscriberSessions, type SubscriberSession } from './sessions.js';

/**
 * How the pub/sub service reaches clients without knowing about sockets. The gateway implements it with one
 * socket.io room per channel (and one per channel's presence watchers), so that with the Redis adapter a message
 * reaches subscribers on every node.
 */
export interface PubsubFanout {
  joinChannel(connectionId: string, appkey: string, channel: string): void;
  leaveChannel(connectionId: string, appkey: string, channel: string): void;
  joinPresence(connectionId: string, appkey: string, channel: string): void;
  leavePresence(connectionId: string, appkey: string, channel: string): void;
  /** Pushes `message` to every subscriber of the channel. */
  message(appkey: string, channel: string, message: WirePubsubMessage): void;
  /** Pushes a presence event to the channel's watchers. */
  presence(appkey: string, channel: string, event: WireChannelPresenceEvent): void;
  /** Pushes `message` to one connection (a redelivery). */
  toConnection(connectionId: string, message: WirePubsubMessage): void;
}

/** The authorized connection a pub/sub call comes from. */
export interface Subscriber {
  app: AppConfig;
  userId: string | null;
  userData: Record<string, unknown>;
  sid: string;
  connectionId: string;
}

/** A publish, from a client or (trusted, no access token needed) from an app server. */
export interface PublishInput {
  app: AppConfig;
  userId: string | null;
  channel: string;
  content: string;
  guid: string;
  qos: 0 | 1;
  notification?: WireNotification | null | undefined;
  accessToken?: string | null | undefined;
  trusted?: boolean;
}

/** Pub/sub: channels, qos, presence, here-now and history (docs/protocol.md, PUB-1..). No socket code. */
export interface PubsubService {
  /** An authorized connection: a resumed session gets its channels, watches and presence back (PUB-9). */
  connected(subscriber: Subscriber): void;
  /** A connection ended; `manual` when the client left on purpose (presence `leave`), else `timeout`. */
  disconnected(connectionId: string, manual: boolean): void;
  /** PUB-5: subscribes channels, checking access tokens for private channels. */
  subscribe(
    subscriber: Subscriber,
    request: { channels: string[]; accessToken?: string | null | undefined; presence: boolean; resubscribe: boolean },
  ): void;
  /** PUB-6: unsubscribes a channel; unknown channels are no error (the client may re-send). */
  unsubscribe(subscriber: Subscriber, channel: string): void;
  /** PUB-3, PUB-7, PUB-10: stores, de-duplicates by guid and fans out a message. */
  publish(input: PublishInput): Promise<PublishAck>;
  /** PUB-8: the client received a qos-1 message. */
  ack(subscriber: Subscriber, guid: string): void;
  /** PUB-8: pushes this session's unacked qos-1 messages (of `channels`, or all) not yet sent on this connection. */
  redeliver(subscriber: Subscriber, channels?: readonly string[]): void;
  /** PUB-11: the newest `limit` messages of a channel, oldest first. */
  history(app: AppConfig, channel: string, limit: number | null | undefined): Promise<HistoryMessagesAck>;
  /** PUB-13: watch a channel's presence events. */
  watchPresence(subscriber: Subscriber, channel: string): void;
  /** PUB-13: stop watching. */
  unwatchPresence(subscriber: Subscriber, channel: string): void;
  /** PUB-14: the channel's members, newest first. */
  hereNow(app: AppConfig, channel: string, limit: number | null | undefined): HereNowAck;
}

/** What {@link createPubsubService} needs. */
export interface PubsubServiceDeps {
  store: PubsubStore;
  fanout: PubsubFanout;
  history: PubsubHistoryConfig;
  /** How long a disconnected session keeps its subscriptions: the session lifetime. */
  sessionTtlMs: number;
  now: () => number;
  logger: Logger;
}

/** How long a publish guid is remembered in memory; the store's unique key covers longer. */
const DEDUPE_WINDOW_MS = 600_000;
const DEDUPE_MAX_ENTRIES = 10_000;
/** Most unacked qos-1 messages one session keeps; older ones are dropped. */
const PENDING_MAX = 1000;
/** How often lazy upkeep (expired sessions, history retention) may run. */
const UPKEEP_EVERY_MS = 30_000;
/** Kept a little longer than the session lifetime, so that a sid the session service resumes still has its state. */
const SESSION_GRACE_MS = 60_000;

/** Creates the pub/sub service. */
export function createPubsubService(deps: PubsubServiceDeps): PubsubService {
  const { store, fanout, now } = deps;
  const sessions = new SubscriberSessions();
  const presence = new ChannelPresenceRegistry(deps.sessionTtlMs);
  const recent = new Map<string, { at: number; ack: Promise<PublishAck> }>();
  const lastTime = new Map<string, number>();
  const touched = new Set<string>();
  let lastUpkeep = now();

  const announce = (appkey: string, channel: string, change: PresenceChange | undefined) => {
    if (!change) return;
    fanout.presence(appkey, channel, { channel, ...change, time: now() });
  };
  const memberOf = (s: SubscriberSession) => ({ id: s.userId as string, data: s.userData });

  const enterPresence = (session: SubscriberSession, channel: string) => {
    if (session.userId === null) return;
    announce(
      session.appkey,
      channel,
      presence.enter(channelKey(session.appkey, channel), memberOf(session), session.sid, now()),
    );
  };
  const exitPresence = (session: SubscriberSession, channel: string, how: 'leave' | 'timeout') => {
    if (session.userId === null) return;
    announce(
      session.appkey,
      channel,
      presence.exit(channelKey(session.appkey, channel), session.userId, session.sid, how, now()),
    );
  };

  const sessionOf = (s: Subscriber): SubscriberSession => {
    const session = sessions.byConnection(s.connectionId);
    if (session?.sid === s.sid) return session;
    const created = sessions.ensure({ sid: s.sid, appkey: s.app.appkey, userId: s.userId, userData: s.userData });
    sessions.attach(created, s.connectionId);
    return created;
  };

  const upkeep = () => {
    const at = now();
    if (at - lastUpkeep < UPKEEP_EVERY_MS) return;
    lastUpkeep = at;
    for (const session of sessions.offlineBefore(at - deps.sessionTtlMs - SESSION_GRACE_MS)) sessions.drop(session);
    presence.sweep(at);
    for (const [key, entry] of recent) if (entry.at < at - DEDUPE_WINDOW_MS) recent.delete(key);
    const channels = [...touched];
    touched.clear();
    void prune(channels, at).catch((err: unknown) => deps.logger.error({ err }, 'pub/sub history prune failed'));
  };

  const prune = async (keys: readonly string[], at: number) => {
    const { maxMessages, maxAgeMs } = deps.history;
    for (const key of keys) {
      const split = key.indexOf('\n');
      const appkey = key.slice(0, split);
      const channel = key.slice(split + 1);
      await store.prune({ appkey, channel, keep: maxMessages, before: maxAgeMs > 0 ? at - maxAgeMs : 0 });
    }
  };

  /** A time strictly after the channel's previous message, so that history order is publish order. */
  const nextTime = (key: string): number => {
    if (lastTime.size > DEDUPE_MAX_ENTRIES) lastTime.clear();
    const time = Math.max(now(), (lastTime.get(key) ?? 0) + 1);
    lastTime.set(key, time);
    return time;
  };

  const deliver = async (input: PublishInput): Promise<PublishAck> => {
    const { app, channel, content, guid, qos } = input;
    const time = nextTime(channelKey(app.appkey, channel));
    if (deps.history.maxMessages > 0) {
      const stored = await store.append({ appkey: app.appkey, channel, guid, time, content });
      // Stored already: a re-sent publish outside the memory window. It reached subscribers the first time.
      if (!stored.inserted) return { time: stored.time, guid };
      touched.add(`${app.appkey}\n${channel}`);
    }
    const message: WirePubsubMessage = { n: channel, c: content, t: time, i: guid, a: qos === 1 };
    if (input.notification) message.nt = { t: input.notification.title, c: input.notification.body };
    if (qos === 1) {
      for (const session of sessions.subscribers(app.appkey, channel)) {
        if (session.pending.size >= PENDING_MAX) session.pending.delete(session.pending.keys().next().value as string);
        const [connectionId] = session.connections;
        session.pending.set(guid, { message, deliveredTo: connectionId });
      }
    }
    fanout.message(app.appkey, channel, message);
    return { time, guid };
  };

  return {
    connected(s) {
      upkeep();
      const previous = sessions.byConnection(s.connectionId);
      // The same socket authorized again as someone else: its old session ends as if it left.
      if (previous && previous.sid !== s.sid) this.disconnected(s.connectionId, true);
      const resumed = sessions.get(s.sid);
      const session = sessions.ensure({ sid: s.sid, appkey: s.app.appkey, userId: s.userId, userData: s.userData });
      const wasOffline = session.connections.size === 0;
      sessions.attach(session, s.connectionId);
      if (resumed !== session) return;
      for (const [channel, { presence: member }] of session.channels) {
        fanout.joinChannel(s.connectionId, session.appkey, channel);
        if (member && wasOffline) enterPresence(session, channel);
      }
      for (const channel of session.watching) fanout.joinPresence(s.connectionId, session.appkey, channel);
    },

    disconnected(connectionId, manual) {
      const session = sessions.detach(connectionId, now());
      if (!session || session.connections.size > 0) return;
      for (const [channel, { presence: member }] of session.channels) {
        if (member) exitPresence(session, channel, manual ? 'leave' : 'timeout');
      }
      // A client that left on purpose starts a new session next time; nothing of this one is needed.
      if (manual) sessions.drop(session);
    },

    subscribe(s, request) {
      upkeep();
      if (request.presence && s.userId === null) throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.presenceNeedsUser);
      const allowed = channelAccessAllowed({
        app: s.app,
        userId: s.userId,
        token: request.accessToken,
        channels: request.channels,
        need: 'r',
        now: now(),
      });
      if (!allowed) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
      const session = sessionOf(s);
      for (const channel of request.channels) {
        const had = session.channels.get(channel);
        sessions.addChannel(session, channel, request.presence || had?.presence === true);
        fanout.joinChannel(s.connectionId, session.appkey, channel);
        if (request.presence && !had?.presence) enterPresence(session, channel);
        // PUB-9: a re-sent subscription after an expired session takes over what the user's old session missed.
        if (request.resubscribe) {
          for (const orphan of sessions.orphans(session, channel)) {
            for (const [guid, entry] of orphan.pending) {
              if (entry.message.n === channel && !session.pending.has(guid)) {
                session.pending.set(guid, { message: entry.message, deliveredTo: undefined });
              }
            }
          }
        }
      }
    },

    unsubscribe(s, channel) {
      const session = sessionOf(s);
      const had = session.channels.get(channel);
      if (!had) return;
      sessions.removeChannel(session, channel);
      for (const connectionId of session.connections) fanout.leaveChannel(connectionId, session.appkey, channel);
      if (had.presence) exitPresence(session, channel, 'leave');
    },

    publish(input) {
      const allowed =
        input.trusted === true ||
        channelAccessAllowed({
          app: input.app,
          userId: input.userId,
          token: input.accessToken,
          channels: [input.channel],
          need: 'w',
          now: now(),
        });
      if (!allowed) return Promise.reject(new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission));
      upkeep();
      const key = `${input.app.appkey}\n${input.guid}`;
      const seen = recent.get(key);
      if (seen) return seen.ack;
      if (recent.size >= DEDUPE_MAX_ENTRIES) recent.delete(recent.keys().next().value as string);
      const ack = deliver(input);
      recent.set(key, { at: now(), ack });
      // A failed publish may be tried again with the same guid.
      ack.catch(() => recent.delete(key));
      return ack;
    },

    ack(s, guid) {
      sessions.byConnection(s.connectionId)?.pending.delete(guid);
    },

    redeliver(s, channels) {
      const session = sessions.byConnection(s.connectionId);
      if (!session) return;
      const only = channels ? new Set(channels) : undefined;
      for (const entry of session.pending.values()) {
        if (entry.deliveredTo === s.connectionId || (only && !only.has(entry.message.n))) continue;
        entry.deliveredTo = s.connectionId;
        fanout.toConnection(s.connectionId, entry.message);
      }
    },

    async history(app, channel, limit) {
      const { maxMessages, maxAgeMs } = deps.history;
      const wanted = Math.min(limit ?? PUBSUB_LIMITS.historyDefaultLimit, PUBSUB_LIMITS.historyMaxLimit, maxMessages);
      if (wanted <= 0) return { messages: [] };
      const since = maxAgeMs > 0 ? now() - maxAgeMs : 0;
      return { messages: await store.history({ appkey: app.appkey, channel, limit: wanted, since }) };
    },

    watchPresence(s, channel) {
      const session = sessionOf(s);
      session.watching.add(channel);
      fanout.joinPresence(s.connectionId, session.appkey, channel);
    },

    unwatchPresence(s, channel) {
      const session = sessionOf(s);
      session.watching.delete(channel);
      for (const connectionId of session.connections) fanout.leavePresence(connectionId, session.appkey, channel);
    },

    hereNow(app, channel, limit) {
      const wanted = Math.min(limit ?? LIMITS.presenceMembersDefault, LIMITS.presenceMembersMax);
      return presence.hereNow(channelKey(app.appkey, channel), wanted);
    },
  };
}
