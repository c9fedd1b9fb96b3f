import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { openStore, type Store, type StoredWebhookDelivery } from '../src/store/index.js';
import { createWebhooks, WEBHOOK_LIMITS, type WebhookKeeping, type Webhooks } from '../src/webhooks.js';
import { OPEN_APP, defer, freshPgSchema, tempDir } from './helpers.js';
import { eventually } from './pubsub-support.js';

const pgUrl = process.env['PARLEY_TEST_PG'];

/** The stores under test: SQLite in a file always, PostgreSQL (a schema of its own) when `PARLEY_TEST_PG` names one. */
const stores: Array<[string, () => Promise<Store>]> = [
  ['SQLite', () => opened({ sqlite: join(tempDir(), 'parley.db') })],
];
if (pgUrl) {
  stores.push(['PostgreSQL', () => opened({ databaseUrl: pgUrl, databaseSchema: freshPgSchema(pgUrl) })]);
}

async function opened(config: { sqlite?: string; databaseUrl?: string; databaseSchema?: string }): Promise<Store> {
  const store = await openStore({
    dataDir: tmpdir(),
    sqlite: config.sqlite,
    databaseUrl: config.databaseUrl,
    databaseSchema: config.databaseSchema,
  });
  defer(() => store.close());
  return store;
}

/** A kept delivery of the open app. */
function row(id: string, createdAt: number, owner: string | null, attempts = 0) {
  const body = JSON.stringify({ id, event: 'im.message', appkey: OPEN_APP.appkey, time: createdAt, data: { id } });
  return { id, appkey: OPEN_APP.appkey, body, attempts, owner, createdAt };
}

const ids = (rows: readonly StoredWebhookDelivery[]) => rows.map((r) => r.id);

describe.each(stores)('kept webhook deliveries on %s (HOOK-8)', (_name, open) => {
  it('takes, oldest first, what no node holds or what a gone node held, never what a live node holds', async () => {
    const store = await open();
    await store.webhookDeliveries.heartbeat('live', 2_000, 0);
    await store.webhookDeliveries.heartbeat('gone', 500, 0);
    await store.webhookDeliveries.write({
      added: [row('d3', 30, 'gone', 2), row('d1', 10, null), row('d2', 20, 'live'), row('d4', 40, 'never-seen')],
      tried: [],
      done: [],
    });
    const taken = await store.webhookDeliveries.claim('me', 1_000, 10);
    expect(ids(taken)).toEqual(['d1', 'd3', 'd4']);
    // The attempts another node made go with it.
    expect(taken.find((r) => r.id === 'd3')).toMatchObject({ attempts: 2, createdAt: 30 });
    expect(JSON.parse(taken[0]?.body ?? '')).toMatchObject({ id: 'd1', event: 'im.message' });
    // Taken is held: nobody takes it again while its node is alive.
    await store.webhookDeliveries.heartbeat('me', 2_000, 1_000);
    expect(await store.webhookDeliveries.claim('other', 1_000, 10)).toEqual([]);
    // Once the live node is past its time, what it held is anyone's.
    expect(ids(await store.webhookDeliveries.claim('other', 3_000, 10))).toEqual(['d1', 'd2', 'd3', 'd4']);
  });

  it('takes no more than asked; tried and done deliveries change as told; leaving lets go', async () => {
    const store = await open();
    const kept = store.webhookDeliveries;
    await kept.write({ added: [1, 2, 3, 4, 5].map((n) => row(`d${n}`, n, null)), tried: [], done: [] });
    await kept.heartbeat('me', 10_000, 0);
    await kept.heartbeat('other', 10_000, 0);
    expect(ids(await kept.claim('me', 100, 2))).toEqual(['d1', 'd2']);
    await kept.write({ added: [], tried: [{ id: 'd1', attempts: 3 }], done: ['d2'] });
    expect(ids(await kept.claim('other', 100, 10))).toEqual(['d3', 'd4', 'd5']);
    // Leaving lets go of everything the node held, and of its heartbeat; the other node keeps what it holds.
    await kept.leave('me');
    expect(await kept.claim('next', 100, 10)).toEqual([expect.objectContaining({ id: 'd1', attempts: 3 })]);
    // Written twice (a retried batch), a delivery is kept once, as it is.
    await kept.write({ added: [row('d1', 1, null)], tried: [], done: [] });
    await kept.leave('next');
    await kept.leave('other');
    expect(await kept.claim('last', 100, 10)).toEqual([
      expect.objectContaining({ id: 'd1', attempts: 3 }),
      expect.objectContaining({ id: 'd3' }),
      expect.objectContaining({ id: 'd4' }),
      expect.objectContaining({ id: 'd5' }),
    ]);
  });
});

