import { describe, expect, it } from 'vitest';
import { createClient, type Message, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { GoEasy, call, connectReference, eventually } from './support.js';

/** A message as the reference client hands it to the app. */
interface RefMessage {
  messageId: string;
  senderId: string;
  receiverId?: string;
  groupId?: string;
  type: string;
  payload: unknown;
  timestamp: number;
  status: string;
  recalled: boolean;
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

    const text = GoEasy.im.createTextMessage!({
      text: 'hello sdk',
      to: { type: 'private', id: 'sdk', data: { name: 'SDK' } },
    });
    const sent = await refSend(text);
    expect(sent).toMatchObject({ status: 'success', senderId: 'ref' });
    const custom = GoEasy.im.createCustomMessage!({
      type: 'order',
      payload: { id: 7 },
      to: { type: 'private', id: 'sdk', data: {} },
    });
    await refSend(custom);
    await eventually(() => atSdk.length === 2, 'the SDK to receive both');
    expect(atSdk.map((m) => [m.senderId, m.type, m.payload])).toEqual([
      ['ref', 'text', { text: 'hello sdk' }],
      ['ref', 'order', { id: 7 }],
    ]);
    expect(atSdk[0]?.timestamp).toBe(sent.timestamp);

    await sdk.im.sendMessage({
      message: sdk.im.createTextMessage({ text: 'hello ref', to: { type: 'private', id: 'ref' } }),
    });
    await sdk.im.sendMessage({
      message: sdk.im.createCustomMessage({ type: 'gift', payload: 'rose', to: { type: 'private', id: 'ref' } }),
    });
    await eventually(() => atRef.length === 2, 'the reference to receive both');
    expect(atRef.map((m) => [m.senderId, m.receiverId, m.type, m.payload])).toEqual([
      ['sdk', 'ref', 'text', { text: 'hello ref' }],
      ['sdk', 'ref', 'gift', 'rose'],
    ]);
  });

  it('INTEROP-7: history paging and latest conversations with unread counts', async () => {
    const { sdk } = await setup();
    for (let i = 1; i <= 12; i++) {
      await sdk.im.sendMessage({
        message: sdk.im.createTextMessage({ text: `m${i}`, to: { type: 'private', id: 'ref' } }),
      });
    }
    const page = await call<{ content: RefMessage[] }>((o) => GoEasy.im.history!(o), {
      type: 'private',
      id: 'sdk',
      limit: 5,
    });
    expect(page.content.map((m) => (m.payload as { text: string }).text)).toEqual(['m8', 'm9', 'm10', 'm11', 'm12']);
    const older = await call<{ content: RefMessage[] }>((o) => GoEasy.im.history!(o), {
      type: 'private',
      id: 'sdk',
      lastTimestamp: page.content[0]?.timestamp,
      limit: 10,
    });
    expect(older.content.map((m) => (m.payload as { text: string }).text)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    const list = await call<{
      content: { unreadTotal: number; conversations: Array<{ userId: string; unread: number }> };
    }>((o) => GoEasy.im.latestConversations!(o));
    expect(list.content.conversations[0]).toMatchObject({ userId: 'sdk' });
    expect(list.content.unreadTotal).toBeGreaterThan(0);
  });

  it('INTEROP-8: a read mark by the reference reaches the SDK as MESSAGE_READ, and back', async () => {
    const { sdk } = await setup();
    const read: Message[][] = [];
    sdk.im.on('MESSAGE_READ', (list) => read.push(list));
    const sent = await sdk.im.sendMessage({
      message: sdk.im.createTextMessage({ text: 'read me', to: { type: 'private', id: 'ref' } }),
    });
    await call((o) => GoEasy.im.history!(o), { type: 'private', id: 'sdk', limit: 10 });
    await call((o) => GoEasy.im.markMessageAsRead!(o), { type: 'private', id: 'sdk' });
    await eventually(() => read.length > 0, 'MESSAGE_READ at the SDK');
    expect(read[0]?.map((m) => m.messageId)).toEqual([sent.messageId]);

    const atRef = listen<RefMessage[]>('MESSAGE_READ');
    await refSend(GoEasy.im.createTextMessage!({ text: 'and you', to: { type: 'private', id: 'sdk', data: {} } }));
    await sdk.im.history({ type: 'private', id: 'ref' });
    await sdk.im.markMessageAsRead({ type: 'private', id: 'ref' });
    await eventually(() => atRef.length > 0, 'MESSAGE_READ at the reference');
  });

  it('INTEROP-9: recall and delete', async () => {
    const { sdk } = await setup();
    const recalledAtSdk: Message[][] = [];
    sdk.im.on('MESSAGE_RECALLED', (list) => recalledAtSdk.push(list));
    const oops = await refSend(
      GoEasy.im.createTextMessage!({ text: 'oops', to: { type: 'private', id: 'sdk', data: {} } }),
    );
    await sdk.im.history({ type: 'private', id: 'ref' });
    await call((o) => GoEasy.im.recallMessage!(o), { messages: [oops] });
    await eventually(() => recalledAtSdk.length > 0, 'the recall at the SDK');
    expect(recalledAtSdk[0]?.[0]).toMatchObject({ messageId: oops.messageId, recalled: true, recaller: { id: 'ref' } });

    const recalledAtRef = listen<RefMessage[]>('MESSAGE_RECALLED');
    const mine = await sdk.im.sendMessage({
      message: sdk.im.createTextMessage({ text: 'mine', to: { type: 'private', id: 'ref' } }),
    });
    await call((o) => GoEasy.im.history!(o), { type: 'private', id: 'sdk', limit: 10 });
    await sdk.im.recallMessage({ messages: [mine] });
    await eventually(() => recalledAtRef.length > 0, 'the recall at the reference');

    const kept = await refSend(
      GoEasy.im.createTextMessage!({ text: 'delete me', to: { type: 'private', id: 'sdk', data: {} } }),
    );
    await call((o) => GoEasy.im.deleteMessage!(o), { messages: [kept] });
    const refHistory = await call<{ content: RefMessage[] }>((o) => GoEasy.im.history!(o), {
      type: 'private',
      id: 'sdk',
      limit: 10,
    });
    expect(refHistory.content.map((m) => m.messageId)).not.toContain(kept.messageId);
    const sdkHistory = await sdk.im.history({ type: 'private', id: 'ref', limit: 10 });
    expect(sdkHistory.map((m) => m.messageId)).toContain(kept.messageId);
  });

  it('INTEROP-10: group subscribe and group messages both ways', async () => {
    const { sdk } = await setup();
    await call((o) => GoEasy.im.subscribeGroup!(o), { groupIds: ['g1'] });
    await sdk.im.subscribeGroup({ groupIds: ['g1'] });
    const atRef = listen<RefMessage>('GROUP_MESSAGE_RECEIVED');
    const atSdk: Message[] = [];
    sdk.im.on('GROUP_MESSAGE_RECEIVED', (m) => atSdk.push(m));
    await sdk.im.sendMessage({
      message: sdk.im.createTextMessage({ text: 'hi group', to: { type: 'group', id: 'g1' } }),
    });
    await refSend(
      GoEasy.im.createTextMessage!({ text: 'hi all', to: { type: 'group', id: 'g1', data: { name: 'G1' } } }),
    );
    await eventually(() => atRef.length === 1 && atSdk.length === 1, 'both group messages');
    expect(atRef[0]).toMatchObject({ groupId: 'g1', senderId: 'sdk', payload: { text: 'hi group' } });
    expect(atSdk[0]).toMatchObject({ groupId: 'g1', senderId: 'ref', senderData: { name: 'Ref' } });
  });

  it('INTEROP-11: user presence', async () => {
    const { url } = await setup();
    const events = listen<{ id: string; action: string }>('USER_PRESENCE');
    await call((o) => GoEasy.im.subscribeUserPresence!(o), { userIds: ['carol'] });
    const carol = await parley(url, 'carol');
    await eventually(() => events.some((e) => e.id === 'carol' && e.action === 'online'), 'online');
    const here = await call<{ content: Array<{ id: string }> }>((o) => GoEasy.im.hereNow!(o), {
      userIds: ['carol', 'dave'],
    });
    expect(here.content.map((u) => u.id)).toEqual(['carol']);
    await carol.disconnect();
    await eventually(() => events.some((e) => e.id === 'carol' && e.action === 'offline'), 'offline');
  });
});
