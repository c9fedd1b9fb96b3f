/** Helpers for SDK-against-server tests: users on the open test app, and waiting for events. */
import {
  createClient,
  type ConnectionStatus,
  type ImEvents,
  type ParleyClient,
  type Transport,
  type TransportHandlers,
} from '../../src/index.js';
import { io } from 'socket.io-client';
import { socketIoTransport } from '../../src/core/transport.js';
import { OPEN_APP, defer, freshPgSchema, startServer, storesUnderTest } from '../../server/test/helpers.js';
import { redisPrefix, redisUrl } from '../../server/test/redis-support.js';

/** A connected IM user of the open test app (no otp), disconnected after the test. */
export async function imUser(
  url: string,
  id: string,
  data: Record<string, unknown> = { name: id },
  transport?: Transport,
): Promise<ParleyClient> {
  const client = createClient({
    host: url,
    appkey: OPEN_APP.appkey,
    modules: ['im'],
    backoff: { initialDelay: 20, maxDelay: 100 },
    ...(transport ? { transport } : {}),
  });
  defer(() => client.disconnect());
  await client.connect({ id, data });
  return client;
}

/** Resolves with the next `event` of `client.im` that passes `accept` (within 5 s). */
export function nextIm<K extends keyof ImEvents & string>(
  client: ParleyClient,
  event: K,
  accept: (value: ImEvents[K]) => boolean = () => true,
): Promise<ImEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${event} within 5 s`));
    }, 5000);
    const off = client.im.on(event, (value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      off();
      resolve(value);
    });
  });
}

/** Collects every `event` of `client.im` from now on. */
export function collectIm<K extends keyof ImEvents & string>(client: ParleyClient, event: K): Array<ImEvents[K]> {
  const seen: Array<ImEvents[K]> = [];
  client.im.on(event, (value) => seen.push(value));
  return seen;
}

/** Resolves once the client reaches `status`. */
export function untilStatus(client: ParleyClient, status: ConnectionStatus): Promise<void> {
  return new Promise((resolve) => {
    if (client.getConnectionStatus() === status) return resolve();
    const off = client.on('connectionStatus', (change) => {
      if (change.status !== status) return;
      off();
      resolve();
    });
  });
}

/** Polls `check` until it returns true (within 5 s). */
export async function eventually(check: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The real socket.io transport with a switch in front of it, to cut one client off the server: `cut()` drops
 * its link and refuses new ones until `restore()`.
 */
export function switchableTransport(): { transport: Transport; cut(): void; restore(): void } {
  let blocked = false;
  const live = new Set<{ close(): void; handlers: TransportHandlers }>();
  const transport: Transport = (url, handlers) => {
    if (blocked) {
      queueMicrotask(() => handlers.onError(new Error('link cut by the test')));
      return { emit: () => undefined, close: () => undefined };
    }
    const socket = socketIoTransport(url, handlers);
    const entry = { close: () => socket.close(), handlers };
    live.add(entry);
    return {
      emit: (event, payload, ack) => socket.emit(event, payload, ack),
      close: () => {
        live.delete(entry);
        socket.close();
      },
    };
  };
  return {
    transport,
    cut() {
      blocked = true;
      for (const entry of [...live]) {
        live.delete(entry);
        entry.close();
        entry.handlers.onClose('link cut by the test');
      }
    },
    restore() {
      blocked = false;
    },
  };
}

/**
 * A socket.io transport whose link the test can lose (the server sees a lost link, not a goodbye) and then let
 * come back. With `node`, it connects there whatever the client's host list says, and `restore(other)` brings the
 * link back to another node.
 */
export function lossyTransport(node?: string): { transport: Transport; lose(): void; restore(node?: string): void } {
  let target = node;
  let blocked = false;
  const live = new Set<ReturnType<typeof io>>();
  const transport: Transport = (url: string, handlers: TransportHandlers) => {
    if (blocked) {
      queueMicrotask(() => handlers.onError(new Error('link lost by the test')));
      return { emit: () => undefined, close: () => undefined };
    }
    const socket = io(target ?? url, { transports: ['websocket'], reconnection: false, forceNew: true });
    live.add(socket);
    socket.on('connect', () => handlers.onOpen());
    socket.on('disconnect', (reason) => {
      live.delete(socket);
      handlers.onClose(reason);
    });
    socket.on('connect_error', (error) => handlers.onError(error));
    socket.onAny((event: string, payload: unknown) => handlers.onPush(event, payload));
    return {
      emit: (event, payload, ack) => (ack ? socket.emit(event, payload, ack) : socket.emit(event, payload)),
      close: () => {
        live.delete(socket);
        socket.removeAllListeners();
        socket.offAny();
        socket.disconnect();
      },
    };
  };
  return {
    transport,
    lose() {
      blocked = true;
      for (const socket of live) socket.io.engine.close();
    },
    restore(next?: string) {
      if (next !== undefined) target = next;
      blocked = false;
    },
  };
}

/**
 * Where a model test's clients connect: one node on each store under test, and, with `PARLEY_TEST_PG` and
 * `PARLEY_TEST_REDIS`, two nodes sharing both. Each setup starts its servers (with a rate limit no test reaches) and
 * gives the two nodes' URLs: the same one twice for one node.
 */
export function modelSetups(): Array<[name: string, start: () => Promise<[string, string]>]> {
  const rateLimit = { perSecond: 100_000, burst: 100_000 };
  const setups: Array<[string, () => Promise<[string, string]>]> = storesUnderTest().map(([name, store]) => [
    name,
    async () => {
      const { url } = await startServer({ rateLimit, ...store() });
      return [url, url];
    },
  ]);
  const pgUrl = process.env['PARLEY_TEST_PG'];
  if (pgUrl && redisUrl) {
    setups.push([
      'two nodes sharing PostgreSQL and Redis',
      async () => {
        const shared = { rateLimit, databaseUrl: pgUrl, databaseSchema: freshPgSchema(pgUrl), redisUrl };
        const prefixed = { ...shared, redisPrefix: redisPrefix() };
        // One after the other: the first migrates the schema.
        const a = await startServer(prefixed);
        const b = await startServer(prefixed);
        return [a.url, b.url];
      },
    ]);
  }
  return setups;
}
