import type { WirePubsubMessage } from '../protocol.js';

/** A qos-1 message a session has not acked yet, and the connection it last went to. */
export interface PendingDelivery {
  message: WirePubsubMessage;
  /** The connection it was pushed to; a new connection of the session gets it again. */
  deliveredTo: string | undefined;
}

/**
 * What one session (sid) holds in pub/sub. It outlives its connections for the session lifetime, so that a client
 * that comes back with the same sid (`reconnected`) finds its channels, presence and pending qos-1 messages.
 */
export interface SubscriberSession {
  readonly sid: string;
  readonly appkey: string;
  readonly userId: string | null;
  userData: Record<string, unknown>;
  /** Its live connections (socket ids); usually one. */
  readonly connections: Set<string>;
  /** Subscribed channels, and whether this session is a presence member of each. */
  readonly channels: Map<string, { presence: boolean }>;
  /** Channels whose presence events it watches. */
  readonly watching: Set<string>;
  /** Unacked qos-1 messages by guid, oldest first. */
  readonly pending: Map<string, PendingDelivery>;
  /** When its last connection went away; undefined while connected. */
  offlineSince: number | undefined;
}

/** The key of a channel within an app, for maps and rooms. */
export function channelKey(appkey: string, channel: string): string {
  return `${appkey}:${channel}`;
}

/** Sessions by sid, by connection, and the sessions subscribed to each channel (connected or not). */
export class SubscriberSessions {
  readonly #bySid = new Map<string, SubscriberSession>();
  readonly #sidByConnection = new Map<string, string>();
  readonly #byChannel = new Map<string, Set<string>>();

  /** The session `sid`, created if new. */
  ensure(params: {
    sid: string;
    appkey: string;
    userId: string | null;
    userData: Record<string, unknown>;
  }): SubscriberSession {
    let session = this.#bySid.get(params.sid);
    if (!session || session.appkey !== params.appkey || session.userId !== params.userId) {
      if (session) this.drop(session);
      session = {
        ...params,
        connections: new Set(),
        channels: new Map(),
        watching: new Set(),
        pending: new Map(),
        offlineSince: undefined,
      };
      this.#bySid.set(params.sid, session);
    }
    session.userData = params.userData;
    return session;
  }

  /** The session `sid`, if known. */
  get(sid: string): SubscriberSession | undefined {
    return this.#bySid.get(sid);
  }

  /** Records that `connectionId` serves `session`. */
  attach(session: SubscriberSession, connectionId: string): void {
    session.connections.add(connectionId);
    session.offlineSince = undefined;
    this.#sidByConnection.set(connectionId, session.sid);
  }

  /** Forgets `connectionId`; returns its session, if it had one. */
  detach(connectionId: string, now: number): SubscriberSession | undefined {
    const sid = this.#sidByConnection.get(connectionId);
    this.#sidByConnection.delete(connectionId);
    const session = sid === undefined ? undefined : this.#bySid.get(sid);
    if (!session) return undefined;
    session.connections.delete(connectionId);
    if (session.connections.size === 0) session.offlineSince = now;
    return session;
  }

  /** The session a connection serves. */
  byConnection(connectionId: string): SubscriberSession | undefined {
    const sid = this.#sidByConnection.get(connectionId);
    return sid === undefined ? undefined : this.#bySid.get(sid);
  }

  /** Adds a channel to a session. */
  addChannel(session: SubscriberSession, channel: string, presence: boolean): void {
    session.channels.set(channel, { presence });
    const key = channelKey(session.appkey, channel);
    let sids = this.#byChannel.get(key);
    if (!sids) {
      sids = new Set();
      this.#byChannel.set(key, sids);
    }
    sids.add(session.sid);
  }

  /** Removes a channel from a session, with its pending messages. */
  removeChannel(session: SubscriberSession, channel: string): void {
    session.channels.delete(channel);
    for (const [guid, entry] of session.pending) if (entry.message.n === channel) session.pending.delete(guid);
    const key = channelKey(session.appkey, channel);
    const sids = this.#byChannel.get(key);
    sids?.delete(session.sid);
    if (sids?.size === 0) this.#byChannel.delete(key);
  }

  /** Sessions subscribed to a channel, connected or not. */
  subscribers(appkey: string, channel: string): SubscriberSession[] {
    const sids = this.#byChannel.get(channelKey(appkey, channel));
    if (!sids) return [];
    const sessions: SubscriberSession[] = [];
    for (const sid of sids) {
      const session = this.#bySid.get(sid);
      if (session) sessions.push(session);
    }
    return sessions;
  }

  /** Other sessions of the same user with no connection, subscribed to `channel`. */
  orphans(session: SubscriberSession, channel: string): SubscriberSession[] {
    if (session.userId === null) return [];
    return this.subscribers(session.appkey, channel).filter(
      (s) => s !== session && s.userId === session.userId && s.connections.size === 0,
    );
  }

  /** Forgets a session entirely. */
  drop(session: SubscriberSession): void {
    for (const channel of [...session.channels.keys()]) this.removeChannel(session, channel);
    for (const connectionId of session.connections) this.#sidByConnection.delete(connectionId);
    this.#bySid.delete(session.sid);
  }

  /** Sessions offline since before `before`. */
  offlineBefore(before: number): SubscriberSession[] {
    return [...this.#bySid.values()].filter((s) => s.offlineSince !== undefined && s.offlineSince < before);
  }
}