describe('kept webhook deliveries’ heartbeats (HOOK-8)', () => {
  it('a heartbeat removes those of nodes gone by then', async () => {
    const file = join(tempDir(), 'parley.db');
    const store = await opened({ sqlite: file });
    await store.webhookDeliveries.heartbeat('gone', 500, 0);
    await store.webhookDeliveries.heartbeat('live', 5_000, 0);
    await store.webhookDeliveries.heartbeat('me', 5_000, 1_000);
    await store.close();
    const db = new BetterSqlite3(file, { readonly: true });
    const nodes = db.prepare('select node_id from webhook_nodes order by node_id').pluck().all();
    db.close();
    expect(nodes).toEqual(['live', 'me']);
  });
});

describe.runIf(Boolean(pgUrl))('kept webhook deliveries on PostgreSQL, two nodes at once (HOOK-8)', () => {
  it('two nodes taking at once never take the same delivery', async () => {
    const databaseSchema = freshPgSchema(pgUrl as string);
    const a = await opened({ databaseUrl: pgUrl, databaseSchema });
    const b = await opened({ databaseUrl: pgUrl, databaseSchema });
    // Both alive: what one takes, the other must leave.
    await a.webhookDeliveries.heartbeat('a', 10_000, 0);
    await a.webhookDeliveries.heartbeat('b', 10_000, 0);
    // The race is lost only when one node's take commits between the other's look and its lock: run it often.
    for (let round = 0; round < 12; round += 1) {
      const added = Array.from({ length: 40 }, (_, n) => row(`r${round}-${String(n).padStart(2, '0')}`, n, null));
      await a.webhookDeliveries.write({ added, tried: [], done: [] });
      const [fromA, fromB] = await Promise.all([
        a.webhookDeliveries.claim('a', 100, 25),
        b.webhookDeliveries.claim('b', 100, 25),
      ]);
      const all = [...ids(fromA), ...ids(fromB)];
      expect(new Set(all).size).toBe(all.length);
      expect(all).toHaveLength(40);
      await a.webhookDeliveries.write({ added: [], tried: [], done: all });
    }
  });
});

/** A webhook receiver standing in for `fetch`: what it was posted, answered with `answer`'s status. */
function receiver(answer: (body: { id: string }) => number | Promise<number>) {
  const posts: Array<{ id: string; delivery: string | null; body: Record<string, unknown> }> = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    // The sender posts its body as a string.
    const body = JSON.parse(init.body as string) as { id: string } & Record<string, unknown>;
    const headers = new Headers(init.headers);
    posts.push({ id: body.id, delivery: headers.get('x-parley-delivery'), body });
    return new Response(null, { status: await answer(body) });
  }) as typeof globalThis.fetch;
  return { posts, fetch };
}

const HOOKED: AppConfig = { ...OPEN_APP, webhookUrl: 'http://127.0.0.1:9/hooks' };

/** A node's sender keeping its deliveries in `store`, closed after the test. */
function node(
  store: Store,
  nodeId: string,
  fetch: typeof globalThis.fetch,
  options: { retryDelaysMs?: number[]; keeping?: Partial<WebhookKeeping>; now?: () => number } = {},
): Webhooks {
  const webhooks = createWebhooks({
    logger: silentLogger(),
    now: options.now ?? Date.now,
    fetch,
    retryDelaysMs: options.retryDelaysMs ?? [10, 10, 10],
    keeping: {
      store: store.webhookDeliveries,
      nodeId,
      appOf: (appkey) => (appkey === HOOKED.appkey ? HOOKED : undefined),
      ...options.keeping,
    },
  });
  defer(() => webhooks.close());
  return webhooks;
}

