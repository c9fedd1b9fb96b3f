import {
  CLIENT_EVENTS,
  CODES,
  MESSAGES,
  REQUEST_TIMEOUTS,
  authorizeReplySchema,
  isOkAck,
  toAuthorizeRequest,
  toAuthorization,
  type ModuleName,
  type Authorization,
  type Permissions,
  type UserEvent,
} from '../protocol/index.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import type { ConnectInput, OtpProvider } from './connect-input.js';
import { TypedEmitter } from './emitter.js';
import { ParleyError } from './errors.js';
import type { HostRotation } from './hosts.js';
import type { Logger } from './logger.js';
import { RequestManager, type ChannelState } from './requests.js';
import { TRANSITIONS, isOnline, type ConnectionStatus, type ConnectionStatusChange } from './status.js';
import type { OnlineSource, TimerHandle, Timers } from './timers.js';
import type { Transport, TransportSocket } from './transport.js';

/** Events of the connection core. */
export interface ConnectionEvents {
  [event: string]: unknown;
  /** Every state change. */
  connectionStatus: ConnectionStatusChange;
  /** A connection attempt failed and another is scheduled; `attempts` counts failures since the last success. */
  connecting: { attempts: number; url: string; delay: number };
  /**
   * USER-1: an event the app's server sent this user (`POST /api/v1/apps/:appkey/users/:userId/events`), on every
   * connection of theirs. Live only: one sent while disconnected is not delivered later.
   */
  userEvent: UserEvent;
}

/** What the connection core is built from; the client fills it from its options and defaults. */
export interface ConnectionDeps {
  appkey: string;
  modules: readonly ModuleName[];
  hosts: HostRotation;
  transport: Transport;
  timers: Timers;
  random: () => number;
  online: OnlineSource;
  backoff: BackoffOptions;
  connectTimeout: number;
  logger: Logger;
  sdk: { name: string; version: string };
}

/**
 * The connection state machine. It opens one socket at a time, authorizes after every (re)connect, and on any
 * failure closes that socket and opens a new one to the next host after a backoff delay. Every state change
 * goes through `#setStatus`, which emits `connectionStatus`.
 */
export class Connection {
  /** Status and attempt events. */
  readonly events = new TypedEmitter<ConnectionEvents>();
  /** Raw server pushes by wire event name; JSON-string payloads are parsed. */
  readonly pushes = new TypedEmitter<Record<string, unknown>>();
  /** Outgoing and pending requests. */
  readonly requests: RequestManager;

  readonly #deps: ConnectionDeps;
  #status: ConnectionStatus = 'disconnected';
  #socket: TransportSocket | undefined;
  // Bumped whenever a socket is dropped, so late callbacks of an old socket are ignored.
  #generation = 0;
  #authorized = false;
  #sid: string | null = null;
  #permissions: Permissions = { read: false, write: false };
  #moduleData: Authorization['moduleData'] = {};
  #input: ConnectInput | undefined;
  /** The otp authorize sends: the input's string, or the last one its provider gave (undefined: ask it). */
  #otp: string | undefined;
  /** Whether the provider gave {@link #otp} for this authorize, so that a refusal of it is final. */
  #otpFresh = false;
  #failures = 0;
  #timers = new Set<TimerHandle>();
  #retry: TimerHandle | undefined;
  #stopOnline: (() => void) | undefined;
  #waiter: { resolve: () => void; reject: (error: ParleyError) => void } | undefined;

  constructor(deps: ConnectionDeps) {
    this.#deps = deps;
    this.requests = new RequestManager(
      {
        state: () => this.#channelState(),
        permissions: () => this.#permissions,
        emit: (event, params, ack) => this.#socket?.emit(event, params, ack),
      },
      deps.timers,
    );
  }

  /** The current state. */
  get status(): ConnectionStatus {
    return this.#status;
  }

  /** The session id the server gave, or null before the first authorize. */
  get sid(): string | null {
    return this.#sid;
  }

