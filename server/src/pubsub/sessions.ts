import type { StoredSubscriberSession } from '../store/index.js';

/**
 * A pub/sub session (sid) as this node knows it while it serves at least one of the session's connections. The
 * store holds the session itself (PUB-9: it outlives its connections, restarts and nodes); this is the node's copy,
 * which decides room joins and presence without asking the store.
 */
export interface LocalSession {
  readonly sid: string;
  readonly appkey: string;
  readonly userId: string | null;
  userData: Record<string, unknown>;
  /** Its connections on this node (socket ids); usually one. */
  readonly connections: Set<string>;
  /** Subscribed channels, and whether the session is a presence member of each. */
  readonly channels: Map<string, { presence: boolean }>;
  /** Channels whose presence events it watches. */
  readonly watching: Set<string>;
  /** Whether the store has a row for it: made by its first subscribe or watch. */
  stored: boolean;
  /** Channels of subscribes under way, counted against the session's bound (PUB-17) before they are in `channels`. */
  joining: number;
  /** The session's store writes, one after another, so that a quick disconnect never overtakes its attach. */
  writes: Promise<void>;
}

/** The sessions this node serves, by sid and by connection, and what was redelivered on each connection. */
export class LocalSessions {
  readonly #bySid = new Map<string, LocalSession>();
  readonly #byConnection = new Map<string, { session: LocalSession; redelivered: Set<string> }>();

  /** The session `sid`, if this node serves it. */
  get(sid: string): LocalSession | undefined {
    return this.#bySid.get(sid);
  }

  /** The session a connection serves. */
  byConnection(connectionId: string): LocalSession | undefined {
    return this.#byConnection.get(connectionId)?.session;
  }

  /** Starts serving `sid`, with what the store holds for it, if anything. */
  open(params: {
    sid: string;
    appkey: string;
    userId: string | null;
    userData: Record<string, unknown>;
    stored?: StoredSubscriberSession | undefined;
  }): LocalSession {
    const { stored } = params;
    const session: LocalSession = {
      sid: params.sid,
      appkey: params.appkey,
      userId: params.userId,
      userData: params.userData,
      connections: new Set(),
      channels: new Map(stored?.channels.map((c) => [c.channel, { presence: c.presence }])),
      watching: new Set(stored?.watching),
      stored: stored !== undefined,
      joining: 0,
      writes: Promise.resolve(),
    };
    this.#bySid.set(session.sid, session);
    return session;
  }

  /** Records that `connectionId` serves `session`. */
  attach(session: LocalSession, connectionId: string): void {
    session.connections.add(connectionId);
    this.#bySid.set(session.sid, session);
    this.#byConnection.set(connectionId, { session, redelivered: new Set() });
  }

  /** Forgets `connectionId`, and its session once it has no connection here; returns that session. */
  detach(connectionId: string): LocalSession | undefined {
    const session = this.#byConnection.get(connectionId)?.session;
    this.#byConnection.delete(connectionId);
    if (!session) return undefined;
    session.connections.delete(connectionId);
    if (session.connections.size === 0 && this.#bySid.get(session.sid) === session) this.#bySid.delete(session.sid);
    return session;
  }

  /** Guids already redelivered on a connection (PUB-8: never twice on one connection). */
  redelivered(connectionId: string): Set<string> | undefined {
    return this.#byConnection.get(connectionId)?.redelivered;
  }
}

/** Queues `work` behind the session's earlier store writes. */
export function serially(session: LocalSession, work: () => Promise<void>): Promise<void> {
  const run = session.writes.then(work);
  session.writes = run.catch(() => undefined);
  return run;
}
