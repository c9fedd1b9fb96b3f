import { describe, expect, it } from 'vitest';
import { createClient, type ParleyClient, type PubsubMessage } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import {
  GoEasy,
  call,
  connectReference,
  eventually,
  referenceLink,
  watchServerSockets,
  type ServerSideSocket,
} from './support.js';

/** A message as the reference client hands it to `onMessage`. */
interface RefPubsubMessage {
  time: number;
  channel: string;
  content: string;
}

/** A presence event as the reference client hands it to `onPresence`. */
interface RefPresenceEvent {
  channel: string;
  action: string;
  member: { id: string; data: unknown };
  amount: number;
  time: number;
  members: unknown[];
}

async function parley(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['pubsub'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

async function setup() {
  const { url, port, server } = await startServer({ apps: [OPEN_APP] });
  const sockets = watchServerSockets(server);
  await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['pubsub']);
  const sdk = await parley(url, 'sdk');
  return { url, server, sockets, sdk };
}

/** Subscribes the reference client to `channel`; what it receives lands in the returned list. */
async function refSubscribe(channel: string): Promise<RefPubsubMessage[]> {
  const received: RefPubsubMessage[] = [];
  await call((o) => GoEasy.pubsub.subscribe!(o), { channel, onMessage: (m: RefPubsubMessage) => received.push(m) });
  return received;
}

/** The `message` pushes the server sent on a socket: channel and content. */
const pushes = (socket: ServerSideSocket | undefined) =>
  (socket?.sent ?? []).filter((p) => p.event === 'message').map((p) => [p.payload.n, p.payload.c]);

/** Whether the server received `ack {publishGuid: guid}` on a socket. */
const acked = (socket: ServerSideSocket | undefined, guid: string) =>
  (socket?.received ?? []).some((r) => r.event === 'ack' && r.params.publishGuid === guid);

describe('reference client: pub/sub', () => {
  it('INTEROP-4: publish and subscribe both ways', async () => {
    const { sdk } = await setup();
    const atReference = await refSubscribe('news');
    const atSdk: PubsubMessage[] = [];
    await sdk.pubsub.subscribe({ channel: 'news', onMessage: (m) => atSdk.push(m) });

    const fromSdk = await sdk.pubsub.publish({ channel: 'news', message: 'from parley' });
    await eventually(() => atReference.length === 1, 'onMessage at the reference');
    expect(atReference, 'onMessage at the reference: {time, channel, content}').toEqual([
      { time: fromSdk.time, channel: 'news', content: 'from parley' },
    ]);

    await call((o) => GoEasy.pubsub.publish!(o), { channel: 'news', message: 'from reference' });
    await eventually(() => atSdk.length === 2, 'onMessage at the SDK');
    expect(
      atSdk.map((m) => [m.channel, m.content]),
      'onMessage at the SDK: [channel, content]',
    ).toEqual([
      ['news', 'from parley'],
      ['news', 'from reference'],
    ]);
    expect(atSdk[1]?.time, 'onMessage at the SDK: time').toBeGreaterThanOrEqual(fromSdk.time ?? Infinity);
  });

  it('INTEROP-15: qos 1: the reference acks a push, and a message sent while its link is down reaches it once after it reconnects', async () => {
    const { server, sockets, sdk } = await setup();
    const atReference = await refSubscribe('orders');
    const refSockets = () => sockets.filter((s) => s.userId === 'ref');
    const first = refSockets()[0];

    const live = await sdk.pubsub.publish({ channel: 'orders', message: 'live', qos: 1 });
    await eventually(() => atReference.length === 1, 'onMessage at the reference (live)');
    expect(
      first?.sent.find((p) => p.event === 'message')?.payload,
      'message push to the reference: {n, c, i, a}',
    ).toMatchObject({ n: 'orders', c: 'live', i: live.guid, a: true });
    await eventually(() => acked(first, live.guid), 'ack {publishGuid} of the live message at the server');

    referenceLink.lose();
    await eventually(() => first?.closed === true, 'disconnect of the reference at the server');
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnecting', "getConnectionStatus() 'reconnecting'");
    const away = await sdk.pubsub.publish({ channel: 'orders', message: 'while away', qos: 1 });
    referenceLink.restore();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnected', "getConnectionStatus() 'reconnected'");
    await eventually(() => atReference.length === 2, 'onMessage at the reference (while away)');
    const second = refSockets()[1];
    expect(second?.sid, 'authorize sid of the reconnect').toEqual(expect.any(String));
    await eventually(() => acked(second, away.guid), 'ack {publishGuid} of the redelivered message at the server');

    // A live message after the redelivered one: anything else redelivered on this connection came before it.
    await sdk.pubsub.publish({ channel: 'orders', message: 'after', qos: 1 });
    await eventually(() => atReference.length === 3, 'onMessage at the reference (after)');
    expect(
      atReference.map((m) => [m.channel, m.content]),
      'onMessage at the reference: [channel, content]',
    ).toEqual([
      ['orders', 'live'],
      ['orders', 'while away'],
      ['orders', 'after'],
    ]);
    expect(pushes(first), 'message pushes on the first socket: [n, c]').toEqual([['orders', 'live']]);
    expect(pushes(second), 'message pushes on the reconnected socket: [n, c] (the acked one not again)').toEqual([
      ['orders', 'while away'],
      ['orders', 'after'],
    ]);
    expect(refSockets(), 'sockets of the reference at the server').toHaveLength(2);
    await eventually(
      async () => (await server.store.pubsubSessions.pending({ sid: String(second?.sid), limit: 10 })).length === 0,
      'no unacked qos-1 message of the session in the store',
    );
  });

  it('INTEROP-16: history answers what both published, as the reference hands it to onSuccess', async () => {
    const { sdk } = await setup();
    const fromSdk = await sdk.pubsub.publish({ channel: 'news', message: 'from parley' });
    await call((o) => GoEasy.pubsub.publish!(o), { channel: 'news', message: 'from reference' });
    const fromReference = (await sdk.pubsub.history({ channel: 'news' })).messages[1];
    expect(fromReference?.content, 'SDK history: messages[1].content').toBe('from reference');

    const history = await call((o) => GoEasy.pubsub.history!(o), { channel: 'news', limit: 10 });
    expect(history, 'pubsub.history onSuccess: {code, content: {messages: [{time, content}]}}').toEqual({
      code: 200,
      content: {
        messages: [
          { time: fromSdk.time, content: 'from parley' },
          { time: fromReference?.time, content: 'from reference' },
        ],
      },
    });
  });

  it('INTEROP-17: after unsubscribe the reference receives nothing more from the channel', async () => {
    const { sockets, sdk } = await setup();
    const news = await refSubscribe('news');
    const other = await refSubscribe('other');
    await sdk.pubsub.publish({ channel: 'news', message: 'before' });
    await eventually(() => news.length === 1, 'onMessage at the reference (news, before)');

    await call((o) => GoEasy.pubsub.unsubscribe!(o), { channel: 'news' });
    await sdk.pubsub.publish({ channel: 'news', message: 'after' });
    // Pushes on one socket keep their order: once this one arrives, one for 'after' would have come first.
    await sdk.pubsub.publish({ channel: 'other', message: 'marker' });
    await eventually(() => other.length === 1, 'onMessage at the reference (other, marker)');
    expect(
      news.map((m) => m.content),
      'onMessage at the reference (news): content',
    ).toEqual(['before']);
    expect(pushes(sockets.find((s) => s.userId === 'ref')), 'message pushes to the reference: [n, c]').toEqual([
      ['news', 'before'],
      ['other', 'marker'],
    ]);
  });

  it('INTEROP-5: presence join and leave of a Parley member at the reference', async () => {
    const { sdk } = await setup();
    const events: RefPresenceEvent[] = [];
    await call((o) => GoEasy.pubsub.subscribePresence!(o), {
      channel: 'room',
      onPresence: (e: RefPresenceEvent) => events.push(e),
    });
    await sdk.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => events.length === 1, 'onPresence at the reference (join)');
    const member = { id: 'sdk', data: { name: 'sdk' } };
    expect(events[0], 'onPresence (join): {channel, action, member, amount, members}').toEqual({
      channel: 'room',
      action: 'join',
      member,
      amount: 1,
      time: expect.any(Number),
      members: [member],
    });

    await sdk.pubsub.unsubscribe({ channel: 'room' });
    await eventually(() => events.length === 2, 'onPresence at the reference (leave)');
    expect(events[1], 'onPresence (leave): {channel, action, member, amount, members}').toEqual({
      channel: 'room',
      action: 'leave',
      member,
      amount: 0,
      time: expect.any(Number),
      members: [],
    });
  });

  it('INTEROP-19: after an expired reconnect the reference still hears the presence of the channels it watched', async () => {
    let clock = Date.now();
    const { url, port, server } = await startServer({ apps: [OPEN_APP], sessionTtlMs: 1000 }, { now: () => clock });
    const sockets = watchServerSockets(server);
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['pubsub']);
    const sdk = await parley(url, 'sdk');
    const events: RefPresenceEvent[] = [];
    await call((o) => GoEasy.pubsub.subscribePresence!(o), {
      channel: 'room',
      onPresence: (e: RefPresenceEvent) => events.push(e),
    });
    const refSockets = () => sockets.filter((s) => s.userId === 'ref');
    const first = refSockets()[0];

    referenceLink.lose();
    await eventually(() => first?.closed === true, 'disconnect of the reference at the server');
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnecting', "getConnectionStatus() 'reconnecting'");
    // Away for longer than the session lives: the server gives the reference a new sid.
    clock += 5000;
    referenceLink.restore();
    await eventually(() => refSockets()[1]?.sid !== undefined, 'authorize of the reconnect at the server');
    await eventually(() => GoEasy.getConnectionStatus() !== 'reconnecting', 'the reference reconnected');
    const second = refSockets()[1];
    const named = String(second?.sid);
    expect(named, 'the sid the reconnect named: its expired session').toEqual(expect.any(String));
    expect(
      (second?.received ?? []).filter((r) => r.event === 'PUBSUB_PRESENCE_SUBSCRIBE'),
      'PUBSUB_PRESENCE_SUBSCRIBE sent again by the reference (it never is)',
    ).toEqual([]);

    await sdk.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => events.length === 1, 'onPresence at the reference (join) after the expired reconnect');
    expect(events[0], 'onPresence (join) after the expired reconnect').toMatchObject({
      channel: 'room',
      action: 'join',
      member: { id: 'sdk', data: { name: 'sdk' } },
    });
    // The reference never asks for the members again after an expired reconnect: it hands on the amount it had when
    // its link was lost, while the server pushes the true one.
    expect(
      second?.sent.find((p) => p.event === 'PS_PRESENCE_EVENT')?.payload,
      'PS_PRESENCE_EVENT pushed to the reference',
    ).toMatchObject({ channel: 'room', action: 'join', member: { id: 'sdk' }, amount: 1 });
    expect(await server.store.pubsubSessions.load(named), 'the expired session, forgotten').toBe(undefined);
  });

  it('INTEROP-18: here-now names the Parley member of a channel', async () => {
    const { sdk } = await setup();
    // Asked directly: on a channel whose presence it watches, the reference answers from its own cache.
    await sdk.pubsub.subscribe({ channel: 'lobby', presence: { enable: true }, onMessage: () => undefined });
    const hereNow = await call((o) => GoEasy.pubsub.hereNow!(o), { channel: 'lobby' });
    // The reference hands onSuccess the server's ack as it came, envelope included.
    expect(hereNow, 'pubsub.hereNow onSuccess: {code, resultCode, content: {amount, members}}').toEqual({
      code: 200,
      resultCode: 200,
      content: { amount: 1, members: [{ id: 'sdk', data: { name: 'sdk' } }] },
    });
  });
});
