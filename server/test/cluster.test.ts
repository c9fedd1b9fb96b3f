/**
 * Nodes sharing one Redis watch each other's heartbeats: a node silent for longer than the timeout is cleaned up
 * after by exactly one other node, and a node that finds it was taken for dead makes its clients connect again.
 * Time is a variable the test moves.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import { createClusterMembership, type ClusterMembership } from '../src/presence/cluster.js';
import { createRedisPresenceRegistry } from '../src/presence/redis-registry.js';
import { defer } from './helpers.js';
import { keysUnder, redisClient, redisPrefix, redisUrl } from './redis-support.js';

describe.runIf(Boolean(redisUrl))('cluster membership over Redis', () => {
  async function cluster() {
    const client = await redisClient();
    const prefix = redisPrefix();
    let time = 1_700_000_000_000;
    const gone: Array<[string, string]> = [];
    const revived: string[] = [];
    const node = (nodeId: string): ClusterMembership => {
      const membership = createClusterMembership({
        client,
        prefix,
        nodeId,
        now: () => time,
        timeoutMs: 30_000,
        logger: silentLogger(),
        onNodeGone: (dead) => {
          gone.push([nodeId, dead]);
          return Promise.resolve();
        },
        onRevived: () => revived.push(nodeId),
      });
      defer(() => membership.close());
      return membership;
    };
    return {
      client,
      prefix,
      node,
      gone,
      revived,
      advance: (ms: number) => {
        time += ms;
      },
    };
  }

  it('a node silent past the timeout is cleaned up after by one other node, once', async () => {
    const { node, gone, advance } = await cluster();
    const a = node('a');
    const b = node('b');
    const c = node('c');
    await Promise.all([a.beat(), b.beat(), c.beat()]);
    advance(20_000);
    await Promise.all([b.beat(), c.beat()]);
    expect(gone).toEqual([]);
    advance(15_000);
    await Promise.all([b.beat(), c.beat()]);
    expect(gone).toHaveLength(1);
    expect(gone[0]![1]).toBe('a');
    await Promise.all([b.beat(), c.beat()]);
    expect(gone).toHaveLength(1);
  });

  it('a node taken for dead that beats again has its clients connect again', async () => {
    const { node, gone, revived, advance } = await cluster();
    const a = node('a');
    const b = node('b');
    await a.beat();
    await b.beat();
    advance(31_000);
    await b.beat();
    expect(gone).toEqual([['b', 'a']]);
    expect(revived).toEqual([]);
    await a.beat();
    expect(revived).toEqual(['a']);
    await a.beat();
    expect(revived).toEqual(['a']);
  });

  it('after Redis lost its data, every node has its clients connect again', async () => {
    const { node, revived, client, prefix } = await cluster();
    const a = node('a');
    const b = node('b');
    await Promise.all([a.beat(), b.beat()]);
    await client.del(`${prefix}nodes`);
    await Promise.all([a.beat(), b.beat()]);
    expect(revived.sort()).toEqual(['a', 'b']);
  });

  it('a node that closes cleans up after itself and leaves the set', async () => {
    const { node, gone, client, prefix, advance } = await cluster();
    const a = node('a');
    const b = node('b');
    await a.beat();
    await b.beat();
    await a.close();
    expect(gone).toEqual([['a', 'a']]);
    advance(60_000);
    await b.beat();
    expect(gone).toEqual([['a', 'a']]);
    expect(await client.zRange(`${prefix}nodes`, 0, -1)).toEqual(['b']);
  });

  it('PRES-1: the users of a node that died go offline through the node that cleans up', async () => {
    const client = await redisClient();
    const prefix = redisPrefix();
    let time = 1_700_000_000_000;
    const registry = (nodeId: string) => createRedisPresenceRegistry({ client, prefix, nodeId });
    const offline: string[] = [];
    const member = (nodeId: string) => {
      const membership = createClusterMembership({
        client,
        prefix,
        nodeId,
        now: () => time,
        logger: silentLogger(),
        onNodeGone: async (dead) => {
          for (const user of await registry(nodeId).forgetNode(dead)) offline.push(user.userId);
        },
        onRevived: () => undefined,
      });
      defer(() => membership.close());
      return membership;
    };
    const a = member('a');
    const b = member('b');
    await registry('a').connected('app', 'alice', 'c1');
    await registry('b').connected('app', 'bob', 'c2');
    await a.beat();
    await b.beat();
    time += 31_000;
    await b.beat();
    expect(offline).toEqual(['alice']);
    expect(await registry('b').online('app', ['alice', 'bob'])).toEqual(['bob']);
    expect((await keysUnder(client, prefix)).filter((k) => k.includes('node:a:'))).toEqual([]);
  });
});
