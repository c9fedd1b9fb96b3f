import { describe, expect, it } from 'vitest';
import { createClient, type Message, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { GoEasy, call, connectReference, eventually, referenceLink, watchServerSockets } from './support.js';

/** A message as the reference client hands it to the app. */
interface RefMessage {
  messageId: string;
  senderId: string;
  receiverId?: string;
  groupId?: string;
  senderData?: unknown;
  type: string;
  payload: unknown;
  timestamp: number;
  status: string;
  recalled: boolean;
  recaller?: unknown;
  read?: boolean;
}

async function parley(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

function listen<T>(event: string): T[] {
  const seen: T[] = [];
  const listener = (value: unknown) => seen.push(value as T);
  GoEasy.im.on(GoEasy.IM_EVENT[event] ?? event, listener);
  defer(() => GoEasy.im.off(GoEasy.IM_EVENT[event] ?? event, listener));
  return seen;
}

async function refSend(message: unknown): Promise<RefMessage> {
  return call<RefMessage>((o) => GoEasy.im.sendMessage!(o), { message });
}

/** The reference sends a private text to `to`. */
function refText(text: string, to: string): Promise<RefMessage> {
  return refSend(GoEasy.im.createTextMessage!({ text, to: { type: 'private', id: to, data: { name: to } } }));
}

/** `client` sends a private text to `to`. */
function sdkText(client: ParleyClient, text: string, to: string): Promise<Message> {
  return client.im.sendMessage({ message: client.im.createTextMessage({ text, to: { type: 'private', id: to } }) });
}

async function refHistory(id: string, options: Record<string, unknown> = {}): Promise<RefMessage[]> {
  const page = await call<{ content: RefMessage[] }>((o) => GoEasy.im.history!(o), {
    type: 'private',
    id,
    limit: 10,
    ...options,
  });
  return page.content;
}

const texts = (messages: ReadonlyArray<{ payload: unknown }>) =>
  messages.map((m) => (m.payload as { text: string }).text);

async function setup() {
  const { url, port } = await startServer({ apps: [OPEN_APP] });
  await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
  const sdk = await parley(url, 'sdk');
  return { url, sdk };
}

describe('reference client: IM', () => {
  it('INTEROP-6: private text and custom messages both ways', async () => {
    const { sdk } = await setup();
    const atRef = listen<RefMessage>('PRIVATE_MESSAGE_RECEIVED');
    const atSdk: Message[] = [];
    sdk.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => atSdk.push(m));

    const text = await refSend(
      GoEasy.im.createTextMessage!({ text: 'hello sdk', to: { type: 'private', id: 'sdk', data: { name: 'SDK' } } }),
    );
    expect([text.status, text.senderId], 'sendMessage onSuccess: [status, senderId]').toEqual(['success', 'ref']);
    const custom = await refSend(
      GoEasy.im.createCustomMessage!({
        type: 'order',
        payload: { id: 7 },
        to: { type: 'private', id: 'sdk', data: {} },
      }),
    );
    await eventually(() => atSdk.length === 2, 'PRIVATE_MESSAGE_RECEIVED at the SDK (text and custom)');
    expect(
      atSdk.map((m) => [
        m.messageId,
        m.timestamp,
        m.senderId,
        m.scene === 'private' && m.receiverId,
        m.type,
        m.payload,
      ]),
      'PRIVATE_MESSAGE_RECEIVED at the SDK: [messageId, timestamp, senderId, receiverId, type, payload]',
    ).toEqual([
      [text.messageId, text.timestamp, 'ref', 'sdk', 'text', { text: 'hello sdk' }],
      [custom.messageId, custom.timestamp, 'ref', 'sdk', 'order', { id: 7 }],
    ]);

    const hello = await sdkText(sdk, 'hello ref', 'ref');
    const gift = await sdk.im.sendMessage({
      message: sdk.im.createCustomMessage({ type: 'gift', payload: 'rose', to: { type: 'private', id: 'ref' } }),
    });
    await eventually(() => atRef.length === 2, 'PRIVATE_MESSAGE_RECEIVED at the reference (text and custom)');
    expect(
      atRef.map((m) => [m.messageId, m.timestamp, m.senderId, m.receiverId, m.type, m.payload]),
      'PRIVATE_MESSAGE_RECEIVED at the reference: [messageId, timestamp, senderId, receiverId, type, payload]',
    ).toEqual([
      [hello.messageId, hello.timestamp, 'sdk', 'ref', 'text', { text: 'hello ref' }],
      [gift.messageId, gift.timestamp, 'sdk', 'ref', 'gift', 'rose'],
    ]);
  });

  it('INTEROP-7: history paging of messages the SDK sent', async () => {
    const { sdk } = await setup();
    const sent: Message[] = [];
    for (let i = 1; i <= 12; i++) sent.push(await sdkText(sdk, `m${i}`, 'ref'));
    const page = await refHistory('sdk', { limit: 5 });
    expect(texts(page), 'im.history (limit 5): payload.text').toEqual(['m8', 'm9', 'm10', 'm11', 'm12']);
    expect(
      page.map((m) => [m.messageId, m.timestamp]),
      'im.history (limit 5): [messageId, timestamp]',
    ).toEqual(sent.slice(7).map((m) => [m.messageId, m.timestamp]));
    const older = await refHistory('sdk', { lastTimestamp: page[0]?.timestamp, limit: 10 });
    expect(texts(older), 'im.history (before the first page, limit 10): payload.text').toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
  });

  it('INTEROP-19: latest conversations with exact unread counts and last messages', async () => {
    const { url, sdk } = await setup();
    const carol = await parley(url, 'carol');
    // Sending reads (IM-7): the reference's reply leaves only m3 unread from the SDK.
    await sdkText(sdk, 'm1', 'ref');
    await sdkText(sdk, 'm2', 'ref');
    await refText('r1', 'sdk');
    const m3 = await sdkText(sdk, 'm3', 'ref');
    await sdkText(carol, 'c1', 'ref');
    const c2 = await sdkText(carol, 'c2', 'ref');
    /** A conversation row as the reference lists it: the other user, its unread count and its last message. */
    const row = (userId: string, unread: number, last: Message, read = false) => ({
      type: 'private',
      userId,
      data: { name: userId },
      unread,
      top: false,
      lastMessage: {
        messageId: last.messageId,
        timestamp: last.timestamp,
        senderId: userId,
        receiverId: 'ref',
        type: 'text',
        payload: last.payload,
        read,
        recalled: false,
        status: 'success',
      },
    });

    const list = await call((o) => GoEasy.im.latestConversations!(o));
    expect(list, 'im.latestConversations onSuccess: {code, content: {unreadTotal, conversations}}').toEqual({
      code: 200,
      content: { unreadTotal: 3, conversations: [row('carol', 2, c2), row('sdk', 1, m3)] },
    });

    // Marking read clears the count, and the reference flags the messages it read.
    await call((o) => GoEasy.im.markMessageAsRead!(o), { type: 'private', id: 'sdk' });
    const after = await call((o) => GoEasy.im.latestConversations!(o));
    expect(after, 'im.latestConversations after markMessageAsRead: {code, content}').toEqual({
      code: 200,
      content: { unreadTotal: 2, conversations: [row('carol', 2, c2), row('sdk', 0, m3, true)] },
    });
  });

  it('INTEROP-8: a read mark by the reference reaches the SDK as MESSAGE_READ, and back', async () => {
    const { sdk } = await setup();
    const readAtSdk: Message[][] = [];
    sdk.im.on('MESSAGE_READ', (list) => readAtSdk.push(list));
    const sent = await sdkText(sdk, 'read me', 'ref');
    await refHistory('sdk');
    await call((o) => GoEasy.im.markMessageAsRead!(o), { type: 'private', id: 'sdk' });
    await eventually(() => readAtSdk.length > 0, 'MESSAGE_READ at the SDK');
    expect(
      readAtSdk.map((list) => list.map((m) => [m.messageId, m.scene === 'private' && m.read])),
      'MESSAGE_READ at the SDK: [messageId, read]',
    ).toEqual([[[sent.messageId, true]]]);

    const readAtRef = listen<RefMessage[]>('MESSAGE_READ');
    const mine = await refText('and you', 'sdk');
    const mineId = mine.messageId;
    await sdk.im.history({ type: 'private', id: 'ref' });
    await sdk.im.markMessageAsRead({ type: 'private', id: 'ref' });
    await eventually(() => readAtRef.length > 0, 'MESSAGE_READ at the reference');
    expect(
      readAtRef.map((list) => list.map((m) => [m.messageId, m.senderId, m.receiverId, m.read])),
      'MESSAGE_READ at the reference: [messageId, senderId, receiverId, read]',
    ).toEqual([[[mineId, 'ref', 'sdk', true]]]);
  });

  it('INTEROP-9: a recall reaches the other side as MESSAGE_RECALLED, both ways', async () => {
    const { sdk } = await setup();
    const recalledAtSdk: Message[][] = [];
    sdk.im.on('MESSAGE_RECALLED', (list) => recalledAtSdk.push(list));
    const oops = await refText('oops', 'sdk');
    await sdk.im.history({ type: 'private', id: 'ref' });
    await call((o) => GoEasy.im.recallMessage!(o), { messages: [oops] });
    await eventually(() => recalledAtSdk.length > 0, 'MESSAGE_RECALLED at the SDK');
    expect(
      recalledAtSdk.map((list) => list.map((m) => [m.messageId, m.recalled, m.recaller])),
      'MESSAGE_RECALLED at the SDK: [messageId, recalled, recaller]',
    ).toEqual([[[oops.messageId, true, { id: 'ref', data: { name: 'Ref' } }]]]);

    const recalledAtRef = listen<RefMessage[]>('MESSAGE_RECALLED');
    const mine = await sdkText(sdk, 'mine', 'ref');
    await refHistory('sdk');
    await sdk.im.recallMessage({ messages: [mine] });
    await eventually(() => recalledAtRef.length > 0, 'MESSAGE_RECALLED at the reference');
    expect(
      recalledAtRef.map((list) => list.map((m) => [m.messageId, m.recalled, m.recaller])),
      'MESSAGE_RECALLED at the reference: [messageId, recalled, recaller]',
    ).toEqual([[[mine.messageId, true, { id: 'sdk', data: { name: 'sdk' } }]]]);
  });

  it('INTEROP-20: a message the reference deletes leaves its history, not the SDK’s', async () => {
    const { sdk } = await setup();
    const kept = await refText('keep me', 'sdk');
    const gone = await refText('delete me', 'sdk');
    await call((o) => GoEasy.im.deleteMessage!(o), { messages: [gone] });
    expect(
      (await refHistory('sdk')).map((m) => m.messageId),
      'im.history at the reference after deleteMessage: messageId',
    ).toEqual([kept.messageId]);
    expect(
      (await sdk.im.history({ type: 'private', id: 'ref', limit: 10 })).map((m) => m.messageId),
      'SDK history after the reference deleted: messageId',
    ).toEqual([kept.messageId, gone.messageId]);
  });

  it('INTEROP-10: group subscribe and group messages both ways', async () => {
    const { sdk } = await setup();
    await call((o) => GoEasy.im.subscribeGroup!(o), { groupIds: ['g1'] });
    await sdk.im.subscribeGroup({ groupIds: ['g1'] });
    const atRef = listen<RefMessage>('GROUP_MESSAGE_RECEIVED');
    const atSdk: Message[] = [];
    sdk.im.on('GROUP_MESSAGE_RECEIVED', (m) => atSdk.push(m));
    const fromSdk = await sdk.im.sendMessage({
      message: sdk.im.createTextMessage({ text: 'hi group', to: { type: 'group', id: 'g1' } }),
    });
    const fromRef = await refSend(
      GoEasy.im.createTextMessage!({ text: 'hi all', to: { type: 'group', id: 'g1', data: { name: 'G1' } } }),
    );
    await eventually(() => atRef.length === 1, 'GROUP_MESSAGE_RECEIVED at the reference');
    await eventually(() => atSdk.length === 1, 'GROUP_MESSAGE_RECEIVED at the SDK');
    expect(
      atRef.map((m) => [m.messageId, m.groupId, m.senderId, m.senderData, m.type, m.payload]),
      'GROUP_MESSAGE_RECEIVED at the reference: [messageId, groupId, senderId, senderData, type, payload]',
    ).toEqual([[fromSdk.messageId, 'g1', 'sdk', { name: 'sdk' }, 'text', { text: 'hi group' }]]);
    expect(
      atSdk.map((m) => [
        m.messageId,
        m.scene === 'group' && m.groupId,
        m.senderId,
        m.scene === 'group' && m.senderData,
      ]),
      'GROUP_MESSAGE_RECEIVED at the SDK: [messageId, groupId, senderId, senderData]',
    ).toEqual([[fromRef.messageId, 'g1', 'ref', { name: 'Ref' }]]);
    expect(
      atSdk.map((m) => [m.type, m.payload]),
      'GROUP_MESSAGE_RECEIVED at the SDK: [type, payload]',
    ).toEqual([['text', { text: 'hi all' }]]);
  });

  it('INTEROP-11: user presence of a Parley user at the reference', async () => {
    const { url } = await setup();
    const events = listen<Record<string, unknown>>('USER_PRESENCE');
    await call((o) => GoEasy.im.subscribeUserPresence!(o), { userIds: ['carol'] });
    const carol = await parley(url, 'carol');
    await eventually(() => events.length === 1, 'USER_PRESENCE at the reference (online)');
    expect(events[0], 'USER_PRESENCE (online): {id, action, data, time}').toEqual({
      id: 'carol',
      action: 'online',
      data: { name: 'carol' },
      time: expect.any(Number),
    });
    await carol.disconnect();
    await eventually(() => events.length === 2, 'USER_PRESENCE at the reference (offline)');
    expect(events[1], 'USER_PRESENCE (offline): {id, action, data, time}').toEqual({
      id: 'carol',
      action: 'offline',
      data: { name: 'carol' },
      time: expect.any(Number),
    });
  });

  it('INTEROP-21: here-now names the online users among those asked', async () => {
    const { url } = await setup();
    await parley(url, 'carol');
    const here = await call((o) => GoEasy.im.hereNow!(o), { userIds: ['carol', 'dave'] });
    // The reference hands onSuccess the server's ack as it came, envelope included.
    expect(here, 'im.hereNow onSuccess: {code, resultCode, content: [{id, data}]}').toEqual({
      code: 200,
      resultCode: 200,
      content: [{ id: 'carol', data: { name: 'carol' } }],
    });
  });
  it('INTEROP-23: what was pushed to the reference while its link was dying reaches it when it comes back (IM-24)', async () => {
    const { url, port, server } = await startServer({ apps: [OPEN_APP] });
    const sockets = watchServerSockets(server);
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
    const sdk = await parley(url, 'sdk');
    const got = listen<RefMessage>('PRIVATE_MESSAGE_RECEIVED');
    const reference = () => sockets.find((s) => s.userId === 'ref' && !s.closed);
    const acked = (id: string) => reference()?.received.some((r) => r.event === 'imAck' && r.params.publishGuid === id);
    const before = await sdkText(sdk, 'before', 'ref');
    await eventually(() => acked(before.messageId) === true, 'imAck from the reference (before)');

    referenceLink.freeze();
    const lost = [await sdkText(sdk, 'lost 1', 'ref'), await sdkText(sdk, 'lost 2', 'ref')];
    const pushed = (id: string) => reference()?.sent.some((p) => p.event === 'imMessage' && p.payload.i === id);
    await eventually(() => lost.every((m) => pushed(m.messageId) === true), 'imMessage pushes to the frozen link');
    referenceLink.lose();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnecting', "getConnectionStatus() 'reconnecting'");
    expect(texts(got), 'PRIVATE_MESSAGE_RECEIVED while the link is down').toEqual(['before']);
    referenceLink.restore();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnected', "getConnectionStatus() 'reconnected'");
    await eventually(() => got.length >= 3, 'PRIVATE_MESSAGE_RECEIVED after the reconnect');
    expect(texts(got)).toEqual(['before', 'lost 1', 'lost 2']);
  });
});
