import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createParleyServer } from '../src/server.js';
import { OPEN_APP, connect, defer, request, startServer, testConfig } from './helpers.js';
import { login, send, settled } from './im-support.js';
import { eventually, publishParams as pubsubPublish, rawUser, received } from './pubsub-support.js';

const TOKEN = 'metrics-token-0123456789';

/** Scrapes `url`'s metrics with `token`. */
async function scrape(url: string, token = TOKEN) {
  return fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
}

/** The value of the sample `name{labels}` in Prometheus' text, or undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

describe('metrics (METRICS-1..METRICS-5)', () => {
  it('METRICS-1: GET /metrics answers Prometheus text with the token, 401 without it, and nothing when unset', async () => {
    const { url } = await startServer({ metricsToken: TOKEN });
    const res = await scrape(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // Node's own, under the server's prefix.
    expect(sample(text, 'parley_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE parley_nodejs_eventloop_lag_p99_seconds gauge');
    for (const wrong of [await scrape(url, 'metrics-token-0123456788'), await fetch(`${url}/metrics`)]) {
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ code: 401, content: 'the metrics need the metrics token' });
    }
    const off = await startServer();
    expect((await scrape(off.url)).status).toBe(404);
  });

  it('METRICS-2: counts connections, users, requests by event and code, and pushes by event', async () => {
    const { url } = await startServer({ metricsToken: TOKEN });
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    await login(url, 'bob');
    await connect(url);
    await send(alice, 'bob');
    await send(alice, 'bob');
    expect(await request(alice, 'publishIM', { t: 'private', to: 'bob' })).toMatchObject({ code: 400 });
    await settled(alice, bob);
    const text = await (await scrape(url)).text();
    expect(sample(text, 'parley_socket_connections')).toBe(4);
    expect(sample(text, 'parley_socket_connections_authorized')).toBe(3);
    expect(sample(text, 'parley_users_connected')).toBe(2);
    expect(sample(text, 'parley_socket_requests_total', { event: 'authorize', code: '200' })).toBe(3);
    expect(sample(text, 'parley_socket_requests_total', { event: 'publishIM', code: '200' })).toBe(2);
    expect(sample(text, 'parley_socket_requests_total', { event: 'publishIM', code: '400' })).toBe(1);
    expect(sample(text, 'parley_socket_requests_total', { event: 'PARLEY_PING', code: '200' })).toBe(2);
    expect(sample(text, 'parley_socket_pushes_total', { event: 'imMessage' })).toBe(2);
  });

  it('METRICS-2: counts pub/sub deliveries among the pushes', async () => {
    const { url } = await startServer({ metricsToken: TOKEN });
    const reader = await rawUser(url, 'reader');
    const writer = await rawUser(url, 'writer');
    expect(await request(reader.socket, 'subscribe', { channels: ['news'] })).toMatchObject({ code: 200 });
    expect(await request(writer.socket, 'publish', pubsubPublish('news', 'hello'))).toMatchObject({ code: 200 });
    await eventually(() => received(reader, 'message').length === 1, 'the message');
    const text = await (await scrape(url)).text();
    expect(sample(text, 'parley_socket_pushes_total', { event: 'message' })).toBe(1);
    expect(sample(text, 'parley_socket_requests_total', { event: 'publish', code: '200' })).toBe(1);
  });

  it('METRICS-3: measures HTTP requests by method, route pattern and status', async () => {
    const { url } = await startServer({ metricsToken: TOKEN });
    await fetch(`${url}/health`);
    await fetch(`${url}/health`);
    await fetch(`${url}/no/such/path/123`);
    const text = await (await scrape(url)).text();
    const health = { method: 'GET', route: '/health', status: '200' };
    expect(sample(text, 'parley_http_request_duration_seconds_count', health)).toBe(2);
    expect(sample(text, 'parley_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(2);
    expect(
      sample(text, 'parley_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
  });

  it('METRICS-4: times the SQLite store’s batches of sends and counts what they stored', async () => {
    const { url } = await startServer({ metricsToken: TOKEN });
    const alice = await login(url, 'alice');
    await login(url, 'bob');
    for (let i = 0; i < 3; i++) await send(alice, 'bob');
    const text = await (await scrape(url)).text();
    expect(sample(text, 'parley_store_messages_total')).toBe(3);
    expect(sample(text, 'parley_store_step_seconds_count', { step: 'send_batch_store' })).toBe(3);
    expect(sample(text, 'parley_store_step_seconds_count', { step: 'send_batch_push' })).toBe(3);
    expect(sample(text, 'parley_store_step_seconds_count', { step: 'log_restart' })).toBeGreaterThanOrEqual(0);
  });

  it('METRICS-5: counts webhook attempts by result, deliveries by outcome, and what waits', async () => {
    // The app's server fails twice, then answers.
    const statuses = [500, 500];
    const hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(statuses.shift() ?? 200);
        res.end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    defer(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const webhookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`;
    const app = { ...OPEN_APP, webhookUrl, webhookEvents: ['im.message' as const] };
    // Two attempts in all: one wait.
    const server = createParleyServer(testConfig({ metricsToken: TOKEN, apps: [app] }), {
      logger: silentLogger(),
      webhookRetryDelaysMs: [10],
    });
    defer(() => server.close());
    const { url } = await server.listen();
    const counted = async (name: string, labels: Record<string, string>, value: number) => {
      for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
        if (sample(await (await scrape(url)).text(), name, labels) === value) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${name} ${JSON.stringify(labels)} never reached ${value}`);
    };
    const alice = await login(url, 'alice');
    const appkey = OPEN_APP.appkey;
    await send(alice, 'bob');
    await counted('parley_webhook_deliveries_total', { appkey, outcome: 'given_up' }, 1);
    await send(alice, 'bob');
    await counted('parley_webhook_deliveries_total', { appkey, outcome: 'answered' }, 1);
    const text = await (await scrape(url)).text();
    expect(sample(text, 'parley_webhook_attempts_total', { appkey, result: 'failed' })).toBe(2);
    expect(sample(text, 'parley_webhook_attempts_total', { appkey, result: 'ok' })).toBe(1);
    expect(sample(text, 'parley_webhook_deliveries_waiting')).toBe(0);
  });

  it('reads PARLEY_METRICS_TOKEN: at least 16 characters', () => {
    expect(loadConfig({ PARLEY_METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(/metricsToken \(from PARLEY_METRICS_TOKEN\)/);
  });
});
