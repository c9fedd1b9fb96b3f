/**
 * An in-process fake Parley server behind the SDK's `Transport` seam, for unit tests of the connection core.
 * Sockets open and acks arrive on the microtask queue, so tests drive everything with fake timers and
 * `await vi.advanceTimersByTimeAsync(ms)`.
 *
 * To extend it for a module: register a handler with `server.handle(event, (params, socket) => reply)`; return
 * a reply object to ack, or `NO_REPLY` to swallow the request (a lost ack). Push with `server.push(event, data)`.
 * `authorize` is built in: it keeps sessions, so a known `sid` is reused and an unknown one replaced.
 */
import type { Transport, TransportHandlers, TransportSocket } from '../../src/core/transport.js';

/** Returned by a handler to leave a request un-acked. */
export const NO_REPLY = Symbol('no reply');

/** A request the fake server received. */
export interface Received {
  event: string;
  params: Record<string, unknown>;
  url: string;
}

type Handler = (params: Record<string, unknown>, socket: FakeSocket) => unknown;

/** One socket between the SDK and the fake server. */
export class FakeSocket implements TransportSocket {
  open = false;
  closedByClient = false;
  sid: string | undefined;

  constructor(
    readonly server: FakeServer,
    readonly url: string,
    readonly handlers: TransportHandlers,
  ) {}

  emit(event: string, payload: unknown, ack?: (reply: unknown) => void): void {
    if (!this.open) return; // like socket.io with no buffering: lost
    const params = (payload ?? {}) as Record<string, unknown>;
    this.server.received.push({ event, params: structuredClone(params), url: this.url });
    const reply = this.server.reply(event, params, this);
    if (reply === NO_REPLY || !ack) return;
    // A handler may answer later, with a promise: a slow server, to test what happens meanwhile.
    void Promise.resolve(reply).then((answer) => {
      if (this.open) ack(answer);
    });
  }

  close(): void {
    this.closedByClient = true;
    this.open = false;
  }

  /** Server side: drop the link. */
  drop(reason = 'transport close'): void {
    if (!this.open) return;
    this.open = false;
    this.handlers.onClose(reason);
  }
}

/** The fake server. */
export class FakeServer {
  readonly received: Received[] = [];
  readonly attempts: string[] = [];
  readonly sockets: FakeSocket[] = [];
  /** Hosts that refuse connections. */
  readonly downHosts = new Set<string>();
  /** When true every host refuses connections. */
  down = false;
  /** When true, connection attempts neither open nor fail (a black hole). */
  hang = false;
  /** Refuse authorize with this failure. */
  refuse: { code: number; content: string } | undefined;
  /** When set, an authorize whose otp it does not accept is refused with 401 `otp has expired`. */
  acceptOtp: ((otp: unknown) => boolean) | undefined;
  /** Leave authorize un-acked (the server is slow to answer). */
  silentAuthorize = false;
  permissions = { enablePublish: true, enableSubscribe: true };
  /** `mD` entries by module key, answered for the modules the client named. */
  moduleData: Record<string, unknown> = {};
  readonly #sessions = new Set<string>();
  readonly #handlers = new Map<string, Handler>();
  #nextSid = 1;

  /** The transport to hand to `createClient`. */
  readonly transport: Transport = (url, handlers) => {
    this.attempts.push(url);
    const socket = new FakeSocket(this, url, handlers);
    this.sockets.push(socket);
    if (this.hang) return socket;
    queueMicrotask(() => {
      if (socket.closedByClient) return;
      if (this.down || this.downHosts.has(url)) {
        handlers.onError(new Error('connect ECONNREFUSED'));
        return;
      }
      socket.open = true;
      handlers.onOpen();
    });
    return socket;
  };

  /** Registers a handler for `event`. */
  handle(event: string, handler: Handler): void {
    this.#handlers.set(event, handler);
  }

  /** Open sockets. */
  get openSockets(): FakeSocket[] {
    return this.sockets.filter((s) => s.open);
  }

  /** Requests received for `event`. */
  requests(event: string): Received[] {
    return this.received.filter((r) => r.event === event);
  }

  /** Drops every open link. */
  dropAll(reason?: string): void {
    for (const socket of this.openSockets) socket.drop(reason);
  }

  /** Forgets every session, as a restart of a server without persistence would. */
  forgetSessions(): void {
    this.#sessions.clear();
  }

  /** Pushes an event to every open socket. */
  push(event: string, payload: unknown): void {
    for (const socket of this.openSockets) socket.handlers.onPush(event, payload);
  }

  reply(event: string, params: Record<string, unknown>, socket: FakeSocket): unknown {
    if (event === 'authorize') return this.#authorize(params, socket);
    const handler = this.#handlers.get(event);
    if (handler) return handler(params, socket);
    return { code: 200, resultCode: 200, content: null };
  }

  #authorize(params: Record<string, unknown>, socket: FakeSocket): unknown {
    if (this.silentAuthorize) return NO_REPLY;
    if (this.refuse) return { code: this.refuse.code, resultCode: this.refuse.code, content: this.refuse.content };
    if (this.acceptOtp && !this.acceptOtp(params.otp))
      return { code: 401, resultCode: 401, content: 'otp has expired' };
    const asked = typeof params.sid === 'string' ? params.sid : undefined;
    const sid = asked && this.#sessions.has(asked) ? asked : `sid-${this.#nextSid++}`;
    this.#sessions.add(sid);
    socket.sid = sid;
    const mD: Record<string, unknown> = {};
    for (const key of Object.keys((params.mP as Record<string, unknown> | null) ?? {}))
      mD[key] = this.moduleData[key] ?? {};
    return { code: 200, resultCode: 200, sid, ...this.permissions, mD };
  }
}
