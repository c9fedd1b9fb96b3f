import {
  CLIENT_EVENTS,
  CODES,
  MESSAGES,
  SERVER_PUSHES,
  check,
  userEventPushSchema,
  type ModuleName,
  type Permissions,
} from './protocol/index.js';
import { defaultBackoff, type BackoffOptions } from './core/backoff.js';
import { validateConnectInput, type ConnectInput } from './core/connect-input.js';
import { Connection, type ConnectionEvents } from './core/connection.js';
import type { Subscribable } from './core/emitter.js';
import { ParleyError } from './core/errors.js';
import { HostRotation, normaliseHosts } from './core/hosts.js';
import { silentLogger, type Logger } from './core/logger.js';
import type { ConnectionStatus } from './core/status.js';
import { browserOnline, systemTimers, type OnlineSource, type Timers } from './core/timers.js';
import { socketIoTransport, type Transport } from './core/transport.js';
import { RECONNECT } from './protocol/index.js';
import { Im } from './modules/im/im.js';
import { defaultUploadHttp, type UploadHttp } from './modules/upload/http.js';
import { Pubsub } from './modules/pubsub/pubsub.js';
import { SDK } from './version.js';

/** Options of {@link createClient}. Give `host` or `hosts`. */
export interface ClientOptions {
  /** The server, as `host:port` or a URL. */
  host?: string;
  /** Up to five servers; the client starts at a random one and moves on after each connection error. */
  hosts?: readonly string[];
  /** Your app's key (publish and subscribe) or its subscribe-only key. */
  appkey: string;
  /** Modules to enable: `im`, `pubsub` (case-insensitive). */
  modules: readonly string[];
  /** Use https/wss for hosts given without a scheme. @default false */
  forceTLS?: boolean;
  /** Reconnect schedule. @default 1000 ms growing to 5000 ms, jitter 0.5 */
  backoff?: Partial<BackoffOptions>;
  /** How long one connection attempt may take, in ms. @default 20000 */
  connectTimeout?: number;
  /** Where diagnostics go. @default a logger that discards everything */
  logger?: Logger;
  /** Opens sockets. @default socket.io v4 over websocket */
  transport?: Transport;
  /** Clock and timers. @default the global ones */
  timers?: Timers;
  /** Random numbers in [0, 1) for jitter and the first host. @default Math.random */
  random?: () => number;
  /** The "back online" signal that triggers an immediate reconnect. @default window's `online` event */
  online?: OnlineSource;
  /** Posts upload forms to storage. @default XMLHttpRequest where present (real progress), else fetch */
  uploadHttp?: UploadHttp;
}

/** The options that have defaults, with their types. */
export type ClientDefaults = Required<Omit<ClientOptions, 'host' | 'hosts' | 'appkey' | 'modules' | 'backoff'>> & {
  backoff: BackoffOptions;
};

/** Every option that has a default, with that default. */
export const clientDefaults: ClientDefaults = {
  forceTLS: false,
  backoff: defaultBackoff,
  connectTimeout: RECONNECT.connectTimeout,
  logger: silentLogger,
  transport: socketIoTransport,
  timers: systemTimers,
  random: Math.random,
  online: browserOnline,
  uploadHttp: defaultUploadHttp,
};

/** Events a client emits. Each listener gets one context object. */
export type ClientEvents = ConnectionEvents;

/** A Parley client: one connection to a Parley server and the modules on it. */
export interface ParleyClient {
  /** Connects as the given user (or anonymously); resolves once authorized. */
  connect(input?: ConnectInput & { onProgress?: (attempts: number) => void }): Promise<void>;
  /**
   * Measures a round trip to the server. Resolves with the round-trip time in ms and the server's clock; waits
   * for the connection like any request.
   */
  ping(): Promise<{ roundTripMs: number; serverTime: number }>;
  /** Disconnects; settles every request still waiting. */
  disconnect(): Promise<void>;
  /** The current connection state. */
  getConnectionStatus(): ConnectionStatus;
  /** Listens to a client event; returns the unsubscribe function. */
  on: Subscribable<ClientEvents>['on'];
  /** Listens once. */
  once: Subscribable<ClientEvents>['once'];
  /** Removes a listener. */
  off: Subscribable<ClientEvents>['off'];
  /** The enabled modules. */
  readonly modules: readonly ModuleName[];
  /** The current session id, or null before the first authorize. */
  readonly sid: string | null;
  /** What the server allowed this connection. */
  readonly permissions: Permissions;
  /** The connected user, as given to `connect()`. */
  readonly user: { id?: string | number; data?: Record<string, unknown> } | undefined;
  /** The connection core, for modules. */
  readonly connection: Connection;
  /** IM: chat, conversations, history, read marks, recall, groups, presence. Needs the `im` module. */
  readonly im: Im;
  /** Pub/sub: channels, qos 0/1, channel presence, here-now, history. Needs the `pubsub` module. */
  readonly pubsub: Pubsub;
}

