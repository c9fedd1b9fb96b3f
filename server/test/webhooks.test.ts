import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type AppConfig, type ServerConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { createParleyServer } from '../src/server.js';
import { createWebhooks, webhookSignature, WEBHOOK_LIMITS } from '../src/webhooks.js';
import { OPEN_APP, defer, tempDir, testConfig } from './helpers.js';
import { accept, agentSays, csPublishParams, customerSays, goOnline } from './cs-support.js';
import { content, leave, login, send, settled } from './im-support.js';
import { eventually } from './pubsub-support.js';
import { redisPrefix, redisUrl } from './redis-support.js';

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

/** A server whose open app posts its events to `webhookUrl`, trying again after 20 ms. */
async function serverWith(webhookUrl: string, app: Partial<AppConfig> = {}) {
  return (await startWith(webhookUrl, app)).url;
}

async function startWith(webhookUrl: string, app: Partial<AppConfig> = {}, config: Partial<ServerConfig> = {}) {
  const server = createParleyServer(testConfig({ apps: [{ ...OPEN_APP, webhookUrl, ...app }], ...config }), {
    logger: silentLogger(),
    webhookRetryDelaysMs: [20, 20, 20],
  });
  defer(() => server.close());
  return { server, url: (await server.listen()).url };
}

/** The bodies posted so far, parsed. */
function bodies(posts: ReadonlyArray<{ body: string }>): Array<{ event: string; data: Record<string, unknown> }> {
  return posts.map((p) => JSON.parse(p.body) as { event: string; data: Record<string, unknown> });
}

/** The data of the deliveries of `event` posted so far. */
function dataOf(posts: ReadonlyArray<{ body: string }>, event: string): Array<Record<string, unknown>> {
  return bodies(posts)
    .filter((b) => b.event === event)
    .map((b) => b.data);
}

