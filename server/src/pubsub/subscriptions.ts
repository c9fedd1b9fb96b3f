import type { PubsubSessionStore, SessionConnection } from '../store/index.js';
import { ServiceError } from '../errors.js';
import { CODES, MESSAGES, PUBSUB_LIMITS, type WirePubsubMessage } from '../protocol.js';
import type { AckBatcher } from './acks.js';
import type { ChannelPresence, PresenceChange } from './presence.js';
import { LocalSessions, serially, type LocalSession } from './sessions.js';
import type { PubsubFanout, Subscriber } from './service.js';

/** Most unacked qos-1 messages one session keeps; older ones are dropped. */
export const PENDING_MAX = 1000;

/** What {@link createSubscriptions} needs. */
export interface SubscriptionsDeps {
  store: PubsubSessionStore;
  presence: ChannelPresence;
  fanout: PubsubFanout;
  acks: AckBatcher;
  /** This node's id, recorded with the connection serving each session. */
  nodeId: string;
  now: () => number;
  /**
   * With other nodes publishing, the time of each channel's newest stored message, read just before a connection
   * joins its channels: a broadcast of that message or an older one may still be on its way from another node, and
   * must not reach the new subscriber (PUB-9). Without it (one node, or no history), joins are immediate.
   */
  newest?: (appkey: string, channels: readonly string[]) => Promise<Map<string, number>>;
}

/**
 * The session side of pub/sub (PUB-5, PUB-6, PUB-8, PUB-9, PUB-12, PUB-13): sessions, their channels and
 * watches, presence membership per connection, and redelivery. The store holds each session; this node keeps a
 * copy of the sessions it serves.
 */
