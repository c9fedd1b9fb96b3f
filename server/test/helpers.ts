/**
 * Test fixtures: a server in-process on an ephemeral port, socket.io clients, temp dirs, and cleanup that runs
 * after each test in reverse order of creation.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach } from 'vitest';
import { loadConfig, type AppConfig, type ServerConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createParleyServer, type ParleyServer } from '../src/server.js';

/** An app that needs an otp for named users, with a subscribe-only key. */
export const SECURE_APP: AppConfig = {
  appkey: 'secure-appkey',
  subscribeKey: 'secure-subscribe-key',
  secretKey: 'secure-secret',
  name: 'secure',
  requireOtp: true,
  requireAccessToken: false,
};

/** An app that takes any user id without an otp. */
export const OPEN_APP: AppConfig = {
  appkey: 'open-appkey',
  subscribeKey: 'open-subscribe-key',
  secretKey: 'open-secret',
  name: 'open',
  requireOtp: false,
  requireAccessToken: false,
};

/** An open app whose groups, channels and teams are private: they need access tokens (IM-21, PUB-15, CS-15). */
export const TOKEN_APP: AppConfig = {
  appkey: 'token-appkey',
  secretKey: 'token-secret',
  name: 'token',
  requireOtp: false,
  requireAccessToken: true,
};

const cleanups: Array<() => unknown> = [];

afterEach(async () => {
  const errors: unknown[] = [];
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()?.();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
});

/** Runs `fn` after the current test, before anything registered earlier. */
export function defer(fn: () => unknown): void {
  cleanups.push(fn);
}

/** A temp dir removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The time of a SigV4 date, `YYYYMMDDTHHMMSSZ`, in ms: what a stand-in S3 needs to check a request's signature. */
export function fromAmzDate(date: string): number {
  const part = (from: number, to: number) => Number(date.slice(from, to));
  return Date.UTC(part(0, 4), part(4, 6) - 1, part(6, 8), part(9, 11), part(11, 13), part(13, 15));
}

/** Config for tests: 127.0.0.1, an ephemeral port, in-memory SQLite, no built app, the two test apps. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    sqlite: ':memory:',
    appDir: join(tmpdir(), 'parley-no-such-app-dir'),
    apps: [SECURE_APP, OPEN_APP],
    logLevel: 'silent',
    // Tests talk only to loopback: the weather's and the epidemic page's outside providers are off unless a test
    // names its own.
    weather: { forecastUrl: '', geocodingUrl: '' },
    epidemic: { url: '' },
    ...overrides,
  };
}

/** A started server and its address. */
export interface StartedServer {
  server: ParleyServer;
  url: string;
  port: number;
}

/** Starts a server (closed after the test). */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  options: { now?: () => number; customerService?: boolean } = {},
): Promise<StartedServer> {
  const server = createParleyServer(testConfig(overrides), { logger: silentLogger(), ...options });
  defer(() => server.close());
  const { url, port } = await server.listen();
  return { server, url, port };
}

/** A connected socket.io v4 client over websocket, without reconnection (closed after the test). */
export async function connect(url: string): Promise<ClientSocket> {
  const socket = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  defer(() => socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Emits a request and resolves with its ack. */
export function request(socket: ClientSocket, event: string, params?: unknown): Promise<Record<string, unknown>> {
  return socket.timeout(5000).emitWithAck(event, params) as Promise<Record<string, unknown>>;
}

/** An authorize request with sensible defaults for `OPEN_APP`. */
export function authorizeParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appkey: OPEN_APP.appkey,
    userId: 'alice',
    userData: '{"name":"Alice"}',
    otp: null,
    artifactVersion: '0.1.0',
    sid: null,
    wxmpId: null,
    mP: { GIM: null },
    a: false,
    c: { n: 'test', v: '0.1.0' },
    ...overrides,
  };
}

/** Resolves once the server has handled the next disconnect and finished the session writes it started. */
export function nextServerDisconnect(server: ParleyServer): Promise<void> {
  return new Promise((resolve) => {
    server.io.once('connection', (socket) => {
      // The gateway's own disconnect listener was added first, so its session write is already under way here.
      socket.once('disconnect', () => {
        void server.gateway.drain().then(resolve);
      });
    });
  });
}

/** A PostgreSQL schema of its own for one test on the server at `url`, dropped after the test. */
export function freshPgSchema(url: string): string {
  const schema = `parley_test_${randomBytes(6).toString('hex')}`;
  defer(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`).finally(() => client.end());
  });
  return schema;
}

/**
 * The stores a server test runs on, for `describe.each`: embedded SQLite always, PostgreSQL when `PARLEY_TEST_PG`
 * names one (each test on a schema of its own). Each entry's function gives the config that selects the store.
 */
export function storesUnderTest(): Array<[name: string, store: () => Partial<ServerConfig>]> {
  const pgUrl = process.env['PARLEY_TEST_PG'];
  const stores: Array<[string, () => Partial<ServerConfig>]> = [['SQLite', () => ({})]];
  if (pgUrl) stores.push(['PostgreSQL', () => ({ databaseUrl: pgUrl, databaseSchema: freshPgSchema(pgUrl) })]);
  return stores;
}
