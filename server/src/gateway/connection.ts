import type { Socket } from 'socket.io';
import type { AuthorizedSession } from '../auth/sessions.js';
import type { Logger } from '../logger.js';
import { SERVER_PUSHES, type FailureAck } from '../protocol.js';
import { DeliveryTracker } from './deliveries.js';
import type { RequestContext } from './registry.js';
import type { TokenBucket } from './rate-limit.js';

/** The authorize reply, with its fields beside `code` where the reference client reads them. */
export interface AuthorizeAck {
  code: 200;
  resultCode: 200;
  sid: string;
  enablePublish: boolean;
  enableSubscribe: boolean;
  mD: Record<string, unknown>;
}

/** The state the gateway keeps per socket: its rate limit and, once authorized, its session. */
export class Connection {
  /** The socket this state belongs to. */
  readonly socket: Socket;
  /** Requests left in this connection's budget. */
  readonly bucket: TokenBucket;
  /** A separate, larger budget for plain notices (`imAck`, `ack`): a busy group's acks must not eat the requests'. */
  readonly noticeBucket: TokenBucket;
  /** Logger carrying the socket id. */
  readonly log: Logger;
  /** The budget this connection shares with the user's other connections on the node, once authorized (WIRE-9). */
  userBucket: TokenBucket | undefined;
  #session: AuthorizedSession | undefined;
  /** The handler context of the current session, made once: every request of the connection reads it. */
  #context: RequestContext | undefined;
  #authorizing: { key: string; reply: Promise<AuthorizeAck | FailureAck> } | undefined;
  #deliveries: DeliveryTracker | undefined;
  #unwatch: (() => void) | undefined;

  constructor(params: { socket: Socket; bucket: TokenBucket; noticeBucket: TokenBucket; log: Logger }) {
    this.socket = params.socket;
    this.bucket = params.bucket;
    this.noticeBucket = params.noticeBucket;
    this.log = params.log;
  }

  /** The session, once authorize succeeded. */
  get session(): AuthorizedSession | undefined {
    return this.#session;
  }

  /** Records a successful authorize. */
  authorized(session: AuthorizedSession): void {
    this.#session = session;
    this.#context = undefined;
  }

  /** IM-24: the messages pushed to this connection that its client has not acknowledged, while watched. */
  get deliveries(): DeliveryTracker | undefined {
    return this.#deliveries?.watching ? this.#deliveries : undefined;
  }

  /**
   * Starts following what this connection's client acknowledges of the messages pushed to it (IM-24), from
   * now, or stops (`watch` false). Call before {@link context}, which hands the tracker to the handlers.
   */
  watchDeliveries(watch: boolean, now: () => number): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#deliveries = undefined;
    this.#context = undefined;
    if (!watch) return;
    const socket = this.socket;
    // Every push to this socket passes here, a group's broadcasts and those from other nodes included.
    const listener = (event: string, payload: unknown) => {
      if (event !== SERVER_PUSHES.imMessage || typeof payload !== 'object' || payload === null) return;
      const { i, ts } = payload as { i?: unknown; ts?: unknown };
      if (typeof i === 'string' && typeof ts === 'number') tracker.pushed(i, ts);
    };
    const unwatch = () => socket.offAnyOutgoing(listener);
    const tracker = new DeliveryTracker(now, unwatch);
    socket.onAnyOutgoing(listener);
    this.#unwatch = unwatch;
    this.#deliveries = tracker;
  }

  /**
   * Runs an authorize, or joins the one already running with the same params: the client re-emits an un-acked
   * authorize every 1700 ms, and every copy must get the same sid.
   */
  authorizeOnce(key: string, run: () => Promise<AuthorizeAck | FailureAck>): Promise<AuthorizeAck | FailureAck> {
    if (this.#authorizing?.key === key) return this.#authorizing.reply;
    const entry = { key, reply: run() };
    this.#authorizing = entry;
    // A failure is answered once; a later authorize with the same params deserves a fresh try.
    void entry.reply.then((ack) => {
      if (ack.code !== 200 && this.#authorizing === entry) this.#authorizing = undefined;
    });
    return entry.reply;
  }

  /** The handler context, or undefined before authorize. */
  context(): RequestContext | undefined {
    const session = this.#session;
    if (!session) return undefined;
    if (this.#context) return this.#context;
    const socket = this.socket;
    this.#context = {
      app: session.app,
      userId: session.userId,
      userData: session.userData,
      sid: session.sid,
      socketId: socket.id,
      permissions: session.permissions,
      previousSeenAt: session.previousSeenAt,
      replayExcept: session.replayExcept,
      replacedSid: session.replacedSid,
      deliveries: this.#deliveries,
      push: (event, payload) => {
        socket.emit(event, payload);
      },
      log: this.log,
    };
    return this.#context;
  }
}
