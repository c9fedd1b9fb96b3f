import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type AppConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createParleyServer } from '../src/server.js';
import { createWebhooks, webhookSignature, WEBHOOK_LIMITS } from '../src/webhooks.js';
import { OPEN_APP, defer, testConfig } from './helpers.js';
import { login, send } from './im-support.js';
import { eventually } from './pubsub-support.js';

/** An app's server on loopback: what it was posted, and the statuses it answers in turn (200 once they run out). */
async function receiver(statuses: number[] = []) {
  const posts: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      posts.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { posts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley` };
}

/** A server whose open app posts its messages to `webhookUrl`, trying again after 20 ms. */
async function serverWith(webhookUrl: string) {
  const app: AppConfig = { ...OPEN_APP, webhookUrl };
  const server = createParleyServer(testConfig({ apps: [app] }), {
    logger: silentLogger(),
    webhookRetryDelaysMs: [20, 20, 20],
  });
  defer(() => server.close());
  return (await server.listen()).url;
}

describe('webhooks (HOOK-1..HOOK-3)', () => {
  it('HOOK-1, HOOK-2: an app’s server hears of each message, signed with the app’s secret key', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url);
    const alice = await login(url, 'alice');
    await login(url, 'bob');
    const ts = await send(alice, 'bob', { guid: 'm-1', p: JSON.stringify({ text: 'hello' }) });
    // Sent again after a lost ack: stored once, told once.
    await send(alice, 'bob', { guid: 'm-1', p: JSON.stringify({ text: 'hello' }) });
    await eventually(() => hook.posts.length === 1, 'the delivery');
    const [post] = hook.posts;
    const body = JSON.parse(post?.body ?? '') as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'im.message',
      appkey: OPEN_APP.appkey,
      time: expect.any(Number),
      data: {
        scene: 'private',
        messageId: 'm-1',
        timestamp: ts,
        senderId: 'alice',
        senderData: { name: 'alice' },
        to: 'bob',
        type: 'text',
        payload: { text: 'hello' },
      },
    });
    const headers = post?.headers ?? {};
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-parley-event': 'im.message',
      'x-parley-delivery': body['id'],
    });
    const timestamp = String(headers['x-parley-timestamp']);
    expect(headers['x-parley-signature']).toBe(webhookSignature(OPEN_APP.secretKey, timestamp, post?.body ?? ''));
    expect(webhookSignature('another secret', timestamp, post?.body ?? '')).not.toBe(headers['x-parley-signature']);
  });

  it('HOOK-3: a delivery that fails is tried again, as the same delivery, until it is answered 2xx', async () => {
    const hook = await receiver([500, 503]);
    const url = await serverWith(hook.url);
    const alice = await login(url, 'alice');
    await send(alice, 'g1', { t: 'group' });
    await eventually(() => hook.posts.length === 3, 'three attempts');
    const ids = hook.posts.map((p) => p.headers['x-parley-delivery']);
    expect(new Set(ids).size).toBe(1);
    expect(JSON.parse(hook.posts[2]?.body ?? '')).toMatchObject({ data: { scene: 'group', to: 'g1' } });
    // No more once answered.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.posts).toHaveLength(3);
  });

  it('HOOK-3: gives up after the last wait, and drops what waits at close', async () => {
    const hook = await receiver([500, 500, 500, 500, 500, 500]);
    const warnings: string[] = [];
    const logger = { ...silentLogger(), warn: (_obj: unknown, msg: string) => void warnings.push(msg) };
    const webhooks = createWebhooks({ logger: logger as never, now: Date.now, retryDelaysMs: [10, 10] });
    const app: AppConfig = { ...OPEN_APP, webhookUrl: hook.url };
    webhooks.send(app, 'im.message', { n: 1 });
    await eventually(() => warnings.includes('a webhook delivery failed; given up'), 'giving up');
    expect(hook.posts).toHaveLength(3);
    // An app without a webhook is never posted for.
    webhooks.send(OPEN_APP, 'im.message', { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.posts).toHaveLength(3);
    // Past the deliveries under way at once, the rest wait; closing drops them.
    for (let i = 0; i < WEBHOOK_LIMITS.concurrency + 5; i++) webhooks.send(app, 'im.message', { n: i });
    await webhooks.close();
    expect(warnings).toContain('webhook deliveries left unsent at close');
    expect(hook.posts.length).toBeLessThanOrEqual(3 + WEBHOOK_LIMITS.concurrency);
  });

  it('reads an app’s webhookUrl: an http(s) URL', () => {
    const apps = (webhookUrl: unknown) => JSON.stringify([{ appkey: 'k', secretKey: 's', webhookUrl }]);
    expect(loadConfig({ PARLEY_APPS: apps('https://example.com/hooks') }).apps[0]?.webhookUrl).toBe(
      'https://example.com/hooks',
    );
    expect(() => loadConfig({ PARLEY_APPS: apps('ftp://example.com') })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_APPS: apps('not a url') })).toThrow(/must be an http\(s\) URL/);
  });
});