describe('webhooks (HOOK-1..HOOK-7)', () => {
  it('HOOK-1, HOOK-2: an app’s server hears of each message, signed with the app’s secret key', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url, { webhookEvents: ['im.message'] });
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
    const url = await serverWith(hook.url, { webhookEvents: ['im.message'] });
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

  it('HOOK-8: a delivery its app’s server did not answer before a restart is posted after it', async () => {
    const hook = await receiver([503]);
    const sqlite = join(tempDir(), 'parley.db');
    const start = async () => {
      const app = { ...OPEN_APP, webhookUrl: hook.url, webhookEvents: ['im.message' as const] };
      const server = createParleyServer(testConfig({ sqlite, apps: [app] }), {
        logger: silentLogger(),
        // The first attempt fails, and the next would come after the restart.
        webhookRetryDelaysMs: [60_000],
      });
      defer(() => server.close());
      return { server, url: (await server.listen()).url };
    };
    const first = await start();
    const alice = await login(first.url, 'alice');
    await send(alice, 'bob', { guid: 'kept-1' });
    await eventually(() => hook.posts.length === 1, 'the first attempt');
    await first.server.close();
    await start();
    await eventually(() => hook.posts.length === 2, 'the delivery after the restart');
    const [before, after] = hook.posts.map((p) => p.headers['x-parley-delivery']);
    expect(after).toBe(before);
    expect(JSON.parse(hook.posts[1]?.body ?? '')).toMatchObject({ event: 'im.message', data: { messageId: 'kept-1' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.posts).toHaveLength(2);
  });

  it('HOOK-4: an app’s server hears of recalls and read marks', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url);
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const first = await send(alice, 'bob', { guid: 'm-1' });
    const second = await send(alice, 'bob', { guid: 'm-2' });
    await content(bob, 'IM_MARK_AS_READ', { id: 'alice', scene: 'private', lastTimestamp: second });
    await content(alice, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'bob', times: [first, second] });
    // Recalled already: nothing new to tell.
    await content(alice, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'bob', times: [first] });
    await eventually(() => dataOf(hook.posts, 'im.recall').length === 1, 'the recall');
    expect(dataOf(hook.posts, 'im.read')).toEqual([
      { scene: 'private', readerId: 'bob', to: 'alice', timestamp: second },
    ]);
    expect(dataOf(hook.posts, 'im.recall')).toEqual([
      {
        scene: 'private',
        recallerId: 'alice',
        recallerData: { name: 'alice' },
        to: 'bob',
        messages: [
          { messageId: 'm-1', timestamp: first },
          { messageId: 'm-2', timestamp: second },
        ],
      },
    ]);
    await settled(alice, bob);
    expect(dataOf(hook.posts, 'im.recall')).toHaveLength(1);
  });

  it('HOOK-5: an app’s server hears of members joining and leaving groups', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url);
    const alice = await login(url, 'alice');
    await content(alice, 'subscribeGroups', { groupIds: ['g1', 'g2'] });
    // Joined already: nothing new to tell.
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await content(alice, 'unsubscribeGroup', { groupId: 'g2' });
    // Not a member: nothing to tell.
    await content(alice, 'unsubscribeGroup', { groupId: 'g9' });
    await eventually(() => dataOf(hook.posts, 'group.leave').length === 1, 'the leave');
    expect(dataOf(hook.posts, 'group.join')).toEqual([
      { userId: 'alice', userData: { name: 'alice' }, groupIds: ['g1', 'g2'] },
    ]);
    expect(dataOf(hook.posts, 'group.leave')).toEqual([
      { userId: 'alice', userData: { name: 'alice' }, groupIds: ['g2'] },
    ]);
  });

  it('HOOK-6: an app’s server hears of a user’s first connection and of their last one closing', async () => {
    const hook = await receiver();
    const { server, url } = await startWith(hook.url);
    const phone = await login(url, 'alice');
    const laptop = await login(url, 'alice');
    await leave(server, phone);
    await eventually(() => dataOf(hook.posts, 'user.online').length === 1, 'online');
    expect(dataOf(hook.posts, 'user.offline')).toEqual([]);
    await leave(server, laptop);
    await eventually(() => dataOf(hook.posts, 'user.offline').length === 1, 'offline');
    const [online] = dataOf(hook.posts, 'user.online');
    const [offline] = dataOf(hook.posts, 'user.offline');
    expect(online).toEqual({ userId: 'alice', userData: { name: 'alice' }, timestamp: expect.any(Number) });
    expect(offline).toEqual({ userId: 'alice', userData: { name: 'alice' }, timestamp: expect.any(Number) });
    expect(offline?.['timestamp']).toBeGreaterThanOrEqual(online?.['timestamp'] as number);
  });

  it('HOOK-7: an app’s server hears of customer-service messages and of sessions accepted, handed over and ended', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url);
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    const params = csPublishParams('team1', { guid: 'cs-1', p: JSON.stringify({ text: 'help' }) });
    const asked = await content<{ timestamp: number; sessionId: number }>(carol, 'publishIM', params);
    // Sent again after a lost ack: stored once, told once.
    await content(carol, 'publishIM', params);
    await accept(alice, 'team1', 'carol');
    expect(await agentSays(alice, 'team1', 'carol', 'on it')).toMatchObject({ code: 200 });
    await content(alice, 'CS_TRANSFER', { teamId: 'team1', customerId: 'carol', agentId: 'bob' });
    await content(bob, 'CS_END', { teamId: 'team1', customerId: 'carol' });
    // Sent again after a lost ack: the same end, told once.
    await content(bob, 'CS_END', { teamId: 'team1', customerId: 'carol' });
    await customerSays(carol, 'team1', 'one more thing');
    // Up to 8 deliveries are under way at once, so they may arrive in any order.
    const posted = (event: string) => dataOf(hook.posts, event).length;
    await eventually(
      () => posted('cs.message') === 3 && posted('cs.accept') + posted('cs.transfer') + posted('cs.end') === 3,
      'the messages and session events',
    );
    await settled(alice, bob, carol);
    const session = { teamId: 'team1', customerId: 'carol', sessionId: asked.sessionId };
    const [first, reply, later] = dataOf(hook.posts, 'cs.message');
    expect(first).toEqual({
      ...session,
      messageId: 'cs-1',
      timestamp: asked.timestamp,
      senderId: 'carol',
      senderData: { name: 'carol' },
      type: 'text',
      payload: { text: 'help' },
      accepted: false,
    });
    expect(reply).toMatchObject({ ...session, senderId: 'alice', payload: { text: 'on it' }, accepted: true });
    // The session ended: the next message opens another.
    expect(later).toMatchObject({ teamId: 'team1', customerId: 'carol', senderId: 'carol', accepted: false });
    expect(later?.['sessionId']).not.toBe(asked.sessionId);
    expect(dataOf(hook.posts, 'cs.accept')).toEqual([
      expect.objectContaining({ ...session, senderId: 'alice', senderData: { name: 'Alice' }, type: 'CS_ACCEPT' }),
    ]);
    expect(dataOf(hook.posts, 'cs.transfer')).toEqual([
      expect.objectContaining({ ...session, senderId: 'alice', type: 'CS_TRANSFER' }),
    ]);
    expect(dataOf(hook.posts, 'cs.end')).toEqual([
      expect.objectContaining({ ...session, senderId: 'bob', type: 'CS_END' }),
    ]);
  });

  it('HOOK-4: an app’s webhookEvents choose what its server hears of', async () => {
    const hook = await receiver();
    const url = await serverWith(hook.url, { webhookEvents: ['im.recall', 'user.offline'] });
    const alice = await login(url, 'alice');
    const ts = await send(alice, 'bob');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await content(alice, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'bob', times: [ts] });
    await eventually(() => hook.posts.length === 1, 'the recall');
    await settled(alice);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bodies(hook.posts).map((b) => b.event)).toEqual(['im.recall']);
  });

  it('reads an app’s webhookEvents: a non-empty list of known events', () => {
    const apps = (webhookEvents: unknown) =>
      JSON.stringify([{ appkey: 'k', secretKey: 's', webhookUrl: 'https://example.com/hooks', webhookEvents }]);
    expect(loadConfig({ PARLEY_APPS: apps(['im.message', 'user.online']) }).apps[0]?.webhookEvents).toEqual([
      'im.message',
      'user.online',
    ]);
    expect(loadConfig({ PARLEY_APPS: apps(undefined) }).apps[0]?.webhookEvents).toBeUndefined();
    expect(() => loadConfig({ PARLEY_APPS: apps([]) })).toThrow(/must be a list of events among im.message/);
    expect(() => loadConfig({ PARLEY_APPS: apps(['im.typing']) })).toThrow(/must name events among im.message/);
    expect(() => loadConfig({ PARLEY_APPS: apps('im.message') })).toThrow(ConfigError);
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

describe.runIf(Boolean(redisUrl))('webhooks over Redis (HOOK-6)', () => {
  it('a user connected to two nodes is told online once, and offline once their last connection closes', async () => {
    const hook = await receiver();
    const shared = { redisUrl, redisPrefix: redisPrefix() };
    const a = await startWith(hook.url, { webhookEvents: ['user.online', 'user.offline'] }, shared);
    const b = await startWith(hook.url, { webhookEvents: ['user.online', 'user.offline'] }, shared);
    const onA = await login(a.url, 'alice');
    const onB = await login(b.url, 'alice');
    await leave(a.server, onA);
    await eventually(() => hook.posts.length === 1, 'online');
    await leave(b.server, onB);
    await eventually(() => hook.posts.length === 2, 'offline');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bodies(hook.posts).map((body) => [body.event, body.data['userId']])).toEqual([
      ['user.online', 'alice'],
      ['user.offline', 'alice'],
    ]);
  });
});
