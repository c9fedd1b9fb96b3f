/**
 * The channel presence contract (PUB-12, PUB-13, PUB-14), run against the memory implementation and, when
 * PARLEY_TEST_REDIS is set, the Redis one; then what only several nodes sharing Redis can show.
 */
import { describe, expect, it } from 'vitest';
import { MemoryChannelPresence, type ChannelPresence, type PresenceEntry } from '../src/pubsub/presence.js';
import { createRedisChannelPresence } from '../src/pubsub/redis-presence.js';
import { redisClient, redisPrefix, redisUrl } from './redis-support.js';

const BACK_WITHIN_MS = 600_000;
const T0 = 1_700_000_000_000;

/** `node(id)` is the channel presence of node `id`; all of one test share their state. */
type PresenceFactory = () => Promise<{ node(nodeId: string): ChannelPresence }>;

const entry = (sid: string, connectionId = `${sid}-c`): PresenceEntry => ({ sid, connectionId });

function describePresenceContract(name: string, open: PresenceFactory, enabled = true): void {
  describe.runIf(enabled)(`channel presence contract: ${name}`, () => {
    it('PUB-12 PUB-13: join, leave, timeout and back, each with the amount after it', async () => {
      const presence = (await open()).node('n1');
      const at = { appkey: 'app', channel: 'room' };
      const alice = { id: 'alice', data: { name: 'Alice' } };
      const bob = { id: 'bob', data: {} };
      expect(await presence.enter({ ...at, member: alice, entry: entry('s1'), now: T0 })).toEqual({
        action: 'join',
        member: alice,
        amount: 1,
      });
      expect(await presence.enter({ ...at, member: bob, entry: entry('s2'), now: T0 })).toMatchObject({
        action: 'join',
        amount: 2,
      });
      expect(await presence.exit({ ...at, userId: 'alice', entry: entry('s1'), how: 'leave', now: T0 })).toEqual({
        action: 'leave',
        member: alice,
        amount: 1,
      });
      expect(await presence.exit({ ...at, userId: 'bob', entry: entry('s2'), how: 'timeout', now: T0 + 1 })).toEqual({
        action: 'timeout',
        member: bob,
        amount: 0,
      });
      const back = await presence.enter({ ...at, member: bob, entry: entry('s2', 'again'), now: T0 + 2 });
      expect(back).toEqual({ action: 'back', member: bob, amount: 1 });
      // Leaving on purpose is no timeout: the next return is a join.
      await presence.exit({ ...at, userId: 'alice', entry: entry('s9'), how: 'leave', now: T0 });
      expect(await presence.enter({ ...at, member: alice, entry: entry('s3'), now: T0 + 3 })).toMatchObject({
        action: 'join',
        amount: 2,
      });
    });

    it('PUB-12: a user is present while any member connection is open, and another connection says nothing', async () => {
      const presence = (await open()).node('n1');
      const at = { appkey: 'app', channel: 'room' };
      const alice = { id: 'alice', data: { v: 1 } };
      const renamed = { id: 'alice', data: { v: 2 } };
      await presence.enter({ ...at, member: alice, entry: entry('phone'), now: T0 });
      // Two connections of one session are two entries: a reconnect on another node before the old link is noticed.
      expect(await presence.enter({ ...at, member: alice, entry: entry('phone', 'second'), now: T0 })).toBeUndefined();
      expect(await presence.enter({ ...at, member: renamed, entry: entry('laptop'), now: T0 })).toBeUndefined();
      expect(
        await presence.exit({ ...at, userId: 'alice', entry: entry('phone'), how: 'timeout', now: T0 }),
      ).toBeUndefined();
      expect(
        await presence.exit({ ...at, userId: 'alice', entry: entry('phone', 'second'), how: 'timeout', now: T0 }),
      ).toBeUndefined();
      expect(
        await presence.exit({ ...at, userId: 'alice', entry: entry('nope'), how: 'leave', now: T0 }),
      ).toBeUndefined();
      // The data is the newest the user entered with.
      expect(await presence.exit({ ...at, userId: 'alice', entry: entry('laptop'), how: 'leave', now: T0 })).toEqual({
        action: 'leave',
        member: renamed,
        amount: 0,
      });
    });

    it('PUB-14: here-now lists the newest members first, up to the limit, with the total', async () => {
      const presence = (await open()).node('n1');
      const at = { appkey: 'app', channel: 'room' };
      for (const id of ['u1', 'u2', 'u3']) {
        await presence.enter({ ...at, member: { id, data: { id } }, entry: entry(id), now: T0 });
      }
      expect(await presence.hereNow('app', 'room', 2)).toEqual({
        members: [
          { id: 'u3', data: { id: 'u3' } },
          { id: 'u2', data: { id: 'u2' } },
        ],
        amount: 3,
      });
      // A user who comes back moves to the front.
      await presence.exit({ ...at, userId: 'u1', entry: entry('u1'), how: 'timeout', now: T0 });
      await presence.enter({ ...at, member: { id: 'u1', data: {} }, entry: entry('u1'), now: T0 });
      expect((await presence.hereNow('app', 'room', 10)).members.map((m) => m.id)).toEqual(['u1', 'u3', 'u2']);
      expect(await presence.hereNow('app', 'empty', 10)).toEqual({ members: [], amount: 0 });
      expect(await presence.hereNow('other', 'room', 10)).toEqual({ members: [], amount: 0 });
    });

    it('PUB-13: a return later than the back window after a timeout is a join', async () => {
      const presence = (await open()).node('n1');
      const at = { appkey: 'app', channel: 'room' };
      const alice = { id: 'alice', data: {} };
      await presence.enter({ ...at, member: alice, entry: entry('s1'), now: T0 });
      await presence.exit({ ...at, userId: 'alice', entry: entry('s1'), how: 'timeout', now: T0 });
      await presence.sweep(T0 + BACK_WITHIN_MS + 1);
      const later = await presence.enter({ ...at, member: alice, entry: entry('s2'), now: T0 + BACK_WITHIN_MS + 1 });
      expect(later).toMatchObject({ action: 'join', amount: 1 });
    });

    it('keeps channels and apps apart even when their names hold the separator', async () => {
      const presence = (await open()).node('n1');
      await presence.enter({ appkey: 'a:b', channel: 'c', member: { id: 'x', data: {} }, entry: entry('s1'), now: T0 });
      await presence.enter({ appkey: 'a', channel: 'b:c', member: { id: 'y', data: {} }, entry: entry('s2'), now: T0 });
      expect((await presence.hereNow('a:b', 'c', 10)).members.map((m) => m.id)).toEqual(['x']);
      expect((await presence.hereNow('a', 'b:c', 10)).members.map((m) => m.id)).toEqual(['y']);
    });
  });
}

