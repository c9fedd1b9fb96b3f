import type { Server, Socket } from 'socket.io';
import { PacketType } from 'socket.io-parser';
import type { LiveSession, SessionService } from '../auth/sessions.js';
import type { RateLimitConfig } from '../config.js';
import { ServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ConnectionCounts, GatewayMetrics } from '../metrics.js';
import type { Pusher } from '../push.js';
import { holdsNul } from '../nul.js';
import {
  CLIENT_EVENTS,
  CLIENT_NOTICES,
  CODES,
  MESSAGES,
  WIRE_MODULES,
  authorizeRequestSchema,
  check,
  fail,
  ok,
  type AuthorizeRequest,
  type FailureAck,
  type ServerPushName,
} from '../protocol.js';
import { Connection, type AuthorizeAck } from './connection.js';
import { TokenBucket } from './rate-limit.js';
import { UserBudgets } from './user-budgets.js';
import { HandlerRegistry, type HandlerOutcome, type RequestContext } from './registry.js';

export type { AuthorizeAck } from './connection.js';
export type {
  HandlerOutcome,
  ModuleDataProvider,
  NoticeHandlerSpec,
  RequestContext,
  RequestHandlerSpec,
  RequiredPermission,
} from './registry.js';

/**
 * Told when a connection authorizes and when an authorized connection ends (presence, remembered user data). The
 * gateway awaits `authorized` before it answers the authorize; a listener's failure is logged and never fails it.
 */
export interface ConnectionListener {
  /** A connection authorized (again, possibly as another user: `closed` ran for the previous one first). */
  authorized(ctx: RequestContext): Promise<void>;
  /** An authorized connection ended, or authorized again as another user. */
  closed(ctx: RequestContext): Promise<void>;
}

/** The socket.io side of the server: authorize, per-connection state, dispatch to registered handlers, pushes. */
export interface Gateway {
  /** Registers a request handler; see {@link HandlerRegistry.handle}. */
  readonly handle: HandlerRegistry['handle'];
  /** Registers a plain-emit handler; see {@link HandlerRegistry.notice}. */
  readonly notice: HandlerRegistry['notice'];
  /** Supplies a module's `mD` entry; see {@link HandlerRegistry.moduleData}. */
  readonly moduleData: HandlerRegistry['moduleData'];
  /** Pushes to every connection of a user, on every node (through the adapter). */
  pushToUser(params: { appkey: string; userId: string; event: ServerPushName; payload: object }): void;
  /** Pushes for domain services, over the same user rooms. */
  readonly pusher: Pusher;
  /** Adds a listener of authorized connections. */
  onConnection(listener: ConnectionListener): void;
  /**
   * The sessions of the connections on this node, each with where its replay would start if its connections went
   * now (IM-24): the oldest of theirs, and what any of them sent itself.
   */
  liveSessions(): LiveSession[];
  /** The connections on this node: open, authorized, and their distinct users (METRICS-2). */
  connectionCounts(): ConnectionCounts;
  /** Waits for the session writes that disconnects started, so that the store can close after them. */
  drain(): Promise<void>;
}

/** What {@link createGateway} needs. */
export interface GatewayDeps {
  io: Server;
  sessions: SessionService;
  rateLimit: RateLimitConfig;
  /** A connection not authorized this long after it opened is closed; an idle unknown socket costs memory. */
  authorizeTimeoutMs: number;
  /** Most connections one user of an app may have on this node (WIRE-10; `PARLEY_MAX_USER_CONNECTIONS`). */
  maxUserConnections: number;
  logger: Logger;
  now: () => number;
  /** Told of every request answered and every push (METRICS-2). @default none */
  metrics?: GatewayMetrics | undefined;
}

type Ack = (reply: unknown) => void;

/** Notices get this many times the request budget: one per message received, in a busy group. */
const NOTICE_BUDGET_FACTOR = 20;

const REQUEST_EVENTS: ReadonlySet<string> = new Set(Object.values(CLIENT_EVENTS));
const NOTICE_EVENTS: ReadonlySet<string> = new Set(Object.values(CLIENT_NOTICES));
const MODULE_KEYS: ReadonlySet<string> = new Set(Object.values(WIRE_MODULES));

