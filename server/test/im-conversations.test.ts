import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { OPEN_APP, request, startServer } from './helpers.js';
import { collect, content, login, next, send, settled } from './im-support.js';

interface Conversation {
  t: string;
  top: boolean;
  d: string;
  userOffsets: Array<{ userId: string; offset: number }>;
  lmsg: Record<string, unknown>;
  unread: number;
}

const list = (socket: Parameters<typeof content>[0]) => content<Conversation[]>(socket, 'imLastConversations', {});

describe('IM: conversations', () => {
  it('IM-6, IM-16: lists topped first, then newest, with data, offsets, last message and exact unread', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob', { userData: JSON.stringify({ name: 'Bob', avatar: 'b.png' }) });
    const carol = await login(url, 'carol');
    expect(await list(alice)).toEqual([]);
    const fromBob = [await send(bob, 'alice'), await send(bob, 'alice')];
    await send(alice, 'carol', { d: JSON.stringify({ name: 'Carol (friend)' }) });
    const fromCarol = await send(carol, 'alice', {
      p: JSON.stringify({ text: 'newest' }),
      d: JSON.stringify({ name: 'Alice (friend)' }),
    });
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    const inGroup = await send(bob, 'g1', { t: 'group', d: JSON.stringify({ name: 'Group One' }) });

    const first = await list(alice);
    expect(first.map((c) => [c.t, c.lmsg['r'] === 'alice' ? c.lmsg['s'] : c.lmsg['r']])).toEqual([
      ['group', 'g1'],
      ['private', 'carol'],
      ['private', 'bob'],
    ]);
    expect(first[0]).toEqual({
      t: 'group',
      top: false,
      d: '{"name":"Group One"}',
      userOffsets: [],
      lmsg: {
        t: 'group',
        r: 'g1',
        s: 'bob',
        i: expect.any(String),
        ts: inGroup,
        mt: 'text',
        p: '{"text":"hello"}',
        d: '{"name":"Bob","avatar":"b.png"}',
      },
      unread: 1,
    });
    // Alice's row for carol: carol's own data, from carol's newest message (it replaced what alice gave in `d`).
    expect(first[1]).toMatchObject({ d: '{"name":"carol"}', unread: 1, lmsg: { s: 'carol', ts: fromCarol } });
    expect(first[1]?.lmsg['d']).toBeUndefined();
    expect(first[2]).toMatchObject({
      d: '{"name":"Bob","avatar":"b.png"}',
      unread: 2,
      userOffsets: [{ userId: 'bob', offset: fromBob[1] }],
    });
    // The sender's own row carries the data the sender gave in publishIM `d`.
    expect((await list(carol)).find((c) => c.t === 'private')).toMatchObject({ d: '{"name":"Alice (friend)"}' });

    await content(alice, 'topConversation', { type: 'private', top: true, targetId: 'bob' });
    const topped = await list(alice);
    expect(topped.map((c) => c.top)).toEqual([true, false, false]);
    expect(topped[0]?.lmsg['s']).toBe('bob');
  });

  it('IM-11: mark as read resets unread and tells the other side and my other devices', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const carolGot = collect(carol, 'IM_MSG_READ');
    const askerGot = collect(alice, 'IM_MSG_READ');
    await send(bob, 'alice');
    const last = await send(bob, 'alice');
    expect((await list(alice))[0]?.unread).toBe(2);
    const pushes = [bob, alicePhone].map((s) => next(s, 'IM_MSG_READ'));
    expect(await request(alice, 'IM_MARK_AS_READ', { id: 'bob', scene: 'private', lastTimestamp: last })).toEqual({
      code: 200,
      resultCode: 200,
      content: null,
    });
    const expected = { scene: 'private', targetId: 'bob', markerId: 'alice', time: last };
    expect(await Promise.all(pushes)).toEqual([expected, expected]);
    expect((await list(alice))[0]).toMatchObject({
      unread: 0,
      userOffsets: [
        { userId: 'alice', offset: last },
        { userId: 'bob', offset: last },
      ],
    });
    // Offsets never move back.
    await content(alice, 'IM_MARK_AS_READ', { id: 'bob', scene: 'private', lastTimestamp: 1 });
    expect((await list(alice))[0]?.userOffsets[0]).toEqual({ userId: 'alice', offset: last });
    await settled(carol, alice);
    expect(carolGot).toEqual([]);
    expect(askerGot).toEqual([]);
    // Recalled and deleted messages are not unread.
    const recalled = await send(bob, 'alice');
    const deleted = await send(bob, 'alice');
    await send(bob, 'alice');
    await content(bob, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'alice', times: [recalled] });
    await content(alice, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'bob', times: [deleted] });
    expect((await list(alice))[0]?.unread).toBe(1);
  });

  it('IM-18: remove hides a conversation until its next message, and unpins it', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    await send(bob, 'alice');
    await content(alice, 'topConversation', { type: 'private', targetId: 'bob', top: true });
    await content(alice, 'removeConversation', { type: 'private', targetId: 'bob' });
    expect(await list(alice)).toEqual([]);
    expect(await list(bob)).toHaveLength(1);
    const ts = await send(bob, 'alice');
    expect(await list(alice)).toEqual([
      expect.objectContaining({ top: false, unread: 2, lmsg: expect.objectContaining({ ts }) }),
    ]);
  });

  it('IM-9, IM-16: a group is listed to its members only', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    for (const socket of [alice, bob]) await content(socket, 'subscribeGroups', { groupIds: ['g1'] });
    await send(alice, 'g1', { t: 'group' });
    expect(await list(bob)).toHaveLength(1);
    await content(bob, 'unsubscribeGroup', { groupId: 'g1' });
    await send(alice, 'g1', { t: 'group' });
    expect(await list(bob)).toEqual([]);
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    expect(await list(bob)).toEqual([expect.objectContaining({ t: 'group', unread: 2 })]);
  });

  it('IM-16: a conversation whose every message I deleted is not listed', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const ts = await send(alice, 'bob');
    await content(alice, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'bob', times: [ts] });
    expect(await list(alice)).toEqual([]);
  });

  it('IM-17, IM-18: top and remove need an existing conversation', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    expect(await request(alice, 'topConversation', { type: 'private', top: true, targetId: 'nobody' })).toEqual({
      code: 400,
      resultCode: 400,
      content: MESSAGES.conversationNotFound,
    });
    expect(await request(alice, 'removeConversation', { type: 'group', targetId: 'g0' })).toMatchObject({
      code: 400,
      content: MESSAGES.conversationNotFound,
    });
    expect(await request(alice, 'topConversation', { type: 'private', top: 'yes', targetId: 'x' })).toMatchObject({
      code: 400,
      content: MESSAGES.topNotBoolean,
    });
    const reader = await login(url, 'bob', { appkey: OPEN_APP.subscribeKey });
    expect(await request(reader, 'topConversation', { type: 'private', top: true, targetId: 'x' })).toMatchObject({
      code: 401,
    });
  });

  it('IM-19: imData answers the conversation data as a JSON string', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob', { userData: JSON.stringify({ name: 'Bob' }) });
    expect(await content(alice, 'imData', { type: 'private', targetId: 'bob' })).toBe('{"name":"Bob"}');
    expect(await content(alice, 'imData', { type: 'private', targetId: 'stranger' })).toBe('{}');
    expect(await content(alice, 'imData', { type: 'group', targetId: 'g9' })).toBe('{}');
    await content(bob, 'subscribeGroups', { groupIds: ['g9'] });
    await content(alice, 'subscribeGroups', { groupIds: ['g9'] });
    await send(bob, 'g9', { t: 'group', d: '{"name":"Nine"}' });
    expect(await content(alice, 'imData', { type: 'group', targetId: 'g9' })).toBe('{"name":"Nine"}');
  });

  it('IM-1: MD_CMD answers the stored data of known ids', async () => {
    const { url } = await startServer();
    await login(url, 'bob', { userData: JSON.stringify({ name: 'Bob' }) });
    const alice = await login(url, 'alice');
    expect(await content(alice, 'MD_CMD', { name: 'GET', data: { ids: ['bob', 'alice', 'ghost'] } })).toEqual([
      { id: 'bob', data: { name: 'Bob' } },
      { id: 'alice', data: { name: 'alice' } },
    ]);
    await login(url, 'bob', { userData: JSON.stringify({ name: 'Robert' }) });
    expect(await content(alice, 'MD_CMD', { name: 'GET', data: { ids: ['bob'] } })).toEqual([
      { id: 'bob', data: { name: 'Robert' } },
    ]);
    expect(await request(alice, 'MD_CMD', { name: 'PUT', data: { ids: ['bob'] } })).toMatchObject({ code: 400 });
  });
});
