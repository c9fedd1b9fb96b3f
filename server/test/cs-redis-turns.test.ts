import { describe, expect, it } from 'vitest';
import { redisCsTurns } from '../src/cs/redis-turns.js';
import type { CsTurns } from '../src/cs/sessions.js';
import { silentLogger } from '../src/logger.js';
import type { RedisClient } from '../src/presence/redis.js';
import { MESSAGES } from '../src/protocol.js';
import { freshPgSchema, request, startServer } from './helpers.js';
import { collect, content, login, next } from './im-support.js';
import { csPublishParams, customerSays, expectFailure, goOnline, type WireCs } from './cs-support.js';
import { keysUnder, redisClient, redisPrefix, redisUrl } from './redis-support.js';

const pgUrl = process.env['PARLEY_TEST_PG'];
const key = { appkey: 'app', teamId: 'team1', customerId: 'carol' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `count` tasks on each of `nodes` at once; resolves with the most tasks that were ever inside at one time. */
async function mostAtOnce(nodes: CsTurns[], count: number, taskKey = key): Promise<number> {
  let inside = 0;
  let most = 0;
  const task = async () => {
    inside += 1;
    most = Math.max(most, inside);
    await pause(5);
    inside -= 1;
  };
  await Promise.all(nodes.flatMap((turns) => Array.from({ length: count }, () => turns(taskKey, task))));
  return most;
}

describe('redisCsTurns without Redis', () => {
  it('CS-17: runs a node tasks in its own order when Redis is not connected', async () => {
    const turns = redisCsTurns({
      client: { isReady: false } as unknown as RedisClient,
      prefix: 'p:',
      logger: silentLogger(),
    });
    expect(await mostAtOnce([turns], 5)).toBe(1);
  });
});

describe.runIf(Boolean(redisUrl))('redisCsTurns', () => {
  const node = async (prefix: string, leaseMs?: number) =>
    redisCsTurns({ client: await redisClient(), prefix, logger: silentLogger(), ...(leaseMs && { leaseMs }) });

  it('CS-17: one conversation runs on one node at a time; other conversations do not wait', async () => {
    const prefix = redisPrefix();
    const nodes = [await node(prefix), await node(prefix)];
    expect(await mostAtOnce(nodes, 5)).toBe(1);
    // Another conversation on the other node runs beside a held one.
    let release: () => void = () => undefined;
    const held = nodes[0]?.(key, () => new Promise<void>((resolve) => (release = resolve)));
    await pause(20);
    const other = await nodes[1]?.({ ...key, customerId: 'dave' }, () => Promise.resolve('ran'));
    expect(other).toBe('ran');
    release();
    await held;
    // Every lease is given back.
    expect(await keysUnder(await redisClient(), prefix)).toEqual([]);
  });

  it('CS-17: a lease left by a node that stopped runs out, and the next node then takes the turn', async () => {
    const prefix = redisPrefix();
    const client = await redisClient();
    const turns = await node(prefix, 300);
    // Take the conversation's lease as a node that never gives it back would.
    let stuck: string | undefined;
    const grab = redisCsTurns({ client, prefix, logger: silentLogger(), leaseMs: 300 });
    await grab(key, async () => {
      [stuck] = await keysUnder(client, prefix);
    });
    expect(stuck).toBeDefined();
    await client.set(stuck as string, 'a stopped node', { expiration: { type: 'PX', value: 300 } });
    const started = performance.now();
    expect(await turns(key, () => Promise.resolve('mine'))).toBe('mine');
    expect(performance.now() - started).toBeGreaterThan(200);
  });
});

describe.runIf(Boolean(redisUrl) && Boolean(pgUrl))('CS across two nodes', () => {
  /** Two nodes on one store and one Redis; on one still clock, so that a timestamp follows only from the store's. */
  async function twoNodes() {
    const shared = {
      databaseUrl: pgUrl,
      databaseSchema: freshPgSchema(pgUrl as string),
      redisUrl,
      redisPrefix: redisPrefix(),
    };
    const clock = { now: () => 1_800_000_000_000 };
    const a = await startServer(shared, clock);
    const b = await startServer(shared, clock);
    return [a.url, b.url] as const;
  }

  it('CS-17: two agents on two nodes accepting one customer at once: one gets the customer', async () => {
    const [a, b] = await twoNodes();
    const alice = await login(a, 'alice');
    const bob = await login(b, 'bob');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    for (let round = 0; round < 5; round++) {
      const customer = await login(round % 2 === 0 ? a : b, `carol${round}`);
      await customerSays(customer, 'team1');
      const params = { teamId: 'team1', customer: { id: `carol${round}`, data: JSON.stringify({ name: 'Carol' }) } };
      const answers = await Promise.all([request(alice, 'CS_ACCEPT', params), request(bob, 'CS_ACCEPT', params)]);
      expect(answers.filter((answer) => answer['code'] === 200)).toHaveLength(1);
      const refused = answers.find((answer) => answer['code'] !== 200) as Record<string, unknown>;
      expectFailure(refused, 400, MESSAGES.csAcceptedByOther);
    }
  });

  it('CS-17: a customer writing through two nodes at once gets a new, increasing timestamp for each message', async () => {
    const [a, b] = await twoNodes();
    const agent = await login(a, 'alice');
    await goOnline(agent, 'team1', 'Alice');
    const here = await login(a, 'carol');
    const there = await login(b, 'carol');
    const sends = Array.from({ length: 20 }, (_, i) =>
      content<{ timestamp: number }>(
        i % 2 === 0 ? here : there,
        'publishIM',
        csPublishParams('team1', { p: JSON.stringify({ text: `m${i}` }) }),
      ),
    );
    const stamps = (await Promise.all(sends)).map((ack) => ack.timestamp);
    expect(new Set(stamps).size).toBe(stamps.length);
    const page = await content<{ messages: Array<{ ts: number }> }>(here, 'IM_HISTORY', {
      id: 'team1',
      scene: 'cs',
      teamId: 'team1',
      limit: 30,
    });
    const times = page.messages.map((m) => m.ts);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(times).toEqual(expect.arrayContaining(stamps));
  });

  it('CS-11: a live session on one node hears the customer messages handled on the other, until it quits', async () => {
    const [a, b] = await twoNodes();
    const alice = await login(a, 'alice');
    const bob = await login(b, 'bob');
    const carol = await login(a, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    await customerSays(carol, 'team1');
    await content(alice, 'CS_ACCEPT', {
      teamId: 'team1',
      customer: { id: 'carol', data: JSON.stringify({ name: 'Carol' }) },
    });
    const ref = { teamId: 'team1', customerId: 'carol' };
    await content(bob, 'CS_LIVE_SESSION', ref);
    const heard = next<WireCs>(bob, 'imMessage');
    await customerSays(carol, 'team1', 'one');
    expect(JSON.parse((await heard).p)).toEqual({ text: 'one' });
    await content(bob, 'CS_QUIT_LIVE', ref);
    const bobGot = collect<WireCs>(bob, 'imMessage');
    const aliceHeard = next<WireCs>(alice, 'imMessage');
    await customerSays(carol, 'team1', 'two');
    // Alice, on the customer's node, hears it first; a push to Bob would be on its way by then.
    expect(JSON.parse((await aliceHeard).p)).toEqual({ text: 'two' });
    await pause(200);
    expect(bobGot).toEqual([]);
  });
});
