/**
 * The presence registry contract (PRES-1, PRES-3), run against the memory registry and, when PARLEY_TEST_REDIS is
 * set, the Redis one; then what only several nodes sharing Redis can show: agreement on first and last
 * connections, and cleanup after a node that died.
 */
import { describe, expect, it } from 'vitest';
import { createRedisPresenceRegistry } from '../src/presence/redis-registry.js';
import { createMemoryPresenceRegistry, type PresenceRegistry } from '../src/presence/registry.js';
import { redisClient, redisPrefix, redisUrl } from './redis-support.js';

/** Opens registries for one test: `node(id)` is the registry of node `id`; all of one test share their state. */
type RegistryFactory = () => Promise<{ node(nodeId: string): PresenceRegistry }>;

function describeRegistryContract(name: string, open: RegistryFactory, enabled = true): void {
  describe.runIf(enabled)(`presence registry contract: ${name}`, () => {
    it('PRES-1: the first connection brings a user online, the end of the last takes them offline', async () => {
      const registry = (await open()).node('n1');
      expect(await registry.connected('app', 'alice', 'c1')).toBe(true);
      expect(await registry.connected('app', 'alice', 'c2')).toBe(false);
      // PRES-3: a repeated connect of one connection, or the end of a connection that is not the last, says nothing.
      expect(await registry.connected('app', 'alice', 'c2')).toBe(false);
      expect(await registry.disconnected('app', 'alice', 'c1')).toBe(false);
      expect(await registry.online('app', ['alice'])).toEqual(['alice']);
      expect(await registry.disconnected('app', 'alice', 'c2')).toBe(true);
      expect(await registry.disconnected('app', 'alice', 'c2')).toBe(false);
      expect(await registry.online('app', ['alice'])).toEqual([]);
      expect(await registry.disconnected('app', 'nobody', 'c9')).toBe(false);
    });

    it('PRES-5: online answers in the order asked, per app', async () => {
      const registry = (await open()).node('n1');
      await registry.connected('app', 'bob', 'c1');
      await registry.connected('app', 'alice', 'c2');
      await registry.connected('other', 'carol', 'c3');
      expect(await registry.online('app', ['carol', 'alice', 'dave', 'bob'])).toEqual(['alice', 'bob']);
      expect(await registry.online('other', ['alice', 'carol'])).toEqual(['carol']);
      expect(await registry.online('app', [])).toEqual([]);
    });

    it('keeps apps and users apart even when their ids hold the separator', async () => {
      const registry = (await open()).node('n1');
      expect(await registry.connected('a:b', 'c', 'c1')).toBe(true);
      expect(await registry.connected('a', 'b:c', 'c2')).toBe(true);
      expect(await registry.online('a', ['b:c', 'c'])).toEqual(['b:c']);
      expect(await registry.disconnected('a:b', 'c', 'c1')).toBe(true);
      expect(await registry.online('a', ['b:c'])).toEqual(['b:c']);
    });
  });
}

describeRegistryContract('memory', () => {
  const shared = createMemoryPresenceRegistry();
  return Promise.resolve({ node: () => shared });
});

describeRegistryContract(
  'Redis',
  async () => {
    const client = await redisClient();
    const prefix = redisPrefix();
    return { node: (nodeId) => createRedisPresenceRegistry({ client, prefix, nodeId }) };
  },
  Boolean(redisUrl),
);

describe('memory presence registry', () => {
  it('has no other node to clean up after', async () => {
    const registry = createMemoryPresenceRegistry();
    await registry.connected('app', 'alice', 'c1');
    expect(await registry.forgetNode('any')).toEqual([]);
    expect(await registry.online('app', ['alice'])).toEqual(['alice']);
  });
});

describe.runIf(Boolean(redisUrl))('Redis presence registry across nodes', () => {
  async function twoNodes() {
    const client = await redisClient();
    const prefix = redisPrefix();
    return {
      a: createRedisPresenceRegistry({ client, prefix, nodeId: 'node-a' }),
      b: createRedisPresenceRegistry({ client, prefix, nodeId: 'node-b' }),
    };
  }

  it("PRES-1: nodes agree on a user's first and last connection, wherever each connection is", async () => {
    const { a, b } = await twoNodes();
    expect(await a.connected('app', 'alice', 'c1')).toBe(true);
    expect(await b.connected('app', 'alice', 'c2')).toBe(false);
    expect(await b.online('app', ['alice'])).toEqual(['alice']);
    expect(await a.disconnected('app', 'alice', 'c1')).toBe(false);
    expect(await a.online('app', ['alice'])).toEqual(['alice']);
    expect(await b.disconnected('app', 'alice', 'c2')).toBe(true);
    expect(await a.online('app', ['alice'])).toEqual([]);
  });

  it('PRES-1: of many connections racing on two nodes exactly one is first and exactly one is last', async () => {
    const { a, b } = await twoNodes();
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const on = (i: number) => (i % 2 === 0 ? a : b);
    const firsts = await Promise.all(ids.map((id, i) => on(i).connected('app', 'alice', id)));
    expect(firsts.filter(Boolean)).toHaveLength(1);
    const lasts = await Promise.all(ids.map((id, i) => on(i).disconnected('app', 'alice', id)));
    expect(lasts.filter(Boolean)).toHaveLength(1);
    expect(await a.online('app', ['alice'])).toEqual([]);
  });

  it('forgets the connections of a node that died: its users with no other connection go offline, once', async () => {
    const { a, b } = await twoNodes();
    await a.connected('app', 'alice', 'a1');
    await a.connected('app', 'bob', 'a2');
    await b.connected('app', 'bob', 'b1');
    await a.connected('other', 'alice', 'a3');
    const gone = await b.forgetNode('node-a');
    expect(gone.sort((x, y) => x.appkey.localeCompare(y.appkey))).toEqual([
      { appkey: 'app', userId: 'alice' },
      { appkey: 'other', userId: 'alice' },
    ]);
    expect(await b.online('app', ['alice', 'bob'])).toEqual(['bob']);
    expect(await b.forgetNode('node-a')).toEqual([]);
    // Bob's connection on the live node still counts: its end is his last.
    expect(await b.disconnected('app', 'bob', 'b1')).toBe(true);
  });

  it('a connection that ends on its own node leaves nothing for a later cleanup of that node', async () => {
    const { a, b } = await twoNodes();
    await a.connected('app', 'alice', 'a1');
    await a.disconnected('app', 'alice', 'a1');
    await b.connected('app', 'alice', 'b1');
    expect(await b.forgetNode('node-a')).toEqual([]);
    expect(await b.online('app', ['alice'])).toEqual(['alice']);
  });
});
