/**
 * The official reference client (the `goeasy` npm package, a devDependency used only here) against a Parley
 * server started by the test. It needs a global WebSocket in Node (the `ws` package), and it puts a digit from 1
 * to 5 before the host name (`1localhost:3000`): a lookup hook in this test process resolves those names to
 * loopback, and Node 20 lacks the `navigator` a browser has. Tests of its upload path install the few browser
 * globals that path reads ({@link installUploadGlobals}) for themselves only. Nothing else is faked.
 *
 * Two probes, neither of which changes what the client or the server does: {@link referenceLink} cuts the
 * client's sockets as a lost network would (or first freezes them, for a link that dies before either side notices),
 * and {@link watchServerSockets} records what the server receives from and pushes to each socket, which shows what
 * the client's own de-duplication would hide from the app.
 */
import dns from 'node:dns';
import type { Socket } from 'socket.io';
import { WebSocket } from 'ws';
import { afterEach, onTestFinished } from 'vitest';
import type { ParleyServer } from '../../server/src/server.js';
import { NodeXMLHttpRequest, PngHeaderImage } from './browser-globals.js';

type LookupCallback = (...args: unknown[]) => void;
const originalLookup = dns.lookup.bind(dns) as (host: string, options: unknown, callback?: LookupCallback) => void;
(dns as unknown as { lookup: typeof originalLookup }).lookup = (host, options, callback) =>
  originalLookup(/^[1-5]localhost$/.test(host) ? 'localhost' : host, options, callback);

/** The reference client's open sockets, and whether its network is up. */
const link = { up: true, sockets: new Set<WebSocket>(), frozen: new WeakSet<WebSocket>() };

/**
 * The `ws` WebSocket, keeping the sockets the reference client opens so that {@link referenceLink} can cut them.
 * The client reads the global once, when it loads, so this is what it uses from the start.
 */
class ReferenceWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    // With the network down a new socket fails as an unreachable host does: error, then close, never open.
    if (!link.up) {
      this.terminate();
      return;
    }
    link.sockets.add(this);
    this.once('close', () => link.sockets.delete(this));
  }

  // A frozen socket's frames arrive and go nowhere: the client never sees them.
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'message' && link.frozen.has(this)) return false;
    return super.emit(event, ...args);
  }
}
(globalThis as { WebSocket?: unknown }).WebSocket = ReferenceWebSocket;

/** The reference client's network, for tests of a lost link. Restored after every test. */
export const referenceLink = {
  /** Drops every open socket without a closing handshake, and fails new ones until {@link restore}. */
  lose(): void {
    link.up = false;
    for (const socket of link.sockets) socket.terminate();
  },
  /**
   * The client's open sockets stop delivering what arrives, as a link that died without either side noticing yet:
   * what the server pushes from now on leaves the server and never reaches the client. {@link lose} then cuts them.
   */
  freeze(): void {
    for (const socket of link.sockets) link.frozen.add(socket);
  },
  /** Lets the client's next reconnect attempt through. */
  restore(): void {
    link.up = true;
  },
};
// The client picks its message builders by platform; Node 20 has no `navigator`, so it would take itself for a
// platform it has no builders for. A browser's `navigator` is the one global it needs.
if (typeof (globalThis as { navigator?: unknown }).navigator === 'undefined') {
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: 'Mozilla/5.0 (Node.js test)', product: 'Gecko', language: 'en-US' },
    configurable: true,
  });
}

/**
 * Installs, for the current test only, what the reference client's image upload reads from a browser: `window.URL`
 * (object URLs), `Image` (the size of a PNG) and `XMLHttpRequest` (the POST, with upload progress). `File` and
 * `FormData` are Node's own.
 */
export function installUploadGlobals(): void {
  const globals: Record<string, unknown> = {
    window: { URL },
    Image: PngHeaderImage,
    XMLHttpRequest: NodeXMLHttpRequest,
  };
  const before = Object.keys(globals).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  onTestFinished(() => {
    for (const [name, descriptor] of before) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  });
}