function parseModules(modules: unknown): ModuleName[] {
  if (!Array.isArray(modules) || modules.length === 0) throw ParleyError.badRequest('modulesEmpty');
  const names = new Set<ModuleName>();
  for (const m of modules) {
    const name = typeof m === 'string' ? m.toLowerCase() : '';
    if (name !== 'im' && name !== 'pubsub') throw ParleyError.badRequest('unknownModule');
    names.add(name);
  }
  return [...names];
}

/** The client {@link getInstance} gave last. */
let shared: ParleyClient | undefined;

/**
 * The app's one client, as the reference SDK's `GoEasy.getInstance` gives it (CONN-15): made from `options`, like
 * {@link createClient}, and made again from new options only once the client before is `disconnected` (or
 * `connect_failed`). While that one is connecting, connected, reconnecting or disconnecting, it throws 400
 * `Initialization failed. Please disconnect and try again.`: the app's connection is not replaced under its feet, and
 * a second client does not open a second connection for the same user. Use {@link createClient} for clients of their
 * own (tests, several users or apps in one page).
 *
 * @example
 * const client = getInstance({ host: 'localhost:3000', appkey: 'demo-appkey', modules: ['im'] });
 * await client.connect({ id: 'alice' });
 * getInstance({ host: 'localhost:3000', appkey: 'demo-appkey', modules: ['im'] }); // throws: disconnect first
 */
export function getInstance(options: ClientOptions): ParleyClient {
  const status = shared?.getConnectionStatus();
  if (status !== undefined && status !== 'disconnected' && status !== 'connect_failed') {
    throw ParleyError.badRequest('initFailed');
  }
  shared = createClient(options);
  return shared;
}

/**
 * Creates a client. Throws a 400 {@link ParleyError} for bad options, with the reference's messages.
 *
 * @example
 * const client = createClient({ host: 'localhost:3000', appkey: 'demo-appkey', modules: ['im'] });
 * await client.connect({ id: 'alice', data: { name: 'Alice' }, otp });
 */
export function createClient(options: ClientOptions): ParleyClient {
  if (typeof options !== 'object' || options === null) throw ParleyError.badRequest('hostEmpty');
  const hostList = options.hosts ?? (options.host === undefined ? [] : [options.host]);
  if (!Array.isArray(hostList) || hostList.length === 0) throw ParleyError.badRequest('hostEmpty');
  if (typeof options.appkey !== 'string' || options.appkey.trim() === '') throw ParleyError.badRequest('appkeyEmpty');
  const modules = parseModules(options.modules);
  const o = { ...clientDefaults, ...stripUndefined(options) };
  const urls = normaliseHosts(hostList, o.forceTLS);
  const connection = new Connection({
    appkey: options.appkey,
    modules,
    hosts: new HostRotation(urls, o.random),
    transport: o.transport,
    timers: o.timers,
    random: o.random,
    online: o.online,
    backoff: { ...defaultBackoff, ...options.backoff },
    connectTimeout: o.connectTimeout,
    logger: o.logger,
    sdk: SDK,
  });
  const events = connection.events;
  const im = modules.includes('im')
    ? new Im(connection, () => o.timers.now(), { uploadHttp: o.uploadHttp, timers: o.timers })
    : undefined;
  const pubsub = modules.includes('pubsub') ? new Pubsub(connection) : undefined;
  connection.pushes.on(SERVER_PUSHES.userEvent, (payload) => {
    const push = check(userEventPushSchema, payload);
    if (!push.ok) return o.logger.warn('dropped a malformed user event', { content: push.content });
    events.emit('userEvent', { name: push.value.name, data: push.value.data ?? null, time: push.value.time });
  });

  return {
    async connect(input = {}) {
      if (connection.status !== 'disconnected' && connection.status !== 'connect_failed') {
        throw new ParleyError(CODES.TIMEOUT, MESSAGES.alreadyConnected);
      }
      const valid = validateConnectInput(input, modules);
      const onProgress = typeof input.onProgress === 'function' ? input.onProgress : undefined;
      const stop = onProgress ? events.on('connecting', ({ attempts }) => onProgress(attempts)) : undefined;
      try {
        await connection.connect(valid);
      } finally {
        stop?.();
      }
    },
    async ping() {
      const started = o.timers.now();
      const ack = await connection.requests.send({ event: CLIENT_EVENTS.ping, params: {}, kind: 'query' });
      const content = ack.content as { time?: unknown } | undefined;
      return { roundTripMs: o.timers.now() - started, serverTime: Number(content?.time) };
    },
    disconnect: () => connection.disconnect(),
    getConnectionStatus: () => connection.status,
    on: (event, listener) => events.on(event, listener),
    once: (event, listener) => events.once(event, listener),
    off: (event, listener) => events.off(event, listener),
    modules,
    get sid() {
      return connection.sid;
    },
    get permissions() {
      return connection.permissions;
    },
    get user() {
      return connection.input;
    },
    connection,
    get im(): Im {
      if (!im) throw ParleyError.badRequest('imNotEnabled');
      return im;
    },
    get pubsub(): Pubsub {
      if (!pubsub) throw ParleyError.badRequest('pubsubNotEnabled');
      return pubsub;
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