export function createSubscriptions(deps: SubscriptionsDeps) {
  const { store, presence, fanout, now } = deps;
  const local = new LocalSessions();
  const none = new Map<string, number>();

  /** Where each of `channels` stands now, for joins that must not receive what came before (PUB-9). */
  const positions = (appkey: string, channels: readonly string[]): Promise<Map<string, number>> =>
    deps.newest && channels.length > 0 ? deps.newest(appkey, channels) : Promise.resolve(none);

  const connectionOf = (session: LocalSession, connectionId: string): SessionConnection => ({
    sid: session.sid,
    appkey: session.appkey,
    userId: session.userId,
    connectionId,
    nodeId: deps.nodeId,
  });

  const announce = (appkey: string, channel: string, change: PresenceChange | undefined) => {
    if (change) fanout.presence(appkey, channel, { channel, ...change, time: now() });
  };

  const enter = async (session: LocalSession, connectionId: string, channel: string) => {
    if (session.userId === null) return;
    const member = { id: session.userId, data: session.userData };
    const entry = { sid: session.sid, connectionId };
    announce(
      session.appkey,
      channel,
      await presence.enter({ appkey: session.appkey, channel, member, entry, now: now() }),
    );
  };

  const exit = async (session: LocalSession, connectionId: string, channel: string, how: 'leave' | 'timeout') => {
    if (session.userId === null) return;
    const entry = { sid: session.sid, connectionId };
    const params = { appkey: session.appkey, channel, userId: session.userId, entry, how, now: now() };
    announce(session.appkey, channel, await presence.exit(params));
  };

  /** The session a call comes from; made here if the connection's authorize left none (its load failed). */
  const sessionOf = (s: Subscriber): LocalSession => {
    const current = local.byConnection(s.connectionId);
    if (current?.sid === s.sid) return current;
    if (current) local.detach(s.connectionId);
    const session =
      local.get(s.sid) ?? local.open({ sid: s.sid, appkey: s.app.appkey, userId: s.userId, userData: s.userData });
    local.attach(session, s.connectionId);
    return session;
  };

  const disconnected = async (connectionId: string, manual: boolean): Promise<void> => {
    const session = local.byConnection(connectionId);
    if (!session) return;
    local.detach(connectionId);
    const how = manual ? 'leave' : 'timeout';
    const exits = [...session.channels]
      .filter(([, c]) => c.presence)
      .map(([ch]) => exit(session, connectionId, ch, how));
    await Promise.all(exits);
    if (session.connections.size > 0 || !session.stored) return;
    // A client that left on purpose starts a new session next time; nothing of this one is needed.
    await serially(session, async () => {
      await deps.acks.flush();
      if (manual) await store.drop(session.sid);
      else await store.detach({ sid: session.sid, connectionId, now: now() });
    });
  };

  /**
   * PUB-20: the watches of the expired session `from` that the client named, which the reference client does not
   * renew, handed to its new session. Queued before any disconnect's store write, so that a connection gone meanwhile
   * leaves the store without a connection.
   */
  const handOver = (session: LocalSession, from: string, connectionId: string) =>
    serially(session, async () => {
      const channels = await store.handOver({ from, to: connectionOf(session, connectionId) });
      if (channels.length === 0) return;
      session.stored = true;
      for (const channel of channels) {
        session.watching.add(channel);
        for (const id of session.connections) fanout.joinPresence(id, session.appkey, channel);
      }
      if (!session.connections.has(connectionId)) await store.detach({ sid: session.sid, connectionId, now: now() });
    });

  return {
    /** PUB-9: an authorized connection; a session the store holds gets its channels, watches and presence back. */
    async connected(s: Subscriber): Promise<void> {
      const previous = local.byConnection(s.connectionId);
      if (previous?.sid === s.sid) {
        previous.userData = s.userData;
        return;
      }
      // The same socket authorized again with another session: the old one ends as if it left.
      if (previous) await disconnected(s.connectionId, true);
      let session = local.get(s.sid);
      if (!session) {
        let stored = s.restore ? await store.load(s.sid) : undefined;
        if (stored && (stored.appkey !== s.app.appkey || stored.userId !== s.userId)) {
          await store.drop(s.sid);
          stored = undefined;
        }
        // Gone while the store answered: serving it now would leave it a member forever.
        if (!fanout.isConnected(s.connectionId)) return;
        session =
          local.get(s.sid) ??
          local.open({ sid: s.sid, appkey: s.app.appkey, userId: s.userId, userData: s.userData, stored });
      }
      if (!fanout.isConnected(s.connectionId)) return;
      // A qos-0 message published while the link was down is not this connection's, even arriving late (PUB-8).
      const from = await positions(session.appkey, [...session.channels.keys()]);
      if (!fanout.isConnected(s.connectionId)) return;
      session.userData = s.userData;
      local.attach(session, s.connectionId);
      const work: Array<Promise<void>> = [];
      for (const [channel, { presence: member }] of session.channels) {
        fanout.joinChannel(s.connectionId, session.appkey, channel, from.get(channel));
        if (member) work.push(enter(session, s.connectionId, channel));
      }
      for (const channel of session.watching) fanout.joinPresence(s.connectionId, session.appkey, channel);
      if (session.stored) {
        const live = session;
        work.push(serially(live, () => store.attach(connectionOf(live, s.connectionId))));
      } else if (s.replaces !== null && s.replaces !== s.sid) {
        work.push(handOver(session, s.replaces, s.connectionId));
      }
      await Promise.all(work);
    },

    /** A connection ended; `manual` when the client left on purpose (presence `leave`), else `timeout`. */
    disconnected,

    /** PUB-5, PUB-9: subscribes channels; with `resubscribe`, takes over what the user's old sessions missed. */
    async subscribe(s: Subscriber, request: { channels: string[]; presence: boolean; resubscribe: boolean }) {
      const session = sessionOf(s);
      const changed = request.channels.filter((channel) => {
        const had = session.channels.get(channel);
        return !had || (request.presence && !had.presence);
      });
      // PUB-17: checked and reserved at once, so that subscribes sent together cannot pass the bound between them.
      const joining = request.channels.filter((channel) => !session.channels.has(channel)).length;
      if (session.channels.size + session.joining + joining > PUBSUB_LIMITS.sessionChannelsMax) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.sessionChannelsTooMany);
      }
      session.joining += joining;
      try {
        if (changed.length > 0 || !session.stored) {
          const owner = connectionOf(session, s.connectionId);
          await serially(session, () =>
            store.subscribe({ session: owner, channels: changed, presence: request.presence }),
          );
          session.stored = true;
        }
      } finally {
        session.joining -= joining;
      }
      // A first subscribe receives nothing published before it, even from another node (PUB-9).
      const fresh = request.channels.filter((channel) => !session.channels.has(channel));
      const from = await positions(session.appkey, fresh);
      const entering: Array<Promise<void>> = [];
      for (const channel of request.channels) {
        const had = session.channels.get(channel);
        session.channels.set(channel, { presence: request.presence || had?.presence === true });
        for (const connectionId of session.connections) {
          fanout.joinChannel(connectionId, session.appkey, channel, from.get(channel));
          if (request.presence && !had?.presence) entering.push(enter(session, connectionId, channel));
        }
      }
      await Promise.all(entering);
      if (request.resubscribe && session.userId !== null) {
        const { sid, appkey, userId } = session;
        await store.takeOver({ sid, appkey, userId, channels: request.channels });
      }
    },

    /** PUB-6: unsubscribes a channel, with its pending messages; an unknown channel is no error. */
    async unsubscribe(s: Subscriber, channel: string) {
      const session = sessionOf(s);
      const had = session.channels.get(channel);
      session.channels.delete(channel);
      for (const connectionId of session.connections) fanout.leaveChannel(connectionId, session.appkey, channel);
      if (had?.presence) {
        await Promise.all(
          [...session.connections].map((connectionId) => exit(session, connectionId, channel, 'leave')),
        );
      }
      if (session.stored) await serially(session, () => store.unsubscribe({ sid: session.sid, channel }));
    },

    /** Whether the connection's session subscribes to or watches `channel`: both took read on it (PUB-15). */
    holds(s: Subscriber, channel: string): boolean {
      const session = local.byConnection(s.connectionId);
      return session?.sid === s.sid && (session.channels.has(channel) || session.watching.has(channel));
    },

    /** PUB-13: watch a channel's presence. */
    async watch(s: Subscriber, channel: string) {
      const session = sessionOf(s);
      if (!session.watching.has(channel) && session.watching.size >= PUBSUB_LIMITS.sessionWatchesMax) {
        throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.sessionWatchesTooMany);
      }
      for (const connectionId of session.connections) fanout.joinPresence(connectionId, session.appkey, channel);
      if (session.watching.has(channel) && session.stored) return;
      session.watching.add(channel);
      await serially(session, () => store.watch({ session: connectionOf(session, s.connectionId), channel }));
      session.stored = true;
    },

    /** PUB-13: stop watching. */
    async unwatch(s: Subscriber, channel: string) {
      const session = sessionOf(s);
      session.watching.delete(channel);
      for (const connectionId of session.connections) fanout.leavePresence(connectionId, session.appkey, channel);
      if (session.stored) await serially(session, () => store.unwatch({ sid: session.sid, channel }));
    },

    /** PUB-8: pushes the session's unacked qos-1 messages (of `channels`, or all) not yet sent on this connection. */
    async redeliver(s: Subscriber, channels?: readonly string[]) {
      const session = local.byConnection(s.connectionId);
      if (session?.sid !== s.sid || !session.stored) return;
      await deps.acks.flush();
      const entries = await store.pending({ sid: session.sid, channels, limit: PENDING_MAX });
      const sent = local.redelivered(s.connectionId);
      if (!sent) return;
      for (const entry of entries) {
        if (entry.deliveredTo === s.connectionId || sent.has(entry.guid)) continue;
        sent.add(entry.guid);
        fanout.toConnection(s.connectionId, JSON.parse(entry.body) as WirePubsubMessage);
      }
    },

    /** A node stopped without cleanup: its members time out and its sessions count as disconnected. */
    async nodeGone(nodeId: string) {
      for (const { appkey, channel, change } of await presence.forgetNode(nodeId, now())) {
        announce(appkey, channel, change);
      }
      await store.release({ nodeId, now: now() });
    },
  };
}