/** The reference client's static API, as far as these tests use it. */
export interface GoEasyStatic {
  getInstance(options: Record<string, unknown>): unknown;
  connect(options: Record<string, unknown>): void;
  disconnect(options: Record<string, unknown>): void;
  getConnectionStatus(): string;
  IM_EVENT: Record<string, string>;
  IM_SCENE: Record<string, string>;
  im: Record<string, (options?: Record<string, unknown>) => unknown> & {
    on(event: string, listener: (value: unknown) => void): void;
    off(event: string, listener: (value: unknown) => void): void;
  };
  pubsub: Record<string, (options: Record<string, unknown>) => unknown>;
}

const { default: GoEasy } = (await import('goeasy')) as unknown as { default: GoEasyStatic };
export { GoEasy };

/** A failure the reference client reported through `onFailed`. */
export class ReferenceFailure extends Error {
  constructor(readonly failure: { code?: unknown; content?: unknown }) {
    super(`reference client failed: ${JSON.stringify(failure)}`);
  }
}

/** Calls a reference method with `onSuccess`/`onFailed` and turns it into a promise. */
export function call<T = unknown>(
  method: (options: Record<string, unknown>) => unknown,
  options: Record<string, unknown> = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    method({
      ...options,
      onSuccess: (value: T) => resolve(value),
      onFailed: (failure: { code?: unknown; content?: unknown }) => reject(new ReferenceFailure(failure)),
    });
  });
}

/** Sets the reference client up for a server on `port` and connects it as `id`. */
export async function connectReference(
  port: number,
  appkey: string,
  user: { id: string; data?: Record<string, unknown>; otp?: string },
  modules: string[] = ['im', 'pubsub'],
): Promise<void> {
  GoEasy.getInstance({ host: `localhost:${port}`, appkey, modules, forceTLS: false });
  await call((o) => GoEasy.connect(o), { id: user.id, data: user.data ?? { name: user.id }, otp: user.otp });
}

afterEach(async () => {
  referenceLink.restore();
  if (GoEasy.getConnectionStatus() === 'disconnected') return;
  await call((o) => GoEasy.disconnect(o)).catch(() => undefined);
});

/** Waits for `check` to hold (within 5 s); `what` names the event or call awaited, for the failure. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One socket as the server sees it: what it received and pushed, in order. */
export interface ServerSideSocket {
  /** The user its latest `authorize` named. */
  userId: unknown;
  /** The `sid` its latest `authorize` carried: null on a first connect, the session's on a reconnect. */
  sid: unknown;
  /** Events from the client, pushes and plain emits alike (`ack`, `imAck`, ...). */
  readonly received: Array<{ event: string; params: Record<string, unknown> }>;
  /** Pushes to the client, JSON strings parsed. */
  readonly sent: Array<{ event: string; payload: Record<string, unknown> }>;
  /** Whether the server has seen it disconnect. */
  closed: boolean;
}

const asRecord = (value: unknown): Record<string, unknown> => {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
};

/** Records every socket that connects to `server` from now until the end of the test. */
export function watchServerSockets(server: ParleyServer): ServerSideSocket[] {
  const sockets: ServerSideSocket[] = [];
  const listener = (socket: Socket) => {
    const seen: ServerSideSocket = { userId: undefined, sid: undefined, received: [], sent: [], closed: false };
    sockets.push(seen);
    socket.onAny((event: string, params: unknown) => {
      const record = asRecord(params);
      if (event === 'authorize') Object.assign(seen, { userId: record.userId, sid: record.sid });
      seen.received.push({ event, params: record });
    });
    socket.onAnyOutgoing((event: string, payload: unknown) => seen.sent.push({ event, payload: asRecord(payload) }));
    socket.on('disconnect', () => (seen.closed = true));
  };
  server.io.on('connection', listener);
  onTestFinished(() => void server.io.off('connection', listener));
  return sockets;
}