describePresenceContract('memory', () => {
  const shared = new MemoryChannelPresence(BACK_WITHIN_MS);
  return Promise.resolve({ node: () => shared });
});

describePresenceContract(
  'Redis',
  async () => {
    const client = await redisClient();
    const prefix = redisPrefix();
    return { node: (nodeId) => createRedisChannelPresence({ client, prefix, nodeId, backWithinMs: BACK_WITHIN_MS }) };
  },
  Boolean(redisUrl),
);

describe.runIf(Boolean(redisUrl))('Redis channel presence across nodes', () => {
  async function twoNodes() {
    const client = await redisClient();
    const prefix = redisPrefix();
    const node = (nodeId: string) =>
      createRedisChannelPresence({ client, prefix, nodeId, backWithinMs: BACK_WITHIN_MS });
    return { a: node('node-a'), b: node('node-b') };
  }

  it('PUB-12 PUB-14: members entered on one node are present on the other; the last exit anywhere leaves', async () => {
    const { a, b } = await twoNodes();
    const at = { appkey: 'app', channel: 'room' };
    await a.enter({ ...at, member: { id: 'alice', data: { n: 1 } }, entry: entry('s1'), now: T0 });
    expect(
      await b.enter({ ...at, member: { id: 'alice', data: { n: 1 } }, entry: entry('s2'), now: T0 }),
    ).toBeUndefined();
    expect(await b.hereNow('app', 'room', 10)).toEqual({ members: [{ id: 'alice', data: { n: 1 } }], amount: 1 });
    expect(await a.exit({ ...at, userId: 'alice', entry: entry('s1'), how: 'timeout', now: T0 })).toBeUndefined();
    expect(await b.exit({ ...at, userId: 'alice', entry: entry('s2'), how: 'timeout', now: T0 })).toMatchObject({
      action: 'timeout',
      amount: 0,
    });
  });

  it("a dead node's members time out once, and come back within the window as back", async () => {
    const { a, b } = await twoNodes();
    const room = { appkey: 'app', channel: 'room' };
    const hall = { appkey: 'app', channel: 'hall' };
    await a.enter({ ...room, member: { id: 'alice', data: { n: 'A' } }, entry: entry('s1'), now: T0 });
    await a.enter({ ...room, member: { id: 'bob', data: {} }, entry: entry('s2'), now: T0 });
    await b.enter({ ...room, member: { id: 'bob', data: {} }, entry: entry('s3'), now: T0 });
    await a.enter({ ...hall, member: { id: 'alice', data: { n: 'A' } }, entry: entry('s1'), now: T0 });
    const changes = await b.forgetNode('node-a', T0 + 5);
    expect(changes.sort((x, y) => x.channel.localeCompare(y.channel))).toEqual([
      {
        appkey: 'app',
        channel: 'hall',
        change: { action: 'timeout', member: { id: 'alice', data: { n: 'A' } }, amount: 0 },
      },
      {
        appkey: 'app',
        channel: 'room',
        change: { action: 'timeout', member: { id: 'alice', data: { n: 'A' } }, amount: 1 },
      },
    ]);
    expect(await b.forgetNode('node-a', T0 + 6)).toEqual([]);
    expect((await b.hereNow('app', 'room', 10)).members.map((m) => m.id)).toEqual(['bob']);
    const back = await b.enter({ ...room, member: { id: 'alice', data: {} }, entry: entry('s1', 'new'), now: T0 + 7 });
    expect(back).toMatchObject({ action: 'back', amount: 2 });
  });
});
