import { describe, expect, it, vi } from 'vitest';
import { ParleyError, type ConversationList, type Message } from '../../src/index.js';
import { fakeIm } from '../support/fake-im.js';
import { fakeSetup } from '../support/setup.js';
import { useFakeClock } from '../support/clock.js';

const tick = useFakeClock();

async function connectedIm() {
  const setup = fakeSetup({ modules: ['im'], random: () => 0.5 });
  const im = fakeIm(setup.server, 'me');
  await Promise.all([setup.client.connect({ id: 'me', data: { name: 'Me' } }), tick()]);
  return { ...setup, fake: im, im: setup.client.im };
}

function collect<T>(subscribe: (fn: (value: T) => void) => unknown): T[] {
  const seen: T[] = [];
  subscribe((value) => seen.push(value));
  return seen;
}

describe('IM flows on the fake server', () => {
  it('IMC-1: a message id begins with its creation time, so that a message created later has a later id', async () => {
    const { im } = await connectedIm();
    const at = Date.UTC(2026, 10, 25, 12);
    vi.setSystemTime(at);
    const first = im.createTextMessage({ text: 'a', to: { type: 'group', id: 'g1' } });
    await tick(1);
    const second = im.createTextMessage({ text: 'b', to: { type: 'private', id: 'bob' } });
    expect(first.messageId.slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    expect(second.messageId.slice(0, 12)).toBe((at + 1).toString(16).padStart(12, '0'));
    expect(first.messageId < second.messageId).toBe(true);
  });

  it('IMC-1: a sent message goes new -> sending -> success with the server timestamp', async () => {
    const { im, server } = await connectedIm();
    const message = im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'bob', data: { name: 'Bob' } } });
    expect(message).toMatchObject({
      status: 'new',
      scene: 'private',
      senderId: 'me',
      receiverId: 'bob',
      payload: { text: 'hi' },
    });
    const sending = im.sendMessage({ message });
    expect(message.status).toBe('sending');
    const sent = await sending;
    expect(sent).toBe(message);
    expect(message).toMatchObject({ status: 'success', timestamp: 1001 });
    expect(server.requests('publishIM')[0]?.params).toEqual({
      mt: 'text',
      to: 'bob',
      d: '{"name":"Bob"}',
      p: '{"text":"hi"}',
      t: 'private',
      guid: message.messageId,
      retried: 0,
    });
    expect(message.messageId).toMatch(/^[0-9a-f]{32}$/);
    await expect(im.sendMessage({ message })).rejects.toMatchObject({
      code: 400,
      content: 'Please create a new message, a message can only be sent once',
    });
  });

  it('IM-26: a message created with a notification sends it as nt; one over its limits is refused at creation', async () => {
    const { im, server } = await connectedIm();
    const to = { type: 'group', id: 'g1' } as const;
    const notification = { title: 'New message', body: 'Alice: hi', badge: 2 };
    await im.sendMessage({ message: im.createTextMessage({ text: 'hi', to, notification }) });
    await im.sendMessage({ message: im.createCustomMessage({ type: 'poke', payload: 1, to, notification }) });
    await im.sendMessage({ message: im.createTextMessage({ text: 'plain', to }) });
    const sent = server.requests('publishIM').map((r) => (r.params as { nt?: unknown }).nt);
    expect(sent).toEqual([notification, notification, undefined]);
    expect(() => im.createTextMessage({ text: 'hi', to, notification: { title: 'x'.repeat(33) } })).toThrow(
      expect.objectContaining({ code: 400, content: 'notification title over max length 32.' }),
    );
    expect(() => im.createTextMessage({ text: 'hi', to, notification: { body: 'x'.repeat(51) } })).toThrow(
      expect.objectContaining({ code: 400, content: 'notification body over max length 50.' }),
    );
    expect(() =>
      im.createImageMessage({
        file: new File([new Uint8Array(4)], 'a.png', { type: 'image/png' }),
        to,
        notification: 'soon' as never,
      }),
    ).toThrow(expect.objectContaining({ code: 400, content: 'notification must be an object.' }));
  });

  it('IMC-2: a refused send ends in fail and rejects with the server error', async () => {
    const { im, server } = await connectedIm();
    server.handle('publishIM', () => ({ code: 401, resultCode: 401, content: 'No permission' }));
    const message = im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'bob' } });
    const error = await im.sendMessage({ message }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 401 });
    expect(message.status).toBe('fail');
    const history = await im.history({ type: 'private', id: 'bob' });
    expect(history.at(-1)).toMatchObject({ messageId: message.messageId, status: 'fail' });
  });

  it('IMC-3: messages sent while the link is down wait and go out in order after the reconnect', async () => {
    const { im, server, fake } = await connectedIm();
    server.down = true;
    server.dropAll();
    const messages = ['one', 'two', 'three'].map((text) =>
      im.createTextMessage({ text, to: { type: 'private', id: 'bob' } }),
    );
    const sends = messages.map((message) => im.sendMessage({ message }));
    await tick(3000);
    expect(messages.map((m) => m.status)).toEqual(['sending', 'sending', 'sending']);
    expect(server.requests('publishIM')).toHaveLength(0);
    server.down = false;
    await tick(5000);
    await Promise.all(sends);
    expect(fake.stored.map((m) => JSON.parse(m.p) as unknown)).toEqual([
      { text: 'one' },
      { text: 'two' },
      { text: 'three' },
    ]);
    expect(messages.map((m) => m.timestamp)).toEqual([1001, 1002, 1003]);
  });

  it('IMC-4: a pushed message fires its event once, is acked, and lands in history and the list', async () => {
    const { im, server, fake } = await connectedIm();
    await im.latestConversations();
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    const lists = collect<{ unreadTotal: number }>((fn) => im.on('CONVERSATIONS_UPDATED', fn));
    const wire = fake.fromPeer('bob', 'hello');
    server.push('imMessage', JSON.stringify(wire));
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      senderId: 'bob',
      receiverId: 'me',
      payload: { text: 'hello' },
      status: 'success',
    });
    expect(server.requests('imAck').map((r) => r.params)).toEqual([{ publishGuid: wire.i }, { publishGuid: wire.i }]);
    expect(lists.at(-1)?.unreadTotal).toBe(1);
    const history = await im.history({ type: 'private', id: 'bob' });
    expect(history.map((m) => m.messageId)).toEqual([wire.i]);
    await tick();
    const { conversations } = await im.latestConversations();
    expect(conversations[0]).toMatchObject({ type: 'private', userId: 'bob', unread: 1, data: { name: 'bob' } });
  });

  it('IMC-5: history pages come from the server, then from the cache', async () => {
    const { im, server, fake } = await connectedIm();
    for (let i = 1; i <= 25; i++) fake.fromPeer('bob', `m${i}`, false);
    const newest = await im.history({ type: 'private', id: 'bob' });
    expect(newest.map((m) => (m.payload as { text: string }).text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 16}`),
    );
    const older = await im.history({ type: 'private', id: 'bob', lastTimestamp: newest[0]?.timestamp, limit: 30 });
    expect(older).toHaveLength(15);
    expect(older.at(-1)?.timestamp).toBeLessThan(newest[0]?.timestamp ?? 0);
    const asked = server.requests('IM_HISTORY').length;
    const again = await im.history({ type: 'private', id: 'bob', limit: 20 });
    expect(again).toHaveLength(20);
    expect(server.requests('IM_HISTORY')).toHaveLength(asked);
    expect(server.requests('IM_HISTORY')[0]?.params).toEqual({ id: 'bob', scene: 'private', limit: 10 });
  });

  it('IMC-5: a history limit that is not a number asks for the default page; a number is rounded into 1..30', async () => {
    const { im, server } = await connectedIm();
    const asked = () => server.requests('IM_HISTORY').at(-1)?.params as { limit: number };
    const cases = [
      ['5', 10],
      [{}, 10],
      [Object.create(null), 10],
      [Number.NaN, 10],
      [Number.POSITIVE_INFINITY, 10],
      [2.9, 2],
      [0, 1],
      [1000, 30],
    ] as const;
    for (const [i, [limit, sent]] of cases.entries()) {
      // A group of its own each time: a page already cached would not be asked for.
      await im.history({ type: 'group', id: `g${i}`, limit: limit as never });
      expect(server.requests('IM_HISTORY'), `case ${i}`).toHaveLength(i + 1);
      expect(asked().limit, `case ${i}`).toBe(sent);
    }
  });

  it('IMC-6: mark as read sends the newest time and clears unread; the other side reading fires MESSAGE_READ', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'one', false);
    const last = fake.fromPeer('bob', 'two', false);
    const list = await im.latestConversations();
    expect(list.unreadTotal).toBe(2);
    await im.markMessageAsRead({ type: 'private', id: 'bob' });
    expect(server.requests('IM_MARK_AS_READ')[0]?.params).toEqual({
      id: 'bob',
      scene: 'private',
      lastTimestamp: last.ts,
    });
    expect((await im.latestConversations()).unreadTotal).toBe(0);
    const mine = im.createTextMessage({ text: 'reply', to: { type: 'private', id: 'bob' } });
    await im.sendMessage({ message: mine });
    const read = collect<Message[]>((fn) => im.on('MESSAGE_READ', fn));
    server.push('IM_MSG_READ', { scene: 'private', targetId: 'me', markerId: 'bob', time: mine.timestamp });
    expect(read).toHaveLength(1);
    expect(read[0]?.map((m) => m.messageId)).toEqual([mine.messageId]);
    expect(read[0]?.[0]).toMatchObject({ read: true });
  });

  it('IMC-7: recall and delete follow the rules and sync from pushes', async () => {
    const { im, server, fake } = await connectedIm();
    const theirs = fake.fromPeer('bob', 'theirs');
    const mine = im.createTextMessage({ text: 'mine', to: { type: 'private', id: 'bob' } });
    await im.sendMessage({ message: mine });
    const [received] = await im.history({ type: 'private', id: 'bob', limit: 2 });
    await expect(im.recallMessage({ messages: [received as Message] })).rejects.toMatchObject({
      content: 'it is not allowed to recall messages sent by others',
    });
    const recalledEvents = collect<Message[]>((fn) => im.on('MESSAGE_RECALLED', fn));
    await im.recallMessage({ messages: [mine] });
    expect(server.requests('IM_RECALL_MESSAGE')[0]?.params).toEqual({
      scene: 'private',
      targetId: 'bob',
      times: [mine.timestamp],
    });
    expect(mine).toMatchObject({ recalled: true, recaller: { id: 'me', data: { name: 'Me' } } });
    await expect(im.recallMessage({ messages: [mine] })).rejects.toMatchObject({
      content: 'message[0] has been recalled',
    });
    server.push('IM_MSG_RECALLED', {
      scene: 'private',
      conversationId: 'me:bob',
      recaller: { id: 'bob', data: {} },
      times: [theirs.ts],
    });
    expect(recalledEvents.map((list) => list.map((m) => m.recalled))).toEqual([[true], [true]]);
    const deleted = collect<Message[]>((fn) => im.on('MESSAGE_DELETED', fn));
    await im.deleteMessage({ messages: [mine] });
    expect(server.requests('IM_DELETE_MESSAGE')[0]?.params).toEqual({
      scene: 'private',
      targetId: 'bob',
      times: [mine.timestamp],
    });
    fake.deleted.add(theirs.ts);
    server.push('IM_MSG_DELETED', { scene: 'private', targetId: 'bob', deleterId: 'me', times: [theirs.ts] });
    expect(deleted).toHaveLength(2);
    expect(await im.history({ type: 'private', id: 'bob' })).toEqual([]);
  });

  it('IMC-7: a late copy of a message I deleted on another device does not bring it back', async () => {
    const { im, server, fake } = await connectedIm();
    await im.latestConversations();
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    // Deleted on my other device before its push reached this one (a push held during a re-sync, or replayed).
    const late = fake.fromPeer('bob', 'deleted already', false);
    fake.deleted.add(late.ts);
    server.push('IM_MSG_DELETED', { scene: 'private', targetId: 'bob', deleterId: 'me', times: [late.ts] });
    server.push('imMessage', late);
    await tick();
    expect(received).toEqual([]);
    expect((await im.latestConversations()).conversations).toEqual([]);
    expect(await im.history({ type: 'private', id: 'bob' })).toEqual([]);
    // The next message is new, and shows.
    const next = fake.fromPeer('bob', 'after');
    await tick();
    expect(received.map((m) => m.timestamp)).toEqual([next.ts]);
  });

  it('IMC-8: after an expired reconnect the SDK fetches what it missed, once each, in order', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'before');
    await im.history({ type: 'private', id: 'bob' });
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    server.down = true;
    server.dropAll();
    for (let i = 1; i <= 40; i++) fake.fromPeer('bob', `missed ${i}`, false);
    server.forgetSessions();
    server.down = false;
    await tick(5000);
    expect(received.map((m) => (m.payload as { text: string }).text)).toEqual(
      Array.from({ length: 40 }, (_, i) => `missed ${i + 1}`),
    );
    expect(server.requests('IM_HISTORY_CHANGE')).toHaveLength(1);
    const history = await im.history({ type: 'private', id: 'bob', limit: 30 });
    expect(new Set(history.map((m) => m.messageId)).size).toBe(30);
  });

  it('IMC-8: history, the list and read marks asked as the link comes back wait until the SDK has caught up', async () => {
    const { im, server, fake, client } = await connectedIm();
    fake.fromPeer('bob', 'before');
    await im.history({ type: 'private', id: 'bob' });
    await im.latestConversations();
    server.down = true;
    server.dropAll();
    const missed = fake.fromPeer('bob', 'missed', false);
    server.forgetSessions();
    const asked: Array<Promise<unknown>> = [];
    client.on('connectionStatus', ({ status }) => {
      if (status !== 'expired_reconnected') return;
      asked.push(im.history({ type: 'private', id: 'bob' }), im.latestConversations());
      asked.push(im.markMessageAsRead({ type: 'private', id: 'bob' }));
    });
    server.down = false;
    await tick(5000);
    expect(asked).toHaveLength(3);
    const [history, list] = (await Promise.all(asked)) as [Message[], ConversationList];
    expect(history.map((m) => m.timestamp).at(-1)).toBe(missed.ts);
    expect(list.conversations[0]?.lastMessage.timestamp).toBe(missed.ts);
    expect(server.requests('IM_MARK_AS_READ').at(-1)?.params).toMatchObject({ lastTimestamp: missed.ts });
  });

  it('IMC-8: a message pushed while the SDK catches up is not counted unread twice', async () => {
    const { im, server, fake } = await connectedIm();
    await im.latestConversations();
    fake.fromPeer('bob', 'before');
    await tick();
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    server.down = true;
    server.dropAll();
    fake.fromPeer('bob', 'missed', false);
    server.forgetSessions();
    // Pushed while the SDK asks for what changed: held until the re-sync is done, and counted by the list it reloads.
    let during: { ts: number } | undefined;
    server.handle('IM_HISTORY_CHANGE', () => {
      during ??= fake.fromPeer('bob', 'during');
      return { code: 200, resultCode: 200, content: fake.changes };
    });
    server.down = false;
    await tick(5000);
    expect(received.map((m) => (m.payload as { text: string }).text)).toEqual(['missed', 'during']);
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[during?.ts, 3]]);
    expect(list.unreadTotal).toBe(3);
  });

  it('IMC-6: a read mark from my other device that overtakes the list it answered keeps its unread count down', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'first', false);
    const second = fake.fromPeer('bob', 'second', false);
    // The list was counted before my other device read both; its mark reaches this client first.
    server.handle('imLastConversations', () => {
      server.push('IM_MSG_READ', { scene: 'private', targetId: 'bob', markerId: 'me', time: second.ts });
      const row = { t: 'private', top: false, d: '{}', userOffsets: [{ userId: 'me', offset: 0 }], lmsg: second };
      return { code: 200, resultCode: 200, content: [{ ...row, unread: 2 }] };
    });
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([0]);
  });

  it('IMC-6: a message sent while the list is on its way is on the list it gives', async () => {
    const { im, server } = await connectedIm();
    // The server counted the list before it stored the message: the answer does not know it.
    server.handle('imLastConversations', () => ({ code: 200, resultCode: 200, content: [] }));
    const loading = im.latestConversations();
    const sent = im.sendMessage({ message: im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'bob' } }) });
    await tick();
    const [list, message] = await Promise.all([loading, sent]);
    expect(list.conversations.map((c) => c.lastMessage.messageId)).toEqual([message.messageId]);
    expect((await im.latestConversations()).conversations[0]?.lastMessage).toMatchObject({ status: 'success' });
  });

  it('IMC-6: a pinned conversation left without messages comes back pinned, as the server keeps it', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'first');
    await im.latestConversations();
    await im.topConversation({ conversation: { type: 'private', userId: 'bob' }, top: true });
    const [only] = await im.history({ type: 'private', id: 'bob' });
    await im.deleteMessage({ messages: [only as Message] });
    expect((await im.latestConversations()).conversations).toEqual([]);
    expect(server.requests('IM_DELETE_MESSAGE')).toHaveLength(1);
    fake.fromPeer('bob', 'again');
    await tick();
    expect((await im.latestConversations()).conversations.map((c) => [c.type, c.top])).toEqual([['private', true]]);
  });

  it('IMC-6: a removal, a pin or a deletion made while a list is on its way is made again once it is in', async () => {
    const { im, server, fake } = await connectedIm();
    const rows = ['bob', 'carol', 'dan'].map((peer) => fake.fromPeer(peer, `from ${peer}`));
    const danNewest = fake.fromPeer('dan', 'newest');
    await tick();
    await im.latestConversations();
    // The next list is made now, before the changes below reach the server, and arrives after them.
    let release: () => void = () => undefined;
    const stale = [...rows.slice(0, 2), danNewest].map((lmsg) => ({
      t: 'private',
      top: false,
      d: '{}',
      userOffsets: [],
      lmsg,
      unread: 0,
    }));
    server.handle(
      'imLastConversations',
      () => new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: stale }))),
    );
    // Joining a group the list does not show reloads it.
    const joining = im.subscribeGroup({ groupIds: ['g'] });
    await tick();
    expect(server.requests('imLastConversations')).toHaveLength(2);
    await im.removeConversation({ conversation: { type: 'private', userId: 'bob' } });
    await im.topConversation({ conversation: { type: 'private', userId: 'carol' }, top: true });
    const newest = (await im.history({ type: 'private', id: 'dan' })).at(-1) as Message;
    await im.deleteMessage({ messages: [newest] });
    release();
    await joining;
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.type === 'private' && c.userId, c.top, c.lastMessage.timestamp])).toEqual([
      ['carol', true, rows[1]?.ts],
      ['dan', false, rows[2]?.ts],
    ]);
  });

  it('IMC-7: a recalled unread message the cache does not hold leaves the unread count', async () => {
    const { im, server, fake } = await connectedIm();
    const first = fake.fromPeer('bob', 'first', false);
    fake.fromPeer('bob', 'second', false);
    // A client that loads the list holds only each conversation's last message.
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([2]);
    server.push('IM_MSG_RECALLED', {
      scene: 'private',
      conversationId: 'me:bob',
      recaller: { id: 'bob', data: {} },
      times: [first.ts],
    });
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([1]);
  });

  it('IMC-8: leaving a group as the link comes back leaves it after what was held meanwhile', async () => {
    const { im, server, client } = await connectedIm();
    await im.subscribeGroup({ groupIds: ['g'] });
    await im.latestConversations();
    server.down = true;
    server.dropAll();
    server.forgetSessions();
    let left: Promise<void> | undefined;
    client.on('connectionStatus', ({ status }) => {
      if (status !== 'expired_reconnected') return;
      // Said before the user left; its push is held while the SDK catches up.
      const said = { t: 'group', r: 'g', s: 'bob', i: 'g-1', ts: 5000, mt: 'text', p: '{"text":"hi"}', d: '{}' };
      server.push('imMessage', said);
      left = im.unsubscribeGroup({ groupId: 'g' });
    });
    server.down = false;
    await tick(5000);
    await left;
    expect((await im.latestConversations()).conversations).toEqual([]);
  });

  it('IMC-6: pinning or removing before the list was ever asked for loads it first', async () => {
    const { im, fake } = await connectedIm();
    fake.fromPeer('bob', 'hi', false);
    fake.fromPeer('carol', 'hi', false);
    await im.topConversation({ conversation: { type: 'private', userId: 'bob' }, top: true });
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.type === 'private' && c.userId, c.top])).toEqual([
      ['bob', true],
      ['carol', false],
    ]);
    await expect(
      im.topConversation({ conversation: { type: 'private', userId: 'dan' }, top: true }),
    ).rejects.toMatchObject({ content: 'conversation does not exist' });
  });

  it('IMC-8: a recall pushed while the SDK catches up applies to the message held before it', async () => {
    const { im, server, fake, client } = await connectedIm();
    await im.latestConversations();
    server.down = true;
    server.dropAll();
    server.forgetSessions();
    client.on('connectionStatus', ({ status }) => {
      if (status !== 'expired_reconnected') return;
      // Both held while the SDK catches up: the message, then its recall.
      const said = fake.fromPeer('bob', 'soon recalled');
      said.rc = true;
      server.push('IM_MSG_RECALLED', {
        scene: 'private',
        conversationId: 'me:bob',
        recaller: { id: 'bob', data: {} },
        times: [said.ts],
      });
    });
    server.down = false;
    await tick(5000);
    const history = await im.history({ type: 'private', id: 'bob' });
    expect(history.map((m) => m.recalled)).toEqual([true]);
    expect((await im.latestConversations()).unreadTotal).toBe(0);
  });

  it('IMC-6: a history page that shows the other side read further marks my cached messages read too', async () => {
    const { im, fake } = await connectedIm();
    const mine = await im.sendMessage({
      message: im.createTextMessage({ text: 'mine', to: { type: 'private', id: 'bob' } }),
    });
    const read = collect<Message[]>((fn) => im.on('MESSAGE_READ', fn));
    // Bob read it while this client did not hear of it; the next page from the server says so.
    fake.offsets.set('bob', mine.timestamp);
    const page = await im.history({ type: 'private', id: 'bob', limit: 5 });
    expect(page.map((m) => m.scene === 'private' && m.read)).toEqual([true]);
    expect(read.flat().map((m) => m.messageId)).toEqual([mine.messageId]);
  });

  it('IMC-6: a recall pushed while the list is on its way has the list asked for again', async () => {
    const { im, server, fake } = await connectedIm();
    const first = fake.fromPeer('bob', 'first', false);
    const second = fake.fromPeer('bob', 'second', false);
    const row = (unread: number) => ({ t: 'private', top: false, d: '{}', userOffsets: [], lmsg: second, unread });
    let release: () => void = () => undefined;
    let asked = 0;
    server.handle('imLastConversations', () => {
      asked += 1;
      // The first answer was counted before the recall; the next one after it.
      if (asked > 1) return { code: 200, resultCode: 200, content: [row(1)] };
      return new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: [row(2)] })));
    });
    const loading = im.latestConversations();
    await tick();
    server.push('IM_MSG_RECALLED', {
      scene: 'private',
      conversationId: 'me:bob',
      recaller: { id: 'bob', data: {} },
      times: [first.ts],
    });
    release();
    expect((await loading).conversations.map((c) => c.unread)).toEqual([1]);
    expect(asked).toBe(2);
  });

  it('IMC-6: the push of a message the loaded list already counts, arriving after it, is not counted again', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'before the list');
    await tick();
    // Stored and counted by the list before its push goes out (the server answers the list first).
    const late = fake.fromPeer('bob', 'pushed after the list', false);
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([2]);
    server.push('imMessage', late);
    await tick();
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[late.ts, 2]]);
    expect(await im.history({ type: 'private', id: 'bob' })).toHaveLength(2);
  });

  it('IMC-6: a message pushed after a newer one (two nodes) is still counted unread, once', async () => {
    const { im, server, fake } = await connectedIm();
    fake.fromPeer('bob', 'before the list');
    await tick();
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([1]);
    // Stored in this order on two nodes; the second one's push comes first.
    const older = fake.fromPeer('bob', 'stored first', false);
    const newer = fake.fromPeer('bob', 'stored second', false);
    server.push('imMessage', newer);
    server.push('imMessage', older);
    server.push('imMessage', older);
    await tick();
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[newer.ts, 3]]);
    expect(list.unreadTotal).toBe(3);
    const history = await im.history({ type: 'private', id: 'bob' });
    expect(history.map((m) => m.timestamp)).toEqual([older.ts - 1, older.ts, newer.ts]);
  });

  it('IMC-6: a message pushed after a newer one while the list is on its way is counted once it is in', async () => {
    const { im, server, fake } = await connectedIm();
    const first = fake.fromPeer('bob', 'before the list');
    await tick();
    // Counted before the two below were stored.
    const row = { t: 'private', top: false, d: '{}', userOffsets: [], lmsg: first, unread: 1 };
    let release: () => void = () => undefined;
    server.handle(
      'imLastConversations',
      () => new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: [row] }))),
    );
    const loading = im.latestConversations();
    await tick();
    const older = fake.fromPeer('bob', 'stored first', false);
    const newer = fake.fromPeer('bob', 'stored second', false);
    server.push('imMessage', newer);
    server.push('imMessage', older);
    await tick();
    release();
    const list = await loading;
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[newer.ts, 3]]);
  });

  it('IMC-6: a message the count of a new conversation found on the server is not counted again by its push', async () => {
    const { im, server, fake } = await connectedIm();
    expect((await im.latestConversations()).conversations).toEqual([]);
    let release: () => void = () => undefined;
    let asked = 0;
    // The page a new conversation's unread count is made from, answered once the test says so, from what is
    // stored then.
    server.handle('IM_HISTORY', () => {
      asked += 1;
      const content = () => ({ messages: fake.stored.slice(), userOffsets: [] });
      return new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: content() })));
    });
    fake.fromPeer('bob', 'first');
    await tick();
    expect(asked).toBe(1);
    // Stored before the server answers that page, pushed after the answer.
    const second = fake.fromPeer('bob', 'second', false);
    release();
    await tick();
    server.push('imMessage', second);
    await tick();
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[second.ts, 2]]);
    expect(list.unreadTotal).toBe(2);
  });

  it('IMC-6: a list loaded while a new conversation counts its unread messages keeps the count it brought', async () => {
    const { im, server, fake } = await connectedIm();
    expect((await im.latestConversations()).conversations).toEqual([]);
    server.handle('subscribeGroups', () => ({ code: 200, resultCode: 200, content: null }));
    let release: () => void = () => undefined;
    server.handle('IM_HISTORY', () => {
      const content = () => ({ messages: fake.stored.slice(), userOffsets: [] });
      return new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: content() })));
    });
    fake.fromPeer('bob', 'first');
    await tick();
    // Stored, counted by a list loaded meanwhile (joining a group loads it), and pushed after both answers.
    const second = fake.fromPeer('bob', 'second', false);
    await im.subscribeGroup({ groupIds: ['g1'] });
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([2]);
    release();
    await tick();
    server.push('imMessage', second);
    await tick();
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.timestamp, c.unread])).toEqual([[second.ts, 2]]);
  });

  it('IMC-7: a list answered after my other device deleted its last message does not bring that message back', async () => {
    const { im, server, fake } = await connectedIm();
    const gone = fake.fromPeer('bob', 'deleted on my other device', false);
    const row = { t: 'private', top: false, d: '{}', userOffsets: [], lmsg: gone, unread: 1 };
    let release: () => void = () => undefined;
    let asked = 0;
    server.handle('imLastConversations', () => {
      asked += 1;
      // The first answer was made before the deletion; the next one after it.
      if (asked > 1) return { code: 200, resultCode: 200, content: [] };
      return new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content: [row] })));
    });
    const loading = im.latestConversations();
    await tick();
    fake.deleted.add(gone.ts);
    server.push('IM_MSG_DELETED', { scene: 'private', targetId: 'bob', deleterId: 'me', times: [gone.ts] });
    release();
    expect((await loading).conversations).toEqual([]);
    expect(asked).toBe(2);
    expect(await im.history({ type: 'private', id: 'bob' })).toEqual([]);
  });

  it('IMC-7: a history page made before my other device deleted one of its messages leaves that one out', async () => {
    const { im, server, fake } = await connectedIm();
    const kept = fake.fromPeer('bob', 'kept', false);
    const gone = fake.fromPeer('bob', 'deleted on my other device', false);
    let release: () => void = () => undefined;
    server.handle('IM_HISTORY', () => {
      // Made now, answered after the deletion's push.
      const content = { messages: [kept, gone], userOffsets: [] };
      return new Promise((resolve) => (release = () => resolve({ code: 200, resultCode: 200, content })));
    });
    const paging = im.history({ type: 'private', id: 'bob' });
    await tick();
    server.push('IM_MSG_DELETED', { scene: 'private', targetId: 'bob', deleterId: 'me', times: [gone.ts] });
    release();
    expect((await paging).map((m) => m.messageId)).toEqual([kept.i]);
    expect((await im.history({ type: 'private', id: 'bob' })).map((m) => m.messageId)).toEqual([kept.i]);
  });

  it('IMC-7: a recall pushed after a list that already counted it does not take the count down again', async () => {
    const { im, server, fake } = await connectedIm();
    // Mine first: sending reads everything before it, so the cache holds all that can be unread.
    await im.sendMessage({ message: im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'bob' } }) });
    const first = fake.fromPeer('bob', 'a');
    const second = fake.fromPeer('bob', 'b');
    await tick();
    const recaller = { id: 'bob', data: {} };
    // Counted after the recall, which reaches this client after the list (from another node).
    const row = {
      t: 'private',
      top: false,
      d: '{}',
      userOffsets: [],
      lmsg: { ...second, rc: true, recaller },
      unread: 1,
    };
    server.handle('imLastConversations', () => ({ code: 200, resultCode: 200, content: [row] }));
    expect((await im.latestConversations()).conversations.map((c) => c.unread)).toEqual([1]);
    server.push('IM_MSG_RECALLED', { scene: 'private', conversationId: 'bob:me', recaller, times: [second.ts] });
    await tick();
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.messageId, c.lastMessage.recalled, c.unread])).toEqual([
      [second.i, true, 1],
    ]);
    expect((await im.history({ type: 'private', id: 'bob' })).map((m) => [m.messageId, m.recalled])).toEqual([
      [expect.any(String), false],
      [first.i, false],
      [second.i, true],
    ]);
  });

  it('IMC-7: deleting the last cached message while a newer one is on its way still delivers that one', async () => {
    const { im, server, fake } = await connectedIm();
    // Known from the list only: the conversation may have older messages on the server.
    fake.fromPeer('bob', 'first', false);
    const [listed] = (await im.latestConversations()).conversations;
    expect(listed?.unread).toBe(1);
    const first = listed?.lastMessage;
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    // Stored before the server answers the page that names the conversation's newest message, pushed after.
    const second = fake.fromPeer('bob', 'second', false);
    await im.deleteMessage({ messages: [first as Message] });
    server.push('imMessage', second);
    await tick();
    expect(received.map((m) => m.messageId)).toEqual([second.i]);
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.messageId, c.unread])).toEqual([[second.i, 1]]);
    expect((await im.history({ type: 'private', id: 'bob' })).map((m) => m.messageId)).toEqual([second.i]);
  });

  it('IMC-5: a message a history page brought before its push arrives with that push, once', async () => {
    const { im, server, fake } = await connectedIm();
    expect((await im.latestConversations()).conversations).toEqual([]);
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    // Stored on another node: this one's history page has it before its push crossed over.
    const early = fake.fromPeer('bob', 'early', false);
    expect((await im.history({ type: 'private', id: 'bob' })).map((m) => m.messageId)).toEqual([early.i]);
    expect(received).toEqual([]);
    server.push('imMessage', early);
    await tick();
    server.push('imMessage', early);
    await tick();
    expect(received.map((m) => m.messageId)).toEqual([early.i]);
    const list = await im.latestConversations();
    expect(list.conversations.map((c) => [c.lastMessage.messageId, c.unread])).toEqual([[early.i, 1]]);
    expect((await im.history({ type: 'private', id: 'bob' })).map((m) => m.messageId)).toEqual([early.i]);
  });

  it('IMC-5: a message a history page brought and I deleted stays deleted when its push comes', async () => {
    const { im, server, fake } = await connectedIm();
    expect((await im.latestConversations()).conversations).toEqual([]);
    const received = collect<Message>((fn) => im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    const early = fake.fromPeer('bob', 'early', false);
    const [paged] = await im.history({ type: 'private', id: 'bob' });
    await im.deleteMessage({ messages: [paged as Message] });
    server.push('imMessage', early);
    await tick();
    expect(received).toEqual([]);
    expect((await im.latestConversations()).conversations).toEqual([]);
    expect(await im.history({ type: 'private', id: 'bob' })).toEqual([]);
  });

  it("IMC-16: a group sender's data is parsed once while it stays the same, and again when it changes", async () => {
    const { im, server } = await connectedIm();
    await im.subscribeGroup({ groupIds: ['g1'] });
    const received = collect<Message>((fn) => im.on('GROUP_MESSAGE_RECEIVED', fn));
    const push = (i: string, s: string, d: string) =>
      server.push('imMessage', { t: 'group', r: 'g1', s, i, ts: received.length + 10, mt: 'text', p: '{}', d });
    push('a1', 'ann', '{"name":"Ann"}');
    push('b1', 'bob', '{"name":"Bob"}');
    push('a2', 'ann', '{"name":"Ann"}');
    push('a3', 'ann', '{"name":"Ann B."}');
    push('a4', 'ann', 'not json');
    const data = received.map((m) => (m.scene === 'group' ? m.senderData : undefined));
    expect(data).toEqual([{ name: 'Ann' }, { name: 'Bob' }, { name: 'Ann' }, { name: 'Ann B.' }, {}]);
    expect(data[2]).toBe(data[0]);
    expect(data[3]).not.toBe(data[0]);
  });

  it('IMC-9: groups and presence', async () => {
    const { im, server } = await connectedIm();
    await im.subscribeGroup({ groupIds: ['g1', 2] });
    expect(server.requests('subscribeGroups')[0]?.params).toEqual({ groupIds: ['g1', '2'] });
    const groupMessages = collect<Message>((fn) => im.on('GROUP_MESSAGE_RECEIVED', fn));
    server.push('imMessage', {
      t: 'group',
      r: 'g1',
      s: 'bob',
      i: 'gm1',
      ts: 5,
      mt: 'text',
      p: '{"text":"yo"}',
      d: '{"name":"Bob"}',
    });
    expect(groupMessages[0]).toMatchObject({ scene: 'group', groupId: 'g1', senderData: { name: 'Bob' } });
    const presence = collect<unknown>((fn) => im.on('USER_PRESENCE', fn));
    server.push('userPresence', {
      c: JSON.stringify({ events: [{ userId: 'bob', userData: '{"name":"Bob"}', time: 9, action: 'online' }] }),
    });
    expect(presence).toEqual([{ time: 9, action: 'online', id: 'bob', data: { name: 'Bob' } }]);
    const groupPresence = collect<unknown>((fn) => im.on('GROUP_PRESENCE', fn));
    server.push('groupPresence', {
      c: JSON.stringify({
        groupId: 'g1',
        userAmount: 3,
        events: [{ userId: 'bob', userData: '{}', time: 9, action: 'join' }],
      }),
    });
    expect(groupPresence).toEqual([
      { time: 9, action: 'join', groupId: 'g1', groupOnlineCount: 3, id: 'bob', data: {} },
    ]);
    server.handle('imHereNow', () => ({ code: 200, content: [{ userId: 'bob', userData: '{"name":"Bob"}' }] }));
    await expect(im.hereNow({ userIds: ['bob', 'carol'] })).resolves.toEqual([{ id: 'bob', data: { name: 'Bob' } }]);
    server.handle('imGroupOnlineCount', () => ({ code: 200, content: { count: 4 } }));
    await expect(im.groupOnlineCount({ groupId: 'g1' })).resolves.toBe(4);
  });

  it('IMC-4: no imAck when the server says it does not use them (mD.GIM.ack false)', async () => {
    const setup = fakeSetup({ modules: ['im'], random: () => 0.5 });
    setup.server.moduleData = { GIM: { ack: false } };
    const fake = fakeIm(setup.server, 'me');
    await Promise.all([setup.client.connect({ id: 'me', data: {} }), tick()]);
    const received = collect<Message>((fn) => setup.client.im.on('PRIVATE_MESSAGE_RECEIVED', fn));
    fake.fromPeer('bob', 'quiet');
    expect(received).toHaveLength(1);
    expect(setup.server.requests('imAck')).toHaveLength(0);
  });

  it('IMC-4: after a reconnect, imAck follows what the new authorize reply says', async () => {
    const setup = fakeSetup({ modules: ['im'], random: () => 0.5 });
    setup.server.moduleData = { GIM: { ack: false } };
    const fake = fakeIm(setup.server, 'me');
    await Promise.all([setup.client.connect({ id: 'me', data: {} }), tick()]);
    fake.fromPeer('bob', 'before');
    // The node behind the address now wants acks (a rolling upgrade, a failover).
    setup.server.moduleData = { GIM: { ack: true } };
    setup.server.dropAll();
    await tick(5000);
    expect(setup.client.getConnectionStatus()).toBe('reconnected');
    const after = fake.fromPeer('bob', 'after');
    expect(setup.server.requests('imAck').map((r) => r.params)).toEqual([{ publishGuid: after.i }]);
    setup.server.moduleData = { GIM: { ack: false } };
    setup.server.dropAll();
    await tick(5000);
    fake.fromPeer('bob', 'quiet again');
    expect(setup.server.requests('imAck')).toHaveLength(1);
  });
});
