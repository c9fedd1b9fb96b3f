import { describe, expect, it } from 'vitest';
import { createClient, type Message } from '../../src/index.js';
import { FakeServer } from '../support/fake-server.js';
import { fakeIm } from '../support/fake-im.js';

async function im() {
  const server = new FakeServer();
  fakeIm(server, 'me');
  const client = createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
  await client.connect({ id: 'me', data: {} });
  return client.im;
}

const to = { type: 'private' as const, id: 'bob' };

describe('IM validation (product spec §5, the spec messages verbatim)', () => {
  it.each([
    [{ text: '', to }, 'text is empty'],
    [{ text: '   ', to }, 'text is empty'],
    [{ text: 5, to }, 'text is empty'],
    [{ text: 'x'.repeat(2501), to }, 'Message text over max length 2500'],
    [{ text: 'hi' }, 'message require property to.'],
    [{ text: 'hi', to: 'bob' }, 'message require property to.'],
    [{ text: 'hi', to: { type: 'room', id: 'x' } }, 'scene not support'],
    [{ text: 'hi', to: { type: 'private', id: '' } }, 'id could not be empty.'],
    [{ text: 'hi', to: { type: 'private', id: 'bob', data: 'x' } }, 'TypeError: data requires an object.'],
    [{ text: 'hi', to: { type: 'private', id: 'me' } }, 'to.id can not be the same as your id.'],
    [{ text: 'hi', to: { type: 'group', id: 'me' } }, 'to.id can not be the same as your id.'],
    [{ text: 'hi', to: { type: 'cs', id: 'me' } }, 'to.id can not be the same as your id.'],
  ])('createTextMessage(%j) -> %s', async (options, content) => {
    const api = await im();
    expect(() => api.createTextMessage(options as never)).toThrow(expect.objectContaining({ code: 400, content }));
  });

  it('accepts 2500 characters and numbers as ids', async () => {
    const api = await im();
    expect(api.createTextMessage({ text: 'x'.repeat(2500), to: { type: 'group', id: 7 } })).toMatchObject({
      groupId: '7',
    });
  });

  it.each([
    [{ type: '', payload: { a: 1 }, to }, 'type is empty.'],
    [{ type: 'order', payload: undefined, to }, 'payload is empty.'],
    [{ type: 'order', payload: '', to }, 'payload is empty.'],
    [{ type: 'order', payload: {}, to }, 'payload is empty.'],
    [{ type: 'order', payload: [1], to }, 'payload is empty.'],
  ])('createCustomMessage(%j) -> %s', async (options, content) => {
    const api = await im();
    expect(() => api.createCustomMessage(options as never)).toThrow(expect.objectContaining({ code: 400, content }));
  });

  it('custom payloads may be an object, a string or a number', async () => {
    const api = await im();
    for (const payload of [{ id: 1 }, 'text', 42]) {
      expect(api.createCustomMessage({ type: 'order', payload, to }).payload).toEqual(payload);
    }
  });

  it('a payload over 3 KB of JSON is refused at send', async () => {
    const api = await im();
    const message = api.createCustomMessage({ type: 'blob', payload: { s: 'x'.repeat(3100) }, to });
    await expect(api.sendMessage({ message })).rejects.toMatchObject({
      code: 400,
      content: 'message-length limit 3kb',
    });
    // IMC-2: refused at send like any refused send, it ends `fail` and stays in the history as such.
    expect(message.status).toBe('fail');
    const held = await api.history({ type: to.type, id: to.id });
    expect(held.map((m) => [m.messageId, m.status])).toEqual([[message.messageId, 'fail']]);
    await expect(api.sendMessage({ message })).rejects.toMatchObject({ code: 400 });
  });

  it('IM-27: the type counts towards the 3 KB', async () => {
    const api = await im();
    const payload = { s: 'x' };
    const room = 3072 - JSON.stringify(payload).length;
    // In UTF-8 bytes, as the payload is counted: é is two.
    const over = api.createCustomMessage({ type: `é${'k'.repeat(room - 1)}`, payload, to });
    await expect(api.sendMessage({ message: over })).rejects.toMatchObject({ content: 'message-length limit 3kb' });
    const fits = api.createCustomMessage({ type: `é${'k'.repeat(room - 2)}`, payload, to });
    expect((await api.sendMessage({ message: fits })).status).toBe('success');
  });

  it('recall and delete batches', async () => {
    const api = await im();
    const sent: Message[] = [];
    for (let i = 0; i < 21; i++) {
      const message = api.createTextMessage({ text: `m${i}`, to });
      sent.push(await api.sendMessage({ message }));
    }
    await expect(api.recallMessage({ messages: [] })).rejects.toMatchObject({
      content: 'messages requires non empty array',
    });
    await expect(api.recallMessage({ messages: sent })).rejects.toMatchObject({
      content: 'The maximum number of messages is 20',
    });
    const other = api.createTextMessage({ text: 'x', to: { type: 'private', id: 'carol' } });
    await expect(api.deleteMessage({ messages: [sent[0] as Message, other] })).rejects.toMatchObject({
      content: 'messages must belong to one conversation',
    });
    const fresh = api.createTextMessage({ text: 'new', to });
    await expect(api.recallMessage({ messages: [fresh] })).rejects.toMatchObject({
      content: 'message[0] is new and cannot be recalled',
    });
    // Never sent, so kept nowhere: nothing to delete.
    await expect(api.deleteMessage({ messages: [fresh] })).rejects.toMatchObject({
      code: 400,
      content: 'No message that could be deleted',
    });
    const sending = api.createTextMessage({ text: 'sending', to });
    void api.sendMessage({ message: sending });
    await expect(api.deleteMessage({ messages: [sending] })).rejects.toMatchObject({
      content: 'a message in sending status cannot be deleted',
    });
    const cs = { ...(sent[0] as Message), scene: 'cs' } as unknown as Message;
    await expect(api.recallMessage({ messages: [cs] })).rejects.toMatchObject({
      content: 'Recall CS message is not supported yet.',
    });
    await expect(api.deleteMessage({ messages: [cs] })).rejects.toMatchObject({
      content: 'Delete CS message is not supported yet',
    });
  });

  it('conversation operations', async () => {
    const api = await im();
    await expect(api.topConversation({ conversation: null, top: true })).rejects.toMatchObject({
      content: 'Incorrect conversation object.',
    });
    await expect(
      api.topConversation({ conversation: { type: 'private', userId: 'bob' }, top: 'yes' as never }),
    ).rejects.toMatchObject({
      content: 'top must be boolean.',
    });
    await expect(api.removeConversation({ conversation: { type: 'private', userId: 'nobody' } })).rejects.toMatchObject(
      {
        content: 'conversation does not exist',
      },
    );
  });

  it.each([
    [[], 'ids requires non empty array'],
    [['a', 'a'], 'ids can not be duplicated'],
    [['a', ' '], 'ids can not contain empty item'],
    [Array.from({ length: 301 }, (_, i) => `g${i}`), 'ids over max length 300'],
  ])('id arrays %#: %s', async (groupIds, content) => {
    const api = await im();
    await expect(api.subscribeGroup({ groupIds })).rejects.toMatchObject({ code: 400, content });
    await expect(api.hereNow({ userIds: groupIds })).rejects.toMatchObject({ code: 400, content });
  });

  it('single ids', async () => {
    const api = await im();
    await expect(api.unsubscribeGroup({ groupId: '' })).rejects.toMatchObject({
      content: 'groupId could not be empty.',
    });
    await expect(api.unsubscribeUserPresence({ userId: '' })).rejects.toMatchObject({
      content: 'userId could not be empty.',
    });
    await expect(api.history({ type: 'private', id: '' })).rejects.toMatchObject({ content: 'id could not be empty.' });
  });

  it('IM needs a connection and the im module', async () => {
    const server = new FakeServer();
    const client = createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
    expect(() => client.im.createTextMessage({ text: 'hi', to })).toThrow(
      expect.objectContaining({ code: 409, content: 'Please call connect() first.' }),
    );
    await expect(client.im.latestConversations()).rejects.toMatchObject({ content: 'Please call connect() first.' });
    const pubsubOnly = createClient({ host: 'h', appkey: 'k', modules: ['pubsub'], transport: server.transport });
    expect(() => pubsubOnly.im).toThrow(expect.objectContaining({ code: 400 }));
  });
});
