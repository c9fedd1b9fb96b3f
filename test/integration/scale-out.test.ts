/**
 * Several server nodes (DESIGN: storage and scale): two in-process nodes sharing PostgreSQL (PARLEY_TEST_PG) and
 * Redis (PARLEY_TEST_REDIS), with SDK clients on either, and one SQLite node restarted under its clients. Each test
 * gets its own PostgreSQL schema and Redis key prefix, removed after it.
 */
import { join } from 'node:path';
import { MessageType, type ClusterMessage } from 'socket.io-adapter';
import { describe, expect, it } from 'vitest';
import {
  createClient,
  type ChannelPresenceEvent,
  type ParleyClient,
  type PubsubMessage,
  type Transport,
  type UserPresenceEvent,
} from '../../src/index.js';
import type { ServerConfig } from '../../server/src/config.js';
import { OPEN_APP, defer, freshPgSchema, startServer, tempDir, type StartedServer } from '../../server/test/helpers.js';
import { redisPrefix, redisUrl } from '../../server/test/redis-support.js';
import { eventually, imUser, lossyTransport, untilStatus } from './support.js';

const pgUrl = process.env['PARLEY_TEST_PG'];

async function pubsubUser(url: string, id: string, transport?: Transport): Promise<ParleyClient> {
  const client = createClient({
    host: url,
    appkey: OPEN_APP.appkey,
    modules: ['pubsub'],
    backoff: { initialDelay: 20, maxDelay: 100 },
    ...(transport ? { transport } : {}),
  });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

function inbox(): { seen: PubsubMessage[]; onMessage: (m: PubsubMessage) => void } {
  const seen: PubsubMessage[] = [];
  return { seen, onMessage: (m) => seen.push(m) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two nodes on one PostgreSQL schema and one Redis prefix of their own. */
async function startTwoNodes(): Promise<{ a: StartedServer; b: StartedServer }> {
  const databaseSchema = freshPgSchema(pgUrl as string);
  const shared: Partial<ServerConfig> = { databaseUrl: pgUrl, databaseSchema, redisUrl, redisPrefix: redisPrefix() };
  // One after the other: the first migrates the schema.
  const a = await startServer(shared);
  const b = await startServer(shared);
  return { a, b };
}

/** {@link startTwoNodes}' URLs. */
async function twoNodes(): Promise<{ a: string; b: string }> {
  const { a, b } = await startTwoNodes();
  return { a: a.url, b: b.url };
}

/**
 * Holds back, on `node`, the broadcasts that come from other nodes until `release()`: as when the Redis stream is
 * slow to bring them. They then go through the node's adapter as they would have.
 */
function slowBroadcasts(node: StartedServer): { release(): void } {
  const adapter = node.server.io.of('/').adapter as unknown as {
    onMessage(message: ClusterMessage, offset?: string): void;
  };
  const onMessage = adapter.onMessage.bind(adapter);
  const held: Array<[ClusterMessage, string | undefined]> = [];
  let holding = true;
  adapter.onMessage = (message, offset) => {
    if (holding && message.type === MessageType.BROADCAST) held.push([message, offset]);
    else onMessage(message, offset);
  };
  return {
    release() {
      holding = false;
      for (const [message, offset] of held.splice(0)) onMessage(message, offset);
    },
  };
}

describe.runIf(Boolean(pgUrl && redisUrl))('several nodes sharing PostgreSQL and Redis', () => {
  it('PRES-1 PRES-2 PRES-5: presence, here-now and online counts are the same on every node', async () => {
    const { a, b } = await twoNodes();
    const alice = await imUser(a, 'alice');
    const bob = await imUser(b, 'bob');
    const carolOnA = await imUser(a, 'carol');
    const seen: UserPresenceEvent[] = [];
    bob.im.on('USER_PRESENCE', (e) => seen.push(e));
    await bob.im.subscribeUserPresence({ userIds: ['alice', 'dave'] });
    await alice.im.subscribeGroup({ groupIds: ['g1'] });
    await bob.im.subscribeGroup({ groupIds: ['g1'] });

    for (const asker of [bob, carolOnA]) {
      expect((await asker.im.hereNow({ userIds: ['dave', 'alice', 'bob'] })).map((u) => u.id)).toEqual([
        'alice',
        'bob',
      ]);
      expect((await asker.im.groupHereNow({ groupId: 'g1' })).map((u) => u.id).sort()).toEqual(['alice', 'bob']);
      expect(await asker.im.groupOnlineCount({ groupId: 'g1' })).toBe(2);
    }
    // A second connection of alice, on the other node, is not a new "online"; her last one ending is "offline".
    const aliceOnB = await imUser(b, 'alice');
    await alice.disconnect();
    expect(await carolOnA.im.hereNow({ userIds: ['alice'] })).toHaveLength(1);
    await aliceOnB.disconnect();
    await eventually(() => seen.length === 1, 'offline');
    expect(seen[0]).toMatchObject({ action: 'offline', id: 'alice', data: { name: 'alice' } });
    expect(await carolOnA.im.groupOnlineCount({ groupId: 'g1' })).toBe(1);
    expect(await bob.im.hereNow({ userIds: ['alice'] })).toEqual([]);
    await imUser(a, 'alice');
    await eventually(() => seen.length === 2, 'online');
    expect(seen.map((e) => e.action)).toEqual(['offline', 'online']);
  });

  it('PUB-12 PUB-13 PUB-14: a presence join on one node is seen by a watcher on the other, and in here-now', async () => {
    const { a, b } = await twoNodes();
    const watcher = await pubsubUser(b, 'watcher');
    const events: ChannelPresenceEvent[] = [];
    await watcher.pubsub.subscribePresence({ channel: 'room', onPresence: (e) => events.push(e) });
    const alice = await pubsubUser(a, 'alice');
    await alice.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => events.length === 1, 'join');
    expect(events[0]).toMatchObject({ action: 'join', member: { id: 'alice' }, amount: 1 });
    const bobOnB = await pubsubUser(b, 'bob');
    expect(await bobOnB.pubsub.hereNow({ channel: 'room' })).toEqual({
      channel: 'room',
      amount: 1,
      members: [{ id: 'alice', data: { name: 'alice' } }],
    });
    await alice.pubsub.unsubscribe({ channel: 'room' });
    await eventually(() => events.length === 2, 'leave');
    expect(events[1]).toMatchObject({ action: 'leave', member: { id: 'alice' }, amount: 0 });
  });

  it('PUB-8 PUB-9: a qos-1 message published while away reaches the subscriber once, back on the other node', async () => {
    const { a, b } = await twoNodes();
    const link = lossyTransport(a);
    const subscriber = await pubsubUser(a, 'sub', link.transport);
    const box = inbox();
    await subscriber.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    const publisher = await pubsubUser(b, 'pub');
    const sid = subscriber.sid;

    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    await publisher.pubsub.publish({ channel: 'news', message: 'while away', qos: 1 });
    await publisher.pubsub.publish({ channel: 'news', message: 'qos 0 is not kept', qos: 0 });
    link.restore(b);
    await untilStatus(subscriber, 'reconnected');
    expect(subscriber.sid).toBe(sid);
    await eventually(() => box.seen.length === 1, 'redelivered on the other node');
    expect(box.seen[0]).toMatchObject({ channel: 'news', content: 'while away' });

    // Acked on node b: going back to node a brings nothing again, and live messages still reach it there.
    await pause(100);
    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    link.restore(a);
    await untilStatus(subscriber, 'reconnected');
    await publisher.pubsub.publish({ channel: 'news', message: 'live', qos: 1 });
    await eventually(() => box.seen.length === 2, 'live message');
    await pause(100);
    expect(box.seen.map((m) => m.content)).toEqual(['while away', 'live']);
  });
});

describe.runIf(Boolean(pgUrl && redisUrl))('several nodes: messages still crossing when a client joins', () => {
  it('PUB-9: a first subscribe gets nothing published before it, even arriving from the other node after it', async () => {
    const { a, b } = await startTwoNodes();
    const subscriber = await pubsubUser(a.url, 'sub');
    const publisher = await pubsubUser(b.url, 'pub');
    const box = inbox();
    const slow = slowBroadcasts(a);
    await publisher.pubsub.publish({ channel: 'news', message: 'before, qos 0', qos: 0 });
    await publisher.pubsub.publish({ channel: 'news', message: 'before, qos 1', qos: 1 });
    await subscriber.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    slow.release();
    await publisher.pubsub.publish({ channel: 'news', message: 'after', qos: 0 });
    await eventually(() => box.seen.length > 0, 'the message published after');
    await pause(100);
    expect(box.seen.map((m) => m.content)).toEqual(['after']);
  });

  it('PUB-8 PUB-9: back on its node, a session gets what waited for it once, and no qos-0 message of while it was away', async () => {
    const { a, b } = await startTwoNodes();
    const link = lossyTransport(a.url);
    const subscriber = await pubsubUser(a.url, 'sub', link.transport);
    const box = inbox();
    await subscriber.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    const publisher = await pubsubUser(b.url, 'pub');

    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    const slow = slowBroadcasts(a);
    await publisher.pubsub.publish({ channel: 'news', message: 'away, qos 0', qos: 0 });
    await publisher.pubsub.publish({ channel: 'news', message: 'away, qos 1', qos: 1 });
    link.restore();
    await untilStatus(subscriber, 'reconnected');
    await eventually(() => box.seen.length === 1, 'the qos-1 message, redelivered');
    slow.release();
    await publisher.pubsub.publish({ channel: 'news', message: 'back', qos: 0 });
    await eventually(() => box.seen.length > 1, 'the message published after');
    await pause(100);
    expect(box.seen.map((m) => m.content)).toEqual(['away, qos 1', 'back']);
  });
});

describe('one SQLite node restarted under its clients', () => {
  it('PUB-8 PUB-9: a qos-1 message published while the subscriber is away reaches it once after the restart', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ sqlite });
    const link = lossyTransport(first.url);
    const subscriber = await pubsubUser(first.url, 'sub', link.transport);
    const box = inbox();
    await subscriber.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    const sid = subscriber.sid;

    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    const publisher = await pubsubUser(first.url, 'pub');
    await publisher.pubsub.publish({ channel: 'news', message: 'before the restart', qos: 1 });
    await first.server.close();
    const second = await startServer({ sqlite, port: first.port });
    link.restore(second.url);
    await untilStatus(subscriber, 'reconnected');
    expect(subscriber.sid).toBe(sid);
    await eventually(() => box.seen.length === 1, 'redelivered after the restart');
    expect(box.seen[0]).toMatchObject({ channel: 'news', content: 'before the restart' });

    // The subscription came back with the session: a message published after the restart arrives too, once.
    await untilStatus(publisher, 'reconnected');
    await publisher.pubsub.publish({ channel: 'news', message: 'after the restart', qos: 1 });
    await eventually(() => box.seen.length === 2, 'live message');
    await pause(100);
    expect(box.seen.map((m) => m.content)).toEqual(['before the restart', 'after the restart']);
  });
});