/** No rooms: a push that leaves no one out. */
const NO_ROOMS: ReadonlySet<string> = new Set();

/** User room names the gateway keeps made (see `roomOf`). */
const ROOM_NAMES_KEPT = 100_000;

/**
 * IM-24: whether the client acknowledges the messages pushed to it (`imAck`), as the reference client does.
 * Parley's SDK says at authorize that it does not (`mP.GIM.imAck: false`, IM-23): it re-reads its conversations
 * itself after a reconnect (IMC-8).
 */
function acknowledgesPushes(request: AuthorizeRequest): boolean {
  const im: unknown = request.mP?.[WIRE_MODULES.im];
  return !(typeof im === 'object' && im !== null && (im as { imAck?: unknown }).imAck === false);
}

/** The room holding every connection of one user of one app. */
function userRoom(appkey: string, userId: string): string {
  return `user:${appkey}:${userId}`;
}

/** Wires the gateway into `io`: from now on every connection goes through it. */
export function createGateway(deps: GatewayDeps): Gateway {
  const { io, logger, now, metrics } = deps;
  const registry = new HandlerRegistry();
  const connections = new Map<string, Connection>();
  const userBudgets = new UserBudgets(deps.rateLimit);
  const isUser = (ctx: RequestContext | undefined, appkey: string, userId: string) =>
    ctx?.app.appkey === appkey && ctx.userId === userId;
  /**
   * WIRE-9: moves the connection's share of a user budget to the session's user, if any. The authorize has counted
   * the connection among that user's already (WIRE-10's claim).
   */
  const shareBudget = (conn: Connection, previous: RequestContext | undefined, ctx: RequestContext) => {
    const { userId } = ctx;
    if (previous?.userId && !isUser(ctx, previous.app.appkey, previous.userId)) {
      userBudgets.detach(previous.app.appkey, previous.userId, conn.socket.id);
    }
    conn.userBucket = undefined;
    if (userId === null) return;
    // A socket gone during the authorize has had its disconnect already: counted now, it would never be let go.
    if (conn.socket.connected) conn.userBucket = userBudgets.attach(ctx.app.appkey, userId, conn.socket.id, now());
    else userBudgets.detach(ctx.app.appkey, userId, conn.socket.id);
  };
  const pending = new Set<Promise<void>>();
  const listeners: ConnectionListener[] = [];

  /** Runs background work whose failure must be logged, never thrown, and which close() waits for. */
  const track = (work: Promise<void>, what: string) => {
    const p = work.catch((err: unknown) => logger.error({ err }, `${what} failed`)).finally(() => pending.delete(p));
    pending.add(p);
  };

  /** Runs one listener callback; a listener must never break authorize or disconnect handling. */
  const notify = async (ctx: RequestContext, which: keyof ConnectionListener, listener: ConnectionListener) => {
    try {
      await listener[which](ctx);
    } catch (err) {
      logger.error({ err, which, userId: ctx.userId }, 'connection listener failed');
    }
  };

  /**
   * Users' room names, made once: a group message pushes to every member's room, and a name made anew is hashed
   * anew where socket.io looks it up. Bounded; past the bound it starts over.
   */
  const rooms = new Map<string, Map<string, string>>();
  let roomCount = 0;
  const roomOf = (appkey: string, userId: string): string => {
    let ofApp = rooms.get(appkey);
    if (!ofApp) {
      ofApp = new Map();
      rooms.set(appkey, ofApp);
    }
    let room = ofApp.get(userId);
    if (room === undefined) {
      if (roomCount >= ROOM_NAMES_KEPT) {
        for (const names of rooms.values()) names.clear();
        roomCount = 0;
      }
      room = userRoom(appkey, userId);
      ofApp.set(userId, room);
      roomCount += 1;
    }
    return room;
  };
  /**
   * The rooms of a frozen list of users, by the list: a group's members come as one array, frozen and kept by the
   * store until the group changes, and each of its messages would otherwise look up every member's room again. A
   * list that is not frozen (a private message's two users, made for it) is looked up each time.
   */
  const roomsByList = new WeakMap<readonly string[], { appkey: string; rooms: ReadonlySet<string> }>();
  const roomsOf = (appkey: string, userIds: readonly string[]): ReadonlySet<string> => {
    if (!Object.isFrozen(userIds)) return new Set(userIds.map((u) => roomOf(appkey, u)));
    const known = roomsByList.get(userIds);
    if (known?.appkey === appkey) return known.rooms;
    const made = new Set(userIds.map((u) => roomOf(appkey, u)));
    roomsByList.set(userIds, { appkey, rooms: made });
    return made;
  };

  /**
   * Sends `event` to every connection in `rooms` but those in `except`, on every node: what
   * `io.to(rooms).except(except).emit(event, payload)` does, handed straight to the namespace's adapter (Redis's
   * when configured, which publishes it to the other nodes). The chain would make two broadcast operators and copy
   * the rooms twice for each push; a group's rooms are kept as one set (`roomsOf`). No rooms: nothing is sent, where
   * `io.to([])` would send to everyone.
   */
  const broadcast = (
    rooms: ReadonlySet<string>,
    except: ReadonlySet<string>,
    event: ServerPushName,
    payload: object,
  ): void => {
    if (rooms.size === 0) return;
    // The adapter only reads the sets; its types ask for mutable ones.
    io.sockets.adapter.broadcast(
      { type: PacketType.EVENT, data: [event, payload] },
      { rooms: rooms as Set<string>, except: except as Set<string>, flags: {} },
    );
    metrics?.pushed(event);
  };

  const pusher: Pusher = {
    toUsers({ appkey, userIds, event, payload, exceptConnectionId }) {
      // A user named twice is one room: the rooms are a set. Every socket is in the room named by its id, so
      // leaving that room out leaves out exactly that connection.
      broadcast(
        roomsOf(appkey, userIds),
        exceptConnectionId ? new Set([exceptConnectionId]) : NO_ROOMS,
        event,
        payload,
      );
    },
    toConnection({ connectionId, event, payload }) {
      broadcast(new Set([connectionId]), NO_ROOMS, event, payload);
    },
    joinRoom({ connectionId, room, leave }) {
      const socket = io.sockets.sockets.get(connectionId);
      if (!socket) return;
      if (leave) void socket.leave(room);
      else void socket.join(room);
    },
    toRoom({ appkey, room, event, payload, exceptUserIds = [], exceptConnectionId }) {
      const except = new Set(exceptUserIds.map((u) => roomOf(appkey, u)));
      if (exceptConnectionId) except.add(exceptConnectionId);
      broadcast(new Set([room]), except, event, payload);
    },
  };

  const authorize = async (conn: Connection, params: unknown): Promise<AuthorizeAck | FailureAck> => {
    const checked = check(authorizeRequestSchema, params);
    if (!checked.ok) return fail(checked.code, checked.content);
    const request: AuthorizeRequest = checked.value;
    const key = JSON.stringify(request);
    return conn.authorizeOnce(key, async () => {
      // WIRE-10: the connection is counted among its user's once the request is known to be theirs, before the
      // session's store writes, so that authorizes sent together cannot all pass the bound.
      let claimed: { appkey: string; userId: string } | undefined;
      const admit = (appkey: string, userId: string) => {
        const bucket = userBudgets.claim(appkey, userId, conn.socket.id, deps.maxUserConnections, now());
        if (bucket) claimed = { appkey, userId };
        return bucket !== undefined;
      };
      try {
        const session = await deps.sessions.authorize(request, admit);
        const previous = conn.context();
        if (previous?.userId) await conn.socket.leave(userRoom(previous.app.appkey, previous.userId));
        conn.authorized(session);
        conn.watchDeliveries(session.userId !== null && acknowledgesPushes(request), now);
        if (session.userId) await conn.socket.join(userRoom(session.app.appkey, session.userId));
        const ctx = conn.context() as RequestContext;
        shareBudget(conn, previous, ctx);
        const sameUser = previous?.app.appkey === ctx.app.appkey && previous.userId === ctx.userId;
        if (previous && !sameUser) for (const l of listeners) await notify(previous, 'closed', l);
        for (const l of listeners) {
          // A disconnect during authorize found no session yet; telling listeners now would leave it "online".
          if (!conn.socket.connected) break;
          await notify(ctx, 'authorized', l);
        }
        const mD: Record<string, unknown> = {};
        // The reference client throws on an mD key it did not register, so answer only the modules it asked for.
        for (const key of Object.keys(request.mP ?? {})) {
          if (!MODULE_KEYS.has(key)) continue;
          const provider = registry.moduleDataProvider(key);
          mD[key] = provider ? await provider(ctx) : {};
        }
        conn.log.debug({ sid: session.sid, userId: session.userId, resumed: session.resumed }, 'authorized');
        return {
          code: CODES.OK,
          resultCode: CODES.OK,
          sid: session.sid,
          enablePublish: session.permissions.write,
          enableSubscribe: session.permissions.read,
          mD,
        };
      } catch (err) {
        if (claimed && !isUser(conn.context(), claimed.appkey, claimed.userId)) {
          userBudgets.detach(claimed.appkey, claimed.userId, conn.socket.id);
        }
        return failureOf(err, conn.log, 'authorize');
      }
    });
  };

  /**
   * Answers a request through `ack`. Not async: the answer follows the handler's promise directly, without a layer
   * of promises of its own, as every request of every client passes here.
   */
  const request = (conn: Connection, ack: Ack | undefined, event: string, params: unknown): Promise<void> | void => {
    const ctx = conn.context();
    if (!ctx) return reply(conn, ack, fail(CODES.UNAUTHORIZED, MESSAGES.noPermission));
    const handler = registry.request(event);
    if (!handler) return reply(conn, ack, fail(CODES.BAD_REQUEST, `Not supported: ${event}`));
    if (handler.permission !== 'none' && !ctx.permissions[handler.permission]) {
      return reply(conn, ack, fail(CODES.UNAUTHORIZED, MESSAGES.noPermission));
    }
    let outcome: Promise<HandlerOutcome>;
    try {
      outcome = handler.run(ctx, params);
    } catch (err) {
      return reply(conn, ack, failureOf(err, conn.log, event));
    }
    return outcome.then(
      (done) => reply(conn, ack, done.ok ? ok(done.content) : fail(done.code, done.content)),
      (err: unknown) => reply(conn, ack, failureOf(err, conn.log, event)),
    );
  };

  const dispatch = async (conn: Connection, event: string, args: unknown[]): Promise<void> => {
    const last = args[args.length - 1];
    const given: Ack | undefined = typeof last === 'function' ? (last as Ack) : undefined;
    // METRICS-2: every answer is counted by its code.
    const ack: Ack | undefined =
      given && metrics
        ? (value) => {
            metrics.requested(event, (value as { code?: unknown }).code as number);
            given(value);
          }
        : given;
    const params = ack && args.length === 1 ? undefined : args[0];
    const known = REQUEST_EVENTS.has(event) || NOTICE_EVENTS.has(event);
    // Unknown events still spend the budget, so that flooding them costs the sender like anything else.
    const notice = NOTICE_EVENTS.has(event);
    const bucket = notice ? conn.noticeBucket : conn.bucket;
    // WIRE-9: a request also spends from its user's budget, shared by the user's connections on this node.
    if (!bucket.take(now()) || (!notice && conn.userBucket?.take(now()) === false)) {
      if (known) reply(conn, ack, fail(CODES.TOO_MANY_REQUESTS, MESSAGES.tooFrequent));
      return;
    }
    if (!known) return;
    if (holdsNul(params)) {
      reply(conn, ack, fail(CODES.BAD_REQUEST, MESSAGES.nulCharacter));
      return;
    }
    if (event === CLIENT_EVENTS.authorize) {
      reply(conn, ack, await authorize(conn, params));
    } else if (event === CLIENT_EVENTS.manualDisconnect) {
      // Allowed before authorize too: a client must always be able to leave.
      reply(conn, ack, ok(null));
      conn.socket.disconnect(true);
    } else if (NOTICE_EVENTS.has(event)) {
      const ctx = conn.context();
      const handler = registry.noticeHandler(event);
      if (ctx && handler) await handler.run(ctx, params);
    } else {
      await request(conn, ack, event, params);
    }
  };

  io.on('connection', (socket: Socket) => {
    const conn = new Connection({
      socket,
      bucket: new TokenBucket({ ...deps.rateLimit, now: now() }),
      noticeBucket: new TokenBucket({
        perSecond: deps.rateLimit.perSecond * NOTICE_BUDGET_FACTOR,
        burst: deps.rateLimit.burst * NOTICE_BUDGET_FACTOR,
        now: now(),
      }),
      log: logger.child({ socket: socket.id }),
    });
    connections.set(socket.id, conn);
    // Clients authorize as soon as they connect (and resend while unanswered); a socket that never does, or whose
    // authorize was refused, is closed, so that idle unknown connections cannot pile up.
    const deadline = setTimeout(() => {
      if (conn.session || !socket.connected) return;
      conn.log.debug('not authorized in time; closing');
      socket.disconnect(true);
    }, deps.authorizeTimeoutMs);
    deadline.unref();
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (typeof event !== 'string') return;
      dispatch(conn, event, args).catch((err: unknown) => conn.log.error({ err, event }, 'dispatch failed'));
    });
    socket.on('disconnect', (reason) => {
      clearTimeout(deadline);
      connections.delete(socket.id);
      const sid = conn.session?.sid;
      conn.log.debug({ reason, sid }, 'disconnected');
      if (sid) track(deps.sessions.left(sid, conn.deliveries?.horizon()), 'session touch on disconnect');
      const ctx = conn.context();
      if (ctx?.userId) userBudgets.detach(ctx.app.appkey, ctx.userId, socket.id);
      if (ctx) {
        track(
          (async () => {
            for (const l of listeners) await notify(ctx, 'closed', l);
          })(),
          'connection listeners on disconnect',
        );
      }
    });
  });

  return {
    handle: registry.handle.bind(registry),
    notice: registry.notice.bind(registry),
    moduleData: registry.moduleData.bind(registry),
    pushToUser({ appkey, userId, event, payload }) {
      pusher.toUsers({ appkey, userIds: [userId], event, payload });
    },
    pusher,
    onConnection(listener) {
      listeners.push(listener);
    },
    connectionCounts() {
      let authorized = 0;
      const users = new Set<string>();
      for (const conn of connections.values()) {
        const ctx = conn.context();
        if (!ctx) continue;
        authorized += 1;
        if (ctx.userId !== null) users.add(`${ctx.app.appkey} ${ctx.userId}`);
      }
      return { open: connections.size, authorized, users: users.size };
    },
    liveSessions() {
      const live = new Map<string, LiveSession>();
      for (const conn of connections.values()) {
        if (!conn.session) continue;
        const { sid } = conn.session;
        const replay = conn.deliveries?.horizon();
        const seen = live.get(sid);
        if (!seen?.replay || !replay) live.set(sid, { sid, replay: seen?.replay ?? replay });
        else {
          // A session resumed on a second connection before the first was noticed gone (IM-24's limits).
          const from = Math.min(seen.replay.from, replay.from);
          live.set(sid, { sid, replay: { from, except: [...new Set([...seen.replay.except, ...replay.except])] } });
        }
      }
      return [...live.values()];
    },
    async drain() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** Turns a thrown error into a failure ack: a ServiceError keeps its code; anything else is a logged 500. */
function failureOf(err: unknown, log: Logger, event: string): FailureAck {
  if (err instanceof ServiceError) return fail(err.code, err.content);
  log.error({ err, event }, 'handler failed');
  return fail(CODES.SERVER_ERROR, MESSAGES.serverError);
}

/** Calls the ack if the client sent one; a client that sent none, or a broken socket, must not crash us. */
function reply(conn: Connection, ack: Ack | undefined, value: unknown): void {
  if (!ack) return;
  try {
    ack(value);
  } catch (err) {
    conn.log.warn({ err }, 'ack failed');
  }
}