  /** What the authorize reply allowed. */
  get permissions(): Permissions {
    return { ...this.#permissions };
  }

  /** What the server said about each module in its last authorize reply (`mD`). */
  get moduleData(): Authorization['moduleData'] {
    return this.#moduleData;
  }

  /** The user this connection was opened for. */
  get input(): ConnectInput | undefined {
    return this.#input;
  }

  /** Opens the connection; resolves once authorized, rejects if the server refuses or `disconnect()` is called. */
  connect(input: ConnectInput): Promise<void> {
    if (this.#status !== 'disconnected' && this.#status !== 'connect_failed') {
      return Promise.reject(ParleyError.of(CODES.TIMEOUT, 'alreadyConnected'));
    }
    this.#input = input;
    this.#otp = typeof input.otp === 'string' ? input.otp : undefined;
    this.#otpFresh = false;
    this.#sid = null;
    this.#failures = 0;
    this.#setStatus('connecting', 'connect() called');
    this.#stopOnline = this.#deps.online(() => this.#onOnline());
    const done = new Promise<void>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
    this.#open();
    return done;
  }

  /**
   * Emits a plain notice (no ack) on the current socket, if the connection is up; otherwise it is dropped, which
   * is what notices such as `imAck` want.
   */
  notify(event: string, payload: Record<string, unknown>): void {
    if (this.#authorized) this.#socket?.emit(event, payload);
  }

  /** Closes the connection, tells the server it was on purpose, and settles every request. */
  async disconnect(): Promise<void> {
    if (this.#status === 'disconnected' || this.#status === 'disconnecting') return;
    this.#setStatus('disconnecting', 'disconnect() called');
    const socket = this.#socket;
    if (socket && this.#authorized) await this.#sayGoodbye(socket);
    this.#teardown();
    this.#stopOnline?.();
    this.#stopOnline = undefined;
    const closed = ParleyError.of(CODES.NOT_CONNECTED, 'connectFirst');
    this.requests.settleAll(closed);
    this.#finishWaiter(closed);
    this.#setStatus('disconnected', 'disconnect() called');
  }

  #channelState(): ChannelState {
    if (this.#authorized && isOnline(this.#status)) return 'ready';
    switch (this.#status) {
      case 'disconnected':
      case 'disconnecting':
        return 'disconnected';
      case 'connect_failed':
        return 'failed';
      case 'connecting':
      case 'reconnecting':
      case 'connected':
      case 'reconnected':
      case 'expired_reconnected':
        return 'waiting';
    }
  }

  #open(): void {
    const generation = ++this.#generation;
    const url = this.#deps.hosts.current();
    const live = (): boolean => generation === this.#generation;
    this.#deps.logger.debug('opening socket', { url });
    const connectTimer = this.#after(this.#deps.connectTimeout, () => {
      if (live()) this.#linkDown('connect timeout');
    });
    this.#socket = this.#deps.transport(url, {
      onOpen: () => {
        if (!live()) return;
        this.#cancel(connectTimer);
        this.#authorize(generation);
      },
      onClose: (reason) => {
        if (live()) this.#linkDown(`link lost: ${reason}`);
      },
      onError: (error) => {
        if (live()) this.#linkDown(`connect error: ${error.message}`);
      },
      onPush: (event, payload) => {
        if (live()) this.pushes.emit(event, parsePush(payload));
      },
    });
  }

  #authorize(generation: number): void {
    const input = this.#input;
    if (!input) return;
    if (typeof input.otp === 'function' && this.#otp === undefined) {
      void this.#fetchOtp(input.otp, generation);
      return;
    }
    const request = toAuthorizeRequest({
      appkey: this.#deps.appkey,
      userId: input.id,
      userData: input.data,
      otp: this.#otp,
      wxmpId: input.wxmpId,
      sid: this.#sid,
      modules: this.#deps.modules,
      sdk: this.#deps.sdk,
    });
    let answered = false;
    const { single, total } = REQUEST_TIMEOUTS.authorize;
    const giveUp = this.#after(total, () => {
      if (!answered && generation === this.#generation) this.#fail(ParleyError.of(CODES.TIMEOUT, 'timeout'));
    });
    const emit = (): void => {
      if (answered || generation !== this.#generation) return;
      this.#socket?.emit(CLIENT_EVENTS.authorize, request, (reply) => {
        if (answered || generation !== this.#generation) return;
        answered = true;
        this.#cancel(giveUp);
        this.#onAuthorizeReply(reply, generation);
      });
      this.#after(single, emit);
    };
    emit();
  }

  /**
   * Asks `provider` for an otp, then authorizes with it; one that fails, times out or gives no string ends a first
   * connect, and is tried again after the backoff while reconnecting.
   */
  async #fetchOtp(provider: OtpProvider, generation: number): Promise<void> {
    let otp: unknown;
    let timer: TimerHandle | undefined;
    try {
      otp = await Promise.race([
        Promise.resolve().then(provider),
        new Promise<never>((_resolve, reject) => {
          timer = this.#after(this.#deps.connectTimeout, () => reject(new Error('no otp in time')));
        }),
      ]);
    } catch (error) {
      otp = error instanceof Error ? error : new Error(String(error));
    } finally {
      if (timer) this.#cancel(timer);
    }
    if (generation !== this.#generation) return;
    if (typeof otp !== 'string' || otp === '') {
      const why = otp instanceof Error ? otp.message : 'no otp given';
      const content = `${MESSAGES.otpProviderFailed} ${why}`;
      if (this.#status === 'reconnecting') this.#linkDown(content);
      else this.#fail(new ParleyError(CODES.UNAUTHORIZED, content));
      return;
    }
    this.#otp = otp;
    this.#otpFresh = true;
    this.#authorize(generation);
  }

  #onAuthorizeReply(reply: unknown, generation: number): void {
    if (!isOkAck(reply)) {
      const error = ParleyError.fromAck(reply);
      // An otp from the provider that the server refuses (it expired, say) is asked for afresh, once.
      if (error.code === CODES.UNAUTHORIZED && typeof this.#input?.otp === 'function' && !this.#otpFresh) {
        this.#deps.logger.info('otp refused; asking the provider for a fresh one', { content: error.content });
        this.#otp = undefined;
        this.#authorize(generation);
        return;
      }
      // CONN-13: a server too busy for this user now (429), or failing for now (5xx: its store restarting, say), is
      // tried again while reconnecting, like a lost link; only a refusal of the client itself (4xx) is final.
      const passing = error.code === CODES.TOO_MANY_REQUESTS || error.code >= CODES.SERVER_ERROR;
      if (passing && this.#status === 'reconnecting') {
        this.#linkDown(`authorize refused: ${error.content}`);
        return;
      }
      this.#fail(error);
      return;
    }
    const parsed = authorizeReplySchema.safeParse(reply);
    if (!parsed.success) {
      this.#fail(new ParleyError(CODES.SERVER_ERROR, 'Invalid authorize reply'));
      return;
    }
    const auth = toAuthorization(parsed.data);
    const next: ConnectionStatus =
      this.#status === 'connecting' ? 'connected' : auth.sid === this.#sid ? 'reconnected' : 'expired_reconnected';
    this.#sid = auth.sid;
    this.#permissions = auth.permissions;
    this.#moduleData = auth.moduleData;
    this.#authorized = true;
    this.#otpFresh = false;
    this.#failures = 0;
    this.requests.flush();
    this.#setStatus(next, next === 'expired_reconnected' ? 'authorized with a new session' : 'authorized');
    this.#finishWaiter();
  }

  #linkDown(reason: string): void {
    this.#dropSocket();
    this.requests.suspend();
    if (isOnline(this.#status)) this.#setStatus('reconnecting', reason);
    if (this.#status !== 'connecting' && this.#status !== 'reconnecting') return;
    const delay = backoffDelay(this.#failures, this.#deps.random, this.#deps.backoff);
    this.#failures += 1;
    const url = this.#deps.hosts.next();
    this.#deps.logger.info('connection attempt failed', { reason, attempts: this.#failures, delay, next: url });
    this.events.emit('connecting', { attempts: this.#failures, url, delay });
    this.#retry = this.#after(delay, () => {
      this.#retry = undefined;
      this.#open();
    });
  }

  #onOnline(): void {
    if (this.#retry === undefined) return;
    this.#cancel(this.#retry);
    this.#retry = undefined;
    this.#open();
  }

  #fail(error: ParleyError): void {
    this.#teardown();
    this.#stopOnline?.();
    this.#stopOnline = undefined;
    this.requests.settleAll(error);
    this.#setStatus('connect_failed', error.content, error);
    this.#finishWaiter(error);
  }

  async #sayGoodbye(socket: TransportSocket): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = this.#after(REQUEST_TIMEOUTS.request.single, resolve);
      socket.emit(CLIENT_EVENTS.manualDisconnect, {}, () => {
        this.#cancel(timer);
        resolve();
      });
    });
  }

  #teardown(): void {
    this.#dropSocket();
    for (const timer of this.#timers) this.#deps.timers.clearTimeout(timer);
    this.#timers.clear();
    this.#retry = undefined;
  }

  #dropSocket(): void {
    this.#generation += 1;
    this.#authorized = false;
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.close();
  }

  #finishWaiter(error?: ParleyError): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (!waiter) return;
    if (error) waiter.reject(error);
    else waiter.resolve();
  }

  #setStatus(status: ConnectionStatus, reason: string, error?: ParleyError): void {
    const previous = this.#status;
    if (previous === status) return;
    if (!TRANSITIONS[previous].includes(status)) {
      throw new ParleyError(CODES.SERVER_ERROR, `Illegal connection transition ${previous} -> ${status}`);
    }
    this.#status = status;
    const change: ConnectionStatusChange = { status, previous, reason };
    if (error) change.error = error.toJSON();
    this.#deps.logger.debug('connection status', { status, previous, reason });
    this.events.emit('connectionStatus', change);
  }

  #after(ms: number, callback: () => void): TimerHandle {
    const handle = this.#deps.timers.setTimeout(() => {
      this.#timers.delete(handle);
      callback();
    }, ms);
    this.#timers.add(handle);
    return handle;
  }

  #cancel(handle: TimerHandle): void {
    this.#timers.delete(handle);
    this.#deps.timers.clearTimeout(handle);
  }
}

function parsePush(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}
