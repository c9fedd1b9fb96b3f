/**
 * The SDK's pub/sub against the real Parley server, in-process on an ephemeral port. Link losses close the
 * engine under the client (the server sees a lost link, not a goodbye), so sessions survive as they would a
 * network drop.
 */
import { describe, expect, it } from 'vitest';
import {
  createClient,
  type ChannelPresenceEvent,
  type ParleyClient,
  type PubsubMessage,
  type Transport,
} from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { PRIVATE_APP, accessToken } from '../../server/test/pubsub-support.js';
import { eventually, lossyTransport, untilStatus } from './support.js';

async function pubsubUser(
  url: string,
  id: string | undefined,
  options: { appkey?: string; transport?: Transport } = {},
): Promise<ParleyClient> {
  const client = createClient({
    host: url,
    appkey: options.appkey ?? OPEN_APP.appkey,
    modules: ['pubsub'],
    backoff: { initialDelay: 20, maxDelay: 100 },
    ...(options.transport ? { transport: options.transport } : {}),
  });
  defer(() => client.disconnect());
  await client.connect(id === undefined ? {} : { id, data: { name: id } });
  return client;
}

function inbox(): { seen: PubsubMessage[]; onMessage: (m: PubsubMessage) => void } {
  const seen: PubsubMessage[] = [];
  return { seen, onMessage: (m) => seen.push(m) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps a transport to record the `message` pushes that reach the SDK, duplicates included. */
function watchPushes(inner: Transport): { transport: Transport; messages(): string[] } {
  const contents: string[] = [];
  const transport: Transport = (url, handlers) =>
    inner(url, {
      ...handlers,
      onPush(event, payload) {
        if (event === 'message') contents.push(String((payload as { c?: unknown }).c));
        handlers.onPush(event, payload);
      },
    });
  return { transport, messages: () => [...contents] };
}

describe('pub/sub: SDK against the server', () => {
  it('PUB-7: a message reaches each of 50 subscribers once; history has it', async () => {
    const { url } = await startServer({ rateLimit: { perSecond: 1000, burst: 1000 } });
    const subscribers = await Promise.all(Array.from({ length: 50 }, (_, i) => pubsubUser(url, `s${i}`)));
    const boxes = subscribers.map(() => inbox());
    await Promise.all(
      subscribers.map((c, i) => c.pubsub.subscribe({ channel: 'news', onMessage: boxes[i]!.onMessage })),
    );
    const publisher = await pubsubUser(url, 'publisher');
    const { guid, time } = await publisher.pubsub.publish({ channel: 'news', message: 'hello all' });
    expect(guid).toMatch(/^[0-9a-f]{32}$/);
    await eventually(() => boxes.every((b) => b.seen.length === 1), 'every subscriber got it');
    expect(boxes[0]!.seen[0]).toEqual({ time, channel: 'news', content: 'hello all' });
    await pause(50);
    expect(boxes.every((b) => b.seen.length === 1)).toBe(true);
    const history = await publisher.pubsub.history({ channel: 'news', limit: 5 });
    expect(history.messages).toEqual([{ time, content: 'hello all' }]);
  });

  it('PUB-8: a qos-1 message published while a subscriber is away reaches it exactly once after it reconnects', async () => {
    const { url, server } = await startServer();
    const link = lossyTransport();
    const wire = watchPushes(link.transport);
    const subscriber = await pubsubUser(url, 'sub', { transport: wire.transport });
    const box = inbox();
    await subscriber.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    const publisher = await pubsubUser(url, 'pub');
    const sid = subscriber.sid as string;
    const unacked = async () =>
      (await server.store.pubsubSessions.pending({ sid, limit: 100 })).map((p) => JSON.parse(p.body).c as string);

    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    await publisher.pubsub.publish({ channel: 'news', message: 'while away', qos: 1 });
    await publisher.pubsub.publish({ channel: 'news', message: 'qos 0 is lost', qos: 0 });
    expect(await unacked()).toEqual(['while away']);
    link.restore();
    await untilStatus(subscriber, 'reconnected');
    expect(subscriber.sid).toBe(sid);
    await eventually(() => box.seen.length === 1, 'redelivered');
    expect(box.seen[0]).toMatchObject({ channel: 'news', content: 'while away' });
    expect(wire.messages()).toEqual(['while away']);

    // The SDK acked it: the server keeps nothing for the session, and another link loss pushes nothing again,
    // on the wire, not only past the SDK's de-duplication; live messages still flow.
    await eventually(async () => (await unacked()).length === 0, 'the ack reached the store');
    link.lose();
    await untilStatus(subscriber, 'reconnecting');
    link.restore();
    await untilStatus(subscriber, 'reconnected');
    await publisher.pubsub.publish({ channel: 'news', message: 'live', qos: 1 });
    await eventually(() => box.seen.length === 2, 'live message');
    await pause(50);
    expect(wire.messages()).toEqual(['while away', 'live']);
    expect(box.seen.map((m) => m.content)).toEqual(['while away', 'live']);
  });

  it('PUB-12 PUB-13: presence join, leave, timeout and back, as a watcher sees them', async () => {
    const { url } = await startServer();
    const watcher = await pubsubUser(url, 'watcher');
    const events: ChannelPresenceEvent[] = [];
    await watcher.pubsub.subscribePresence({ channel: 'room', onPresence: (e) => events.push(e) });
    const story = () =>
      events.map((e) => `${e.action} ${e.member.id} ${e.amount} [${e.members.map((m) => m.id).join(',')}]`);

    const alice = await pubsubUser(url, 'alice');
    const bobLink = lossyTransport();
    const bob = await pubsubUser(url, 'bob', { transport: bobLink.transport });
    await alice.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await bob.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => events.length === 2);
    expect(await watcher.pubsub.hereNow({ channel: 'room' })).toEqual({
      channel: 'room',
      amount: 2,
      members: [
        { id: 'bob', data: { name: 'bob' } },
        { id: 'alice', data: { name: 'alice' } },
      ],
    });
    await alice.pubsub.unsubscribe({ channel: 'room' });
    bobLink.lose();
    await eventually(() => events.length === 4, 'timeout');
    bobLink.restore();
    await untilStatus(bob, 'reconnected');
    await eventually(() => events.length === 5, 'back');
    await bob.disconnect();
    await eventually(() => events.length === 6, 'leave');
    expect(story()).toEqual([
      'join alice 1 [alice]',
      'join bob 2 [bob,alice]',
      'leave alice 1 [bob]',
      'timeout bob 0 []',
      'back bob 1 [bob]',
      'leave bob 0 []',
    ]);
  });

  it('PUB-19: a watcher back on its session reads the members again, so its next event lists who joined and left meanwhile', async () => {
    const { url } = await startServer();
    const link = lossyTransport();
    const watcher = await pubsubUser(url, 'watcher', { transport: link.transport });
    const events: ChannelPresenceEvent[] = [];
    await watcher.pubsub.subscribePresence({ channel: 'room', onPresence: (e) => events.push(e) });
    const join = async (id: string) => {
      const client = await pubsubUser(url, id);
      await client.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
      return client;
    };
    const alice = await join('alice');
    await eventually(() => events.length === 1, 'join alice');

    link.lose();
    await untilStatus(watcher, 'reconnecting');
    await alice.pubsub.unsubscribe({ channel: 'room' });
    await join('carol');
    link.restore();
    await untilStatus(watcher, 'reconnected');
    // A request after the SDK's own here-now: its answer comes after that one's.
    await watcher.pubsub.hereNow({ channel: 'room' });
    await join('dave');
    await eventually(() => events.length === 2, 'join dave');
    expect(events.map((e) => [e.action, e.member.id, e.amount, e.members.map((m) => m.id)])).toEqual([
      ['join', 'alice', 1, ['alice']],
      ['join', 'dave', 2, ['dave', 'carol']],
    ]);
  });

  it('PUB-1: a client on the subscribe-only key subscribes, receives, and is refused publishing with 401', async () => {
    const { url } = await startServer();
    const reader = await pubsubUser(url, 'reader', { appkey: OPEN_APP.subscribeKey as string });
    const box = inbox();
    await reader.pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    await expect(reader.pubsub.publish({ channel: 'news', message: 'not mine to say' })).rejects.toMatchObject({
      code: 401,
      content: 'No permission',
    });
    const writer = await pubsubUser(url, 'writer');
    await writer.pubsub.publish({ channel: 'news', message: 'from the app key' });
    await eventually(() => box.seen.length === 1, 'delivered to the reader');
    await pause(50);
    expect(box.seen.map((m) => m.content)).toEqual(['from the app key']);
    expect((await reader.pubsub.history({ channel: 'news' })).messages.map((m) => m.content)).toEqual([
      'from the app key',
    ]);
  });

  it('PUB-15: a private channel refuses a client without a token and serves one with it', async () => {
    const { url } = await startServer({ apps: [OPEN_APP, PRIVATE_APP] });
    const alice = await pubsubUser(url, 'alice', { appkey: PRIVATE_APP.appkey });
    const box = inbox();
    await expect(alice.pubsub.subscribe({ channel: 'vip', onMessage: box.onMessage })).rejects.toMatchObject({
      code: 401,
      content: 'No permission',
    });
    await alice.pubsub.subscribe({
      channel: 'vip',
      accessToken: accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'rw' }),
      onMessage: box.onMessage,
    });
    await expect(alice.pubsub.publish({ channel: 'vip', message: 'no token' })).rejects.toMatchObject({ code: 401 });
    await alice.pubsub.publish({
      channel: 'vip',
      message: 'with token',
      accessToken: accessToken(PRIVATE_APP, { u: 'alice', c: ['vip'], p: 'w' }),
    });
    await eventually(() => box.seen.length === 1);
    expect(box.seen[0]).toMatchObject({ channel: 'vip', content: 'with token' });
  });

  it('PUB-15: history, here-now and presence watches of a private channel take a token granting read', async () => {
    const { url } = await startServer({ apps: [PRIVATE_APP] });
    const alice = await pubsubUser(url, 'alice', { appkey: PRIVATE_APP.appkey });
    await alice.pubsub.subscribe({
      channel: 'vip',
      presence: { enable: true },
      accessToken: accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'rw' }),
      onMessage: () => undefined,
    });
    await alice.pubsub.publish({
      channel: 'vip',
      message: 'members only',
      accessToken: accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'w' }),
    });
    const bob = await pubsubUser(url, 'bob', { appkey: PRIVATE_APP.appkey });
    const denied = { code: 401, content: 'No permission' };
    await expect(bob.pubsub.history({ channel: 'vip' })).rejects.toMatchObject(denied);
    await expect(bob.pubsub.hereNow({ channel: 'vip' })).rejects.toMatchObject(denied);
    await expect(bob.pubsub.subscribePresence({ channel: 'vip', onPresence: () => undefined })).rejects.toMatchObject(
      denied,
    );
    const read = accessToken(PRIVATE_APP, { u: 'bob', c: 'vip', p: 'r' });
    expect((await bob.pubsub.history({ channel: 'vip', accessToken: read })).messages).toMatchObject([
      { content: 'members only' },
    ]);
    expect(await bob.pubsub.hereNow({ channel: 'vip', accessToken: read })).toMatchObject({
      amount: 1,
      members: [{ id: 'alice' }],
    });
    await bob.pubsub.subscribePresence({ channel: 'vip', accessToken: read, onPresence: () => undefined });
    // Alice's subscribe took her token: her reads need none.
    expect((await alice.pubsub.history({ channel: 'vip' })).messages).toHaveLength(1);
  });
});
