import type { AppConfig, PubsubHistoryConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  CODES,
  LIMITS,
  MESSAGES,
  isServerChannel,
  PUBSUB_LIMITS,
  type HereNowAck,
  type HistoryMessagesAck,
  type PublishAck,
  type WireChannelPresenceEvent,
  type WireNotification,
  type WirePubsubMessage,
} from '../protocol.js';
import type { PubsubSessionStore, PubsubStore } from '../store/index.js';
import { channelAccessAllowed } from './access.js';
import { AckBatcher } from './acks.js';
import type { ChannelPresence } from './presence.js';
import { createSubscriptions, PENDING_MAX } from './subscriptions.js';

/**
 * How the pub/sub service reaches clients without knowing about sockets. The gateway implements it with one
 * socket.io room per channel (and one per channel's presence watchers), so that with the Redis adapter a message
 * reaches subscribers on every node.
 */
export interface PubsubFanout {
  /**
   * Puts a connection in a channel's subscribers. `from`, when given, is the time of the channel's newest stored
   * message at the join: a message of that time or older still arriving from another node does not reach it.
   */
  joinChannel(connectionId: string, appkey: string, channel: string, from?: number): void;
  leaveChannel(connectionId: string, appkey: string, channel: string): void;
  joinPresence(connectionId: string, appkey: string, channel: string): void;
  leavePresence(connectionId: string, appkey: string, channel: string): void;
  /** Pushes `message` to every subscriber of the channel. */
  message(appkey: string, channel: string, message: WirePubsubMessage): void;
  /** Pushes a presence event to the channel's watchers. */
  presence(appkey: string, channel: string, event: WireChannelPresenceEvent): void;
  /** Pushes `message` to one connection (a redelivery). */
  toConnection(connectionId: string, message: WirePubsubMessage): void;
  /** Tells one connection that its redeliveries of `channels` (or of all its channels) are out (PUB-8). */
  redelivered(connectionId: string, channels?: readonly string[]): void;
  /** Whether a connection of this node is still open. */
  isConnected(connectionId: string): boolean;
}

/** The authorized connection a pub/sub call comes from. */
export interface Subscriber {
  app: AppConfig;
  userId: string | null;
  userData: Record<string, unknown>;
  sid: string;
  connectionId: string;
  /** Whether the client named a session the server knew: only then can the store hold state for this sid. */
  restore: boolean;
  /**
   * The sid the client named when the server gave it a new one instead (the named session had expired): that
   * session's presence watches come over to this one (PUB-20). Null otherwise.
   */
  replaces: string | null;
}

/**
 * A read of a channel by a client. On a private channel (PUB-15) it needs `accessToken` granting read, unless the
 * client's session already subscribes to or watches the channel, which took such a token.
 */
export interface ChannelRead {
  channel: string;
  accessToken?: string | null | undefined;
}