/** Whatever is still kept, taken by a node nobody else knows of. */
const stillKept = async (store: Store) => ids(await store.webhookDeliveries.claim('inspector', Date.now(), 100_000));

describe('webhook deliveries kept across a node’s restart (HOOK-8)', () => {
  it('a delivery left unanswered at close is sent by the next node to start, as the same delivery', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const down = receiver(() => 503);
    // The first node tries once, then would wait a minute: it closes before then.
    const first = node(store, 'first', down.fetch, { retryDelaysMs: [60_000] });
    await first.start();
    first.send(HOOKED, 'im.message', { n: 1 });
    await eventually(() => down.posts.length === 1, 'the first attempt');
    await first.close();
    const up = receiver(() => 200);
    const second = node(store, 'second', up.fetch);
    await second.start();
    await eventually(() => up.posts.length === 1, 'the delivery after the restart');
    expect(up.posts[0]?.id).toBe(down.posts[0]?.id);
    expect(up.posts[0]?.delivery).toBe(down.posts[0]?.id);
    expect(up.posts[0]?.body).toMatchObject({ event: 'im.message', appkey: HOOKED.appkey, data: { n: 1 } });
    // Answered: no longer kept, and a third start posts nothing.
    await second.close();
    expect(await stillKept(store)).toEqual([]);
  });

  it('a delivery taken over goes on from the attempts made, and is given up after the last', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const down = receiver(() => 500);
    const first = node(store, 'first', down.fetch, { retryDelaysMs: [10, 60_000] });
    await first.start();
    first.send(HOOKED, 'im.message', { n: 1 });
    await eventually(() => down.posts.length === 2, 'two attempts');
    await first.close();
    // Three waits in all, so four attempts: two are left.
    const second = node(store, 'second', down.fetch, { retryDelaysMs: [10, 10, 10] });
    await second.start();
    await eventually(() => down.posts.length === 4, 'the two attempts left');
    await second.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(down.posts).toHaveLength(4);
    expect(await stillKept(store)).toEqual([]);
  });

  it('answered deliveries are not kept, and nothing is posted twice across a restart', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const up = receiver(() => 200);
    const first = node(store, 'first', up.fetch);
    await first.start();
    for (let n = 0; n < 20; n++) first.send(HOOKED, 'im.message', { n });
    await eventually(() => up.posts.length === 20, 'twenty deliveries');
    await first.close();
    expect(await stillKept(store)).toEqual([]);
    const second = node(store, 'second', up.fetch);
    await second.start();
    await second.close();
    expect(up.posts).toHaveLength(20);
  });

  it('what a node that stopped without closing held is taken once its heartbeat is past', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    let now = 1_000_000;
    await store.webhookDeliveries.heartbeat('crashed', now + WEBHOOK_LIMITS.aliveMs, now);
    await store.webhookDeliveries.write({ added: [row('left-1', now, 'crashed', 1)], tried: [], done: [] });
    const up = receiver(() => 200);
    const next = node(store, 'next', up.fetch, { now: () => now, keeping: { sweepMs: 20 } });
    await next.start();
    // The crashed node still counts as alive: its delivery waits.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(up.posts).toHaveLength(0);
    now += WEBHOOK_LIMITS.aliveMs + 1;
    await eventually(() => up.posts.length === 1, 'the delivery taken over');
    expect(up.posts[0]?.id).toBe('left-1');
  });

  it('deliveries of an app no longer hooked are dropped, not posted', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const gone = { ...row('gone-app', 1, null), appkey: 'no-such-app' };
    await store.webhookDeliveries.write({ added: [gone, row('kept', 2, null)], tried: [], done: [] });
    const up = receiver(() => 200);
    const next = node(store, 'next', up.fetch);
    await next.start();
    await eventually(() => up.posts.length === 1, 'the hooked app’s delivery');
    await next.close();
    expect(up.posts.map((p) => p.id)).toEqual(['kept']);
    expect(await stillKept(store)).toEqual([]);
  });

  it('while a write to the store is under way, what follows is gathered into the next one', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const batches: number[] = [];
    // A slow database: each write takes 40 ms.
    const slowStore = {
      ...store,
      webhookDeliveries: {
        ...store.webhookDeliveries,
        async write(writes: Parameters<Store['webhookDeliveries']['write']>[0]) {
          await new Promise((resolve) => setTimeout(resolve, 40));
          await store.webhookDeliveries.write(writes);
          batches.push(writes.added.length);
        },
      },
    };
    const held: Array<() => void> = [];
    const hang = receiver(() => new Promise<number>((resolve) => held.push(() => resolve(500))));
    const webhooks = node(slowStore, 'slow', hang.fetch, { retryDelaysMs: [60_000] });
    defer(() => held.splice(0).forEach((answer) => answer()));
    await webhooks.start();
    // One delivery a turn, for twenty turns.
    for (let n = 0; n < 20; n++) {
      webhooks.send(HOOKED, 'im.message', { n });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(() => batches.reduce((a, b) => a + b, 0) === 20, 'all twenty written');
    expect(batches.length).toBeLessThan(5);
    // All of them kept (taken here as if the node had gone long ago).
    const kept = await store.webhookDeliveries.claim('inspector', Date.now() + 10 * WEBHOOK_LIMITS.aliveMs, 100);
    expect(kept).toHaveLength(20);
  });

  it('a sweep due while one is under way (a slow database) is skipped, not queued', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    let claims = 0;
    let release: (() => void) | undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    // The second claim hangs until released.
    const slowStore = {
      ...store,
      webhookDeliveries: {
        ...store.webhookDeliveries,
        async claim(...args: Parameters<Store['webhookDeliveries']['claim']>) {
          claims += 1;
          if (claims === 2) await stuck;
          return store.webhookDeliveries.claim(...args);
        },
      },
    };
    const webhooks = node(slowStore, 'slow', receiver(() => 200).fetch, { keeping: { sweepMs: 5 } });
    await webhooks.start();
    await eventually(() => claims === 2, 'the stuck sweep');
    // Twenty timer ticks pass while it hangs.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(claims).toBe(2);
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Ticks missed meanwhile are not run one after another: a few sweeps at most in those 20 ms.
    expect(claims).toBeLessThan(8);
  });

  it('past a node’s queue, deliveries wait in the store for any node with room, none dropped', async () => {
    const store = await opened({ sqlite: join(tempDir(), 'parley.db') });
    const answers: Array<() => void> = [];
    let holding = true;
    // The app's server holds every request until told to answer.
    const slow = receiver(() => (holding ? new Promise<number>((resolve) => answers.push(() => resolve(200))) : 200));
    const busy = node(store, 'busy', slow.fetch);
    // Before the node closes: it waits for the attempts under way.
    defer(() => {
      holding = false;
      for (const answer of answers.splice(0)) answer();
    });
    await busy.start();
    const extra = 3;
    for (let n = 0; n < WEBHOOK_LIMITS.concurrency + WEBHOOK_LIMITS.queueMax + extra; n++) {
      busy.send(HOOKED, 'im.message', { n });
    }
    await eventually(() => slow.posts.length === WEBHOOK_LIMITS.concurrency, 'the deliveries under way');
    // Another node takes the ones past the busy node's queue, and only those: the busy node holds the rest.
    const up = receiver(() => 200);
    const helper = node(store, 'helper', up.fetch, { keeping: { sweepMs: 20 } });
    await helper.start();
    await eventually(() => up.posts.length === extra, 'the deliveries past the queue');
    // Up to 8 are under way at once: they may arrive in any order.
    const posted = up.posts.map((p) => (p.body['data'] as { n: number }).n).sort((a, b) => a - b);
    expect(posted.map((n) => ({ n }))).toEqual([
      { n: WEBHOOK_LIMITS.concurrency + WEBHOOK_LIMITS.queueMax },
      { n: WEBHOOK_LIMITS.concurrency + WEBHOOK_LIMITS.queueMax + 1 },
      { n: WEBHOOK_LIMITS.concurrency + WEBHOOK_LIMITS.queueMax + 2 },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(up.posts).toHaveLength(extra);
  });
});