/** A bounded read of a channel: history or here-now. */
export interface ChannelQuery extends ChannelRead {
  limit?: number | null | undefined;
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

/**
 * Pub/sub: channels, qos, presence, here-now and history (docs/protocol.md, PUB-1..). No socket code. Sessions, their
 * channels, watches and unacked qos-1 messages are in the store, so that they outlive a restart and every node sees
 * them; presence is in memory on one node and in Redis on several.
 */
export interface PubsubService {
  /** Releases the sessions a previous run of this node left marked as connected; call once before serving. */
  start(): Promise<void>;
  /** An authorized connection: a resumed session gets its channels, watches and presence back (PUB-9). */
  connected(subscriber: Subscriber): Promise<void>;
  /**
   * A connection ended; `manual` when the client left on purpose (presence `leave`), else `timeout`. Never rejects:
   * failures are logged.
   */
  disconnected(connectionId: string, manual: boolean): Promise<void>;
  /** PUB-5: subscribes channels, checking access tokens for private channels. */
  subscribe(
    subscriber: Subscriber,
    request: { channels: string[]; accessToken?: string | null | undefined; presence: boolean; resubscribe: boolean },
  ): Promise<void>;
  /** PUB-6: unsubscribes a channel; unknown channels are no error (the client may re-send). */
  unsubscribe(subscriber: Subscriber, channel: string): Promise<void>;
  /** PUB-3, PUB-7, PUB-10: stores, de-duplicates by guid and fans out a message. */
  publish(input: PublishInput): Promise<PublishAck>;
  /** PUB-8: the client received a qos-1 message; written with others in a batch. */
  ack(subscriber: Subscriber, guid: string): void;
  /**
   * PUB-8: pushes this session's unacked qos-1 messages (of `channels`, or all) not yet sent on this connection, then
   * `PS_REDELIVERED`, even when there was nothing to push or the store failed. Never rejects: failures are logged.
   */
  redeliver(subscriber: Subscriber, channels?: readonly string[]): Promise<void>;
  /** PUB-11: the newest `limit` messages of a channel, oldest first; a private channel needs read (PUB-15). */
  history(subscriber: Subscriber, request: ChannelQuery): Promise<HistoryMessagesAck>;
  /** PUB-13: watch a channel's presence events; a private channel needs read (PUB-15). */
  watchPresence(subscriber: Subscriber, request: ChannelRead): Promise<void>;
  /** PUB-13: stop watching. */
  unwatchPresence(subscriber: Subscriber, channel: string): Promise<void>;
  /** PUB-14: the channel's members, newest first; a private channel needs read (PUB-15). */
  hereNow(subscriber: Subscriber, request: ChannelQuery): Promise<HereNowAck>;
  /** A node stopped without cleanup: its presence members time out and its sessions count as disconnected. */
  nodeGone(nodeId: string): Promise<void>;
  /** Waits for background work and writes the acks still gathering; call before the store closes. */
  close(): Promise<void>;
}

/** What {@link createPubsubService} needs. */
export interface PubsubServiceDeps {
  store: PubsubStore;
  sessions: PubsubSessionStore;
  presence: ChannelPresence;
  fanout: PubsubFanout;
  /** This node's id, recorded with the connection serving each session. */
  nodeId: string;
  /**
   * Whether this node is the only one (no Redis): then at start no node serves any session, and every session the
   * store still marks as connected lost its connection when the previous run stopped.
   */
  soleNode: boolean;
  history: PubsubHistoryConfig;
  /** How long a disconnected session keeps its subscriptions: the session lifetime. */
  sessionTtlMs: number;
  now: () => number;
  logger: Logger;
}

/** How long a publish guid is remembered in memory; the store's unique key covers longer. */
const DEDUPE_WINDOW_MS = 600_000;
const DEDUPE_MAX_ENTRIES = 10_000;
/** How often lazy upkeep (expired sessions, history retention) may run. */
const UPKEEP_EVERY_MS = 30_000;
/** Kept a little longer than the session lifetime, so that a sid the session service resumes still has its state. */
const SESSION_GRACE_MS = 60_000;
/**
 * How long a session's presence watches outlive it, for a client that comes back with its sid after the session
 * expired and does not watch again by itself (the reference client; PUB-20).
 */
export const WATCH_HANDOVER_MS = 86_400_000;

/** Creates the pub/sub service. */
export function createPubsubService(deps: PubsubServiceDeps): PubsubService {
  const { store, fanout, now, logger } = deps;
  const acks = new AckBatcher((entries) => deps.sessions.ack(entries), logger);
  const subscriptions = createSubscriptions({
    store: deps.sessions,
    presence: deps.presence,
    fanout,
    acks,
    nodeId: deps.nodeId,
    now,
    // Messages cross between nodes after they are stored; their stored times tell the old from the new (PUB-9).
    ...(!deps.soleNode && deps.history.maxMessages > 0
      ? { newest: (appkey: string, channels: readonly string[]) => store.newest({ appkey, channels }) }
      : {}),
  });
  const recent = new Map<string, { at: number; ack: Promise<PublishAck> }>();
  const lastTime = new Map<string, number>();
  const touched = new Set<string>();
  const running = new Set<Promise<void>>();
  let lastUpkeep = now();

  /** Runs background work whose failure is logged, never thrown, and which close() waits for. */
  const track = (what: string, work: Promise<void>): Promise<void> => {
    const p = work.catch((err: unknown) => logger.error({ err }, `${what} failed`)).finally(() => running.delete(p));
    running.add(p);
    return p;
  };

  const upkeep = () => {
    const at = now();
    if (at - lastUpkeep < UPKEEP_EVERY_MS) return;
    lastUpkeep = at;
    for (const [key, entry] of recent) if (entry.at < at - DEDUPE_WINDOW_MS) recent.delete(key);
    const channels = [...touched];
    touched.clear();
    void track('pub/sub upkeep', keepUp(channels, at));
  };

  /** Expired sessions, the pending cap, old presence timeouts and history retention. */
  const keepUp = async (keys: readonly string[], at: number) => {
    const expired = at - deps.sessionTtlMs - SESSION_GRACE_MS;
    await deps.sessions.deleteExpired(expired, expired - WATCH_HANDOVER_MS);
    await deps.sessions.prune({ maxPending: PENDING_MAX, before: at - SESSION_GRACE_MS });
    await deps.presence.sweep(at);
    const { maxMessages, maxAgeMs } = deps.history;
    // By age, every channel: one nobody publishes to any more must not keep its old messages for ever.
    if (maxAgeMs > 0) await store.pruneOlderThan(at - maxAgeMs);
    for (const key of keys) {
      const split = key.indexOf('\n');
      const appkey = key.slice(0, split);
      const channel = key.slice(split + 1);
      await store.prune({ appkey, channel, keep: maxMessages, before: maxAgeMs > 0 ? at - maxAgeMs : 0 });
    }
  };

  /**
   * A time strictly after the channel's previous message on this node, so that history order is publish order; the
   * store moves it past what other nodes stored (PUB-7).
   */
  const nextTime = (key: string): number => {
    if (lastTime.size > DEDUPE_MAX_ENTRIES) lastTime.clear();
    const time = Math.max(now(), (lastTime.get(key) ?? 0) + 1);
    lastTime.set(key, time);
    return time;
  };

  const deliver = async (input: PublishInput): Promise<PublishAck> => {
    const { app, channel, content, guid, qos } = input;
    const key = `${app.appkey}\n${channel}`;
    let time = nextTime(key);
    if (deps.history.maxMessages > 0) {
      const stored = await store.append({ appkey: app.appkey, channel, guid, time, content });
      // Stored already: a re-sent publish outside the memory window. It reached subscribers the first time.
      if (!stored.inserted) return { time: stored.time, guid };
      // PUB-7: past the channel's newest, which another node may have stored in the same millisecond.
      time = stored.time;
      if (time > (lastTime.get(key) ?? 0)) lastTime.set(key, time);
      touched.add(key);
    }
    const message: WirePubsubMessage = { n: channel, c: content, t: time, i: guid, a: qos === 1 };
    if (input.notification) message.nt = { t: input.notification.title, c: input.notification.body };
    // PUB-8: one statement records it for every subscribed session, on any node, before anyone can ack it.
    if (qos === 1) {
      await deps.sessions.addPending({ appkey: app.appkey, channel, guid, time, body: JSON.stringify(message) });
    }
    fanout.message(app.appkey, channel, message);
    return { time, guid };
  };

  /** PUB-15: refuses a read of a private channel without a token granting it or a subscription that had one. */
  const mayRead = (s: Subscriber, channel: string, token: string | null | undefined): void => {
    const granted =
      subscriptions.holds(s, channel) ||
      channelAccessAllowed({ app: s.app, userId: s.userId, token, channels: [channel], need: 'r', now: now() });
    if (!granted) throw new ServiceError(CODES.UNAUTHORIZED, MESSAGES.noPermission);
  };

  return {
    async start() {
      if (deps.soleNode) await deps.sessions.release({ now: now() });
    },

    connected(s) {
      upkeep();
      return subscriptions.connected(s);
    },

    disconnected(connectionId, manual) {
      return track('pub/sub disconnect', subscriptions.disconnected(connectionId, manual));
    },

    async subscribe(s, request) {
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
      await subscriptions.subscribe(s, request);
    },

    unsubscribe(s, channel) {
      return subscriptions.unsubscribe(s, channel);
    },

    publish(input) {
      const allowed =
        input.trusted === true ||
        // PUB-18: a server channel is published by the app's server alone.
        (!isServerChannel(input.channel) &&
          channelAccessAllowed({
            app: input.app,
            userId: input.userId,
            token: input.accessToken,
            channels: [input.channel],
            need: 'w',
            now: now(),
          }));
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
      acks.add({ sid: s.sid, guid });
    },

    redeliver(s, channels) {
      const work = subscriptions.redeliver(s, channels);
      // After the pushes, on the same connection: the client holds the channels' messages until then.
      const marked = work.finally(() => deps.fanout.redelivered(s.connectionId, channels));
      return track('pub/sub redelivery', marked);
    },

    async history(s, { channel, limit, accessToken }) {
      mayRead(s, channel, accessToken);
      const { maxMessages, maxAgeMs } = deps.history;
      const wanted = Math.min(limit ?? PUBSUB_LIMITS.historyDefaultLimit, PUBSUB_LIMITS.historyMaxLimit, maxMessages);
      if (wanted <= 0) return { messages: [] };
      const since = maxAgeMs > 0 ? now() - maxAgeMs : 0;
      return { messages: await store.history({ appkey: s.app.appkey, channel, limit: wanted, since }) };
    },

    async watchPresence(s, { channel, accessToken }) {
      mayRead(s, channel, accessToken);
      await subscriptions.watch(s, channel);
    },

    unwatchPresence(s, channel) {
      return subscriptions.unwatch(s, channel);
    },

    async hereNow(s, { channel, limit, accessToken }) {
      mayRead(s, channel, accessToken);
      const wanted = Math.min(limit ?? LIMITS.presenceMembersDefault, LIMITS.presenceMembersMax);
      return deps.presence.hereNow(s.app.appkey, channel, wanted);
    },

    nodeGone(nodeId) {
      return subscriptions.nodeGone(nodeId);
    },

    async close() {
      while (running.size > 0) await Promise.all(running);
      await acks.flush();
    },
  };
}
