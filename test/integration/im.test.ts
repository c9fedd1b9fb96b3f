/**
 * IM end to end: Parley's SDK against the real server, two or three users, several devices.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/index.js';
import { OPEN_APP, startServer } from '../../server/test/helpers.js';
import { collectIm, eventually, imUser, nextIm, switchableTransport, untilStatus } from './support.js';

const text = (m: Message) => (m.payload as { text: string }).text;

async function server() {
  return startServer({ apps: [OPEN_APP] });
}

describe('IM end to end', () => {
  it('private chat both ways, with events, conversations and unread counts', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    await alice.im.latestConversations();
    await bob.im.latestConversations();
    const arriving = nextIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
    const hello = await alice.im.sendMessage({
      message: alice.im.createTextMessage({
        text: 'hello bob',
        to: { type: 'private', id: 'bob', data: { name: 'Bob' } },
      }),
    });
    const received = await arriving;
    expect(received).toMatchObject({
      messageId: hello.messageId,
      senderId: 'alice',
      receiverId: 'bob',
      timestamp: hello.timestamp,
    });
    expect(text(received)).toBe('hello bob');
    await eventually(async () => (await bob.im.latestConversations()).unreadTotal === 1, 'bob has one unread');
    const bobList = await bob.im.latestConversations();
    expect(bobList.conversations[0]).toMatchObject({ type: 'private', userId: 'alice', unread: 1 });
    const back = nextIm(alice, 'PRIVATE_MESSAGE_RECEIVED');
    await bob.im.sendMessage({
      message: bob.im.createTextMessage({ text: 'hi alice', to: { type: 'private', id: 'alice' } }),
    });
    expect(text(await back)).toBe('hi alice');
    const aliceList = await alice.im.latestConversations();
    expect(aliceList.conversations[0]).toMatchObject({ userId: 'bob', data: { name: 'Bob' } });
  });

  it('a read mark reaches the sender as MESSAGE_READ and clears unread on the reader', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    const sent = await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'read me', to: { type: 'private', id: 'bob' } }),
    });
    await eventually(async () => (await bob.im.latestConversations()).unreadTotal === 1, 'unread');
    const read = nextIm(alice, 'MESSAGE_READ');
    await bob.im.markMessageAsRead({ type: 'private', id: 'alice' });
    const marked = await read;
    expect(marked.map((m) => m.messageId)).toEqual([sent.messageId]);
    expect(marked[0]).toMatchObject({ read: true });
    expect((await bob.im.latestConversations()).unreadTotal).toBe(0);
  });

  it('history pages from the server for a user who was offline, and unread counts survive reconnects', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    for (let i = 1; i <= 25; i++) {
      await alice.im.sendMessage({
        message: alice.im.createTextMessage({ text: `m${i}`, to: { type: 'private', id: 'bob' } }),
      });
    }
    const bob = await imUser(url, 'bob');
    const list = await bob.im.latestConversations();
    expect(list.conversations[0]).toMatchObject({ userId: 'alice', unread: 25 });
    const newest = await bob.im.history({ type: 'private', id: 'alice' });
    expect(newest.map(text)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i + 16}`));
    const older = await bob.im.history({
      type: 'private',
      id: 'alice',
      lastTimestamp: newest[0]?.timestamp,
      limit: 30,
    });
    expect(older.map(text)).toEqual(Array.from({ length: 15 }, (_, i) => `m${i + 1}`));
    const times = [...older, ...newest].map((m) => m.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(25);
  });

  it('group chat reaches members only; leaving stops it', async () => {
    const { url } = await server();
    const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((id) => imUser(url, id)));
    await alice!.im.subscribeGroup({ groupIds: ['g1'] });
    await bob!.im.subscribeGroup({ groupIds: ['g1'] });
    const carolGot = collectIm(carol!, 'GROUP_MESSAGE_RECEIVED');
    const bobGets = nextIm(bob!, 'GROUP_MESSAGE_RECEIVED');
    await alice!.im.sendMessage({
      message: alice!.im.createTextMessage({ text: 'team', to: { type: 'group', id: 'g1', data: { name: 'G1' } } }),
    });
    expect(await bobGets).toMatchObject({
      scene: 'group',
      groupId: 'g1',
      senderId: 'alice',
      senderData: { name: 'alice' },
    });
    await bob!.im.unsubscribeGroup({ groupId: 'g1' });
    const bobLater = collectIm(bob!, 'GROUP_MESSAGE_RECEIVED');
    const aliceEcho = await alice!.im.sendMessage({
      message: alice!.im.createTextMessage({ text: 'again', to: { type: 'group', id: 'g1' } }),
    });
    await alice!.ping();
    await bob!.ping();
    expect(aliceEcho.status).toBe('success');
    expect(bobLater).toHaveLength(0);
    expect(carolGot).toHaveLength(0);
  });

  it('recall reaches the other side; delete stays mine but reaches my other device', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    const bobTablet = await imUser(url, 'bob');
    const m1 = await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'oops', to: { type: 'private', id: 'bob' } }),
    });
    const m2 = await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'keep', to: { type: 'private', id: 'bob' } }),
    });
    await eventually(async () => (await bob.im.history({ type: 'private', id: 'alice' })).length === 2, 'bob has both');
    await bobTablet.im.history({ type: 'private', id: 'alice' });
    const recalledOnBob = nextIm(bob, 'MESSAGE_RECALLED');
    await alice.im.recallMessage({ messages: [m1] });
    expect((await recalledOnBob).map((m) => [m.messageId, m.recalled, m.recaller?.id])).toEqual([
      [m1.messageId, true, 'alice'],
    ]);
    const [, kept] = await bob.im.history({ type: 'private', id: 'alice' });
    const deletedOnTablet = nextIm(bobTablet, 'MESSAGE_DELETED');
    await bob.im.deleteMessage({ messages: [kept as Message] });
    expect((await deletedOnTablet).map((m) => m.messageId)).toEqual([m2.messageId]);
    const aliceView = await alice.im.history({ type: 'private', id: 'bob' });
    expect(aliceView.map((m) => m.messageId)).toContain(m2.messageId);
  });

  it('multi-device: both of a user’s connections receive; a read on one clears unread on the other', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const phone = await imUser(url, 'bob');
    const laptop = await imUser(url, 'bob');
    await phone.im.latestConversations();
    await laptop.im.latestConversations();
    const onPhone = nextIm(phone, 'PRIVATE_MESSAGE_RECEIVED');
    const onLaptop = nextIm(laptop, 'PRIVATE_MESSAGE_RECEIVED');
    const sent = await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'both', to: { type: 'private', id: 'bob' } }),
    });
    expect((await onPhone).messageId).toBe(sent.messageId);
    expect((await onLaptop).messageId).toBe(sent.messageId);
    const cleared = nextIm(laptop, 'CONVERSATIONS_UPDATED', (list) => list.unreadTotal === 0);
    await phone.im.markMessageAsRead({ type: 'private', id: 'alice' });
    await cleared;
  });

  it('IM-32: a pin, an unpin and a removal on one device reach my other device’s list, not the other side’s', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const phone = await imUser(url, 'bob');
    const laptop = await imUser(url, 'bob');
    let last = 0;
    for (const id of ['carol', 'dave']) {
      const sender = await imUser(url, id);
      // Each a millisecond later than the one before: two conversations' latest times may be equal, and their order
      // is then not defined.
      while (Date.now() <= last) await new Promise((resolve) => setTimeout(resolve, 1));
      const sent = await sender.im.sendMessage({
        message: sender.im.createTextMessage({ text: `from ${id}`, to: { type: 'private', id: 'bob' } }),
      });
      last = sent.timestamp;
    }
    while (Date.now() <= last) await new Promise((resolve) => setTimeout(resolve, 1));
    await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'newest', to: { type: 'private', id: 'bob' } }),
    });
    await eventually(async () => (await laptop.im.latestConversations()).conversations.length === 3, 'three chats');
    const phoneList = await phone.im.latestConversations();
    const carol = phoneList.conversations.find((c) => c.userId === 'carol');
    const ids = (list: { conversations: Array<{ userId?: string; top: boolean }> }) =>
      list.conversations.map((c) => `${c.userId}${c.top ? ' (top)' : ''}`);

    const pinned = nextIm(laptop, 'CONVERSATIONS_UPDATED', (list) => list.conversations[0]?.userId === 'carol');
    await phone.im.topConversation({ conversation: carol, top: true });
    expect(ids(await pinned)).toEqual(['carol (top)', 'alice', 'dave']);
    const unpinned = nextIm(laptop, 'CONVERSATIONS_UPDATED', (list) => list.conversations[0]?.userId === 'alice');
    await phone.im.topConversation({ conversation: carol, top: false });
    expect(ids(await unpinned)).toEqual(['alice', 'dave', 'carol']);
    const removed = nextIm(laptop, 'CONVERSATIONS_UPDATED', (list) => list.conversations.length === 2);
    await phone.im.removeConversation({ conversation: carol });
    expect(ids(await removed)).toEqual(['alice', 'dave']);
    expect(ids(await phone.im.latestConversations())).toEqual(['alice', 'dave']);
    // The other side's list is its own.
    expect((await alice.im.latestConversations()).conversations.map((c) => c.userId)).toEqual(['bob']);
  });

  it('IM-7: sending reads the conversation: unread drops to 0 live, on my other device, and after a reload', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const phone = await imUser(url, 'bob');
    const laptop = await imUser(url, 'bob');
    await phone.im.latestConversations();
    await laptop.im.latestConversations();
    for (const t of ['one', 'two']) {
      await alice.im.sendMessage({
        message: alice.im.createTextMessage({ text: t, to: { type: 'private', id: 'bob' } }),
      });
    }
    await eventually(async () => (await phone.im.latestConversations()).unreadTotal === 2, 'two unread on the phone');
    await eventually(async () => (await laptop.im.latestConversations()).unreadTotal === 2, 'two unread on the laptop');
    await phone.im.sendMessage({
      message: phone.im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'alice' } }),
    });
    expect((await phone.im.latestConversations()).conversations[0]).toMatchObject({ userId: 'alice', unread: 0 });
    await eventually(async () => (await laptop.im.latestConversations()).unreadTotal === 0, 'read on the laptop too');
    const reloaded = await imUser(url, 'bob');
    expect((await reloaded.im.latestConversations()).unreadTotal).toBe(0);
  });

  it('IM-16: deleting a conversation’s newest messages shows the one before, fetched when not held, or drops it', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const send = (t: string) =>
      alice.im.sendMessage({ message: alice.im.createTextMessage({ text: t, to: { type: 'private', id: 'bob' } }) });
    const older = await send('older');
    // Bob starts after the first message: his list has it, his cache of the conversation does not.
    const bob = await imUser(url, 'bob');
    expect((await bob.im.latestConversations()).conversations[0]).toMatchObject({ unread: 1 });
    const arriving = nextIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
    await send('newer');
    const newer = await arriving;
    expect((await bob.im.latestConversations()).unreadTotal).toBe(2);
    await bob.im.deleteMessage({ messages: [newer] });
    const after = (await bob.im.latestConversations()).conversations;
    expect(after.map((c) => [c.userId, c.lastMessage.messageId, c.unread])).toEqual([['alice', older.messageId, 1]]);
    // Deleting the last one left drops the conversation, as a reload from the server shows it.
    const [left] = await bob.im.history({ type: 'private', id: 'alice' });
    await bob.im.deleteMessage({ messages: [left as Message] });
    expect((await bob.im.latestConversations()).conversations).toEqual([]);
    const reloaded = await imUser(url, 'bob');
    expect((await reloaded.im.latestConversations()).conversations).toEqual([]);
  });

  it('IM-18: a removed conversation comes back on its next message with what was unread, unpinned', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    const send = async (t: string) => {
      const arriving = nextIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
      await alice.im.sendMessage({
        message: alice.im.createTextMessage({ text: t, to: { type: 'private', id: 'bob' } }),
      });
      await arriving;
    };
    await bob.im.latestConversations();
    await send('first');
    const conversation = { type: 'private', userId: 'alice' };
    await bob.im.topConversation({ conversation, top: true });
    await bob.im.removeConversation({ conversation });
    expect((await bob.im.latestConversations()).conversations).toEqual([]);
    await send('second');
    const back = (await bob.im.latestConversations()).conversations;
    expect(back.map((c) => [c.userId, c.unread, c.top])).toEqual([['alice', 2, false]]);
    const reloaded = await imUser(url, 'bob');
    const loaded = (await reloaded.im.latestConversations()).conversations;
    expect(loaded.map((c) => [c.userId, c.unread, c.top])).toEqual([['alice', 2, false]]);
    // A client started after a removal holds none of the earlier messages: it asks the server what is unread.
    await reloaded.im.removeConversation({ conversation });
    const restarted = await imUser(url, 'bob');
    expect((await restarted.im.latestConversations()).conversations).toEqual([]);
    const third = nextIm(restarted, 'PRIVATE_MESSAGE_RECEIVED');
    await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: '3', to: { type: 'private', id: 'bob' } }),
    });
    await third;
    await eventually(async () => (await restarted.im.latestConversations()).unreadTotal === 3, 'three unread');
  });

  it('IMC-6: my last private message shows as read after a reload when the other side read it', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const bob = await imUser(url, 'bob');
    const arriving = nextIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
    const sent = await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'read me', to: { type: 'private', id: 'bob' } }),
    });
    await arriving;
    await bob.im.latestConversations();
    await bob.im.markMessageAsRead({ type: 'private', id: 'alice' });
    const reloaded = await imUser(url, 'alice');
    const [conversation] = (await reloaded.im.latestConversations()).conversations;
    expect(conversation?.lastMessage).toMatchObject({ messageId: sent.messageId, read: true });
    const history = await reloaded.im.history({ type: 'private', id: 'bob' });
    expect(history.map((m) => [m.messageId, m.scene === 'private' && m.read])).toEqual([[sent.messageId, true]]);
  });

  it('IMC-6: after my other device deletes the newest message, the one fetched in its place shows read', async () => {
    const { url } = await server();
    const ann = await imUser(url, 'ann');
    const bob = await imUser(url, 'bob');
    const mine = await ann.im.sendMessage({
      message: ann.im.createTextMessage({ text: 'mine', to: { type: 'private', id: 'bob' } }),
    });
    // Sending reads everything before it (IM-7): bob has read mine.
    const reply = await bob.im.sendMessage({
      message: bob.im.createTextMessage({ text: 'reply', to: { type: 'private', id: 'ann' } }),
    });
    const tablet = await imUser(url, 'ann');
    await tablet.im.latestConversations();
    const gone = nextIm(tablet, 'MESSAGE_DELETED');
    const [held] = await ann.im.history({ type: 'private', id: 'bob', limit: 1 });
    expect(held?.messageId).toBe(reply.messageId);
    await ann.im.deleteMessage({ messages: [held as Message] });
    await gone;
    await eventually(
      async () => (await tablet.im.latestConversations()).conversations[0]?.lastMessage.messageId === mine.messageId,
      'the tablet shows mine last',
    );
    const [last] = (await tablet.im.latestConversations()).conversations;
    expect(last?.lastMessage).toMatchObject({ messageId: mine.messageId, read: true });
    const history = await tablet.im.history({ type: 'private', id: 'bob' });
    expect(history.map((m) => [m.messageId, m.scene === 'private' && m.read])).toEqual([[mine.messageId, true]]);
  });

  it('IM-9, IM-20: leaving a group takes it off the list; back in it, the list and history have what was said', async () => {
    const { url } = await server();
    const ann = await imUser(url, 'ann');
    const ben = await imUser(url, 'ben');
    await ann.im.subscribeGroup({ groupIds: ['g'] });
    await ben.im.subscribeGroup({ groupIds: ['g'] });
    const say = (t: string) =>
      ann.im.sendMessage({ message: ann.im.createTextMessage({ text: t, to: { type: 'group', id: 'g' } }) });
    await ben.im.latestConversations();
    await say('m1');
    await say('m2');
    await eventually(async () => (await ben.im.history({ type: 'group', id: 'g' })).length === 2, 'ben has both');
    await ben.im.unsubscribeGroup({ groupId: 'g' });
    expect((await ben.im.latestConversations()).conversations).toEqual([]);
    const away = await say('m3');
    // Nothing said after leaving shows, not even reloaded from the server.
    const reloaded = await imUser(url, 'ben');
    expect((await reloaded.im.latestConversations()).conversations).toEqual([]);
    await ben.im.subscribeGroup({ groupIds: ['g'] });
    const [back] = (await ben.im.latestConversations()).conversations;
    expect(back).toMatchObject({ groupId: 'g', unread: 3, lastMessage: { messageId: away.messageId } });
    await say('m4');
    await ben.ping();
    const history = await ben.im.history({ type: 'group', id: 'g', limit: 30 });
    expect(history.map(text)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('IM-20: joining a group that has messages lists it at once, with nothing unread', async () => {
    const { url } = await server();
    const ann = await imUser(url, 'ann');
    const zed = await imUser(url, 'zed');
    await ann.im.subscribeGroup({ groupIds: ['g'] });
    const said = await ann.im.sendMessage({
      message: ann.im.createTextMessage({ text: 'before you came', to: { type: 'group', id: 'g' } }),
    });
    await zed.im.latestConversations();
    const updated = nextIm(zed, 'CONVERSATIONS_UPDATED');
    await zed.im.subscribeGroup({ groupIds: ['g'] });
    expect((await updated).conversations).toEqual([
      expect.objectContaining({
        groupId: 'g',
        unread: 0,
        lastMessage: expect.objectContaining({ messageId: said.messageId }),
      }),
    ]);
    const history = await zed.im.history({ type: 'group', id: 'g' });
    expect(history.map((m) => m.messageId)).toEqual([said.messageId]);
  });

  it('IM-22: a message sent from outside a group reaches its members and stays off the sender list', async () => {
    const { url } = await server();
    const ann = await imUser(url, 'ann');
    const out = await imUser(url, 'out');
    const outTablet = await imUser(url, 'out');
    await ann.im.subscribeGroup({ groupIds: ['g'] });
    await out.im.latestConversations();
    await outTablet.im.latestConversations();
    const tabletGot = collectIm(outTablet, 'GROUP_MESSAGE_RECEIVED');
    const lists: number[] = [];
    out.im.on('CONVERSATIONS_UPDATED', (e) => lists.push(e.conversations.length));
    const arriving = nextIm(ann, 'GROUP_MESSAGE_RECEIVED');
    const sent = await out.im.sendMessage({
      message: out.im.createTextMessage({ text: 'hello from outside', to: { type: 'group', id: 'g' } }),
    });
    expect(sent.status).toBe('success');
    expect(await arriving).toMatchObject({ messageId: sent.messageId, senderId: 'out' });
    // Shown while sending, gone once the server says the group is not the sender's to list.
    expect(lists.at(-1)).toBe(0);
    expect((await out.im.latestConversations()).conversations).toEqual([]);
    await expect(out.im.history({ type: 'group', id: 'g' })).rejects.toMatchObject({ code: 401 });
    await outTablet.ping();
    expect(tabletGot).toEqual([]);
    expect((await outTablet.im.latestConversations()).conversations).toEqual([]);
  });

  it('presence: online and offline events and here-now', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    await alice.im.subscribeUserPresence({ userIds: ['bob'] });
    const online = nextIm(alice, 'USER_PRESENCE', (e) => e.action === 'online');
    const bob = await imUser(url, 'bob', { name: 'Bob' });
    expect(await online).toMatchObject({ id: 'bob', action: 'online', data: { name: 'Bob' } });
    expect(await alice.im.hereNow({ userIds: ['bob', 'carol'] })).toEqual([{ id: 'bob', data: { name: 'Bob' } }]);
    const offline = nextIm(alice, 'USER_PRESENCE', (e) => e.action === 'offline');
    await bob.disconnect();
    expect(await offline).toMatchObject({ id: 'bob', action: 'offline' });
  });

  it('TYPING-1..TYPING-3: typing reaches the other side of a chat and ends with the message', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice', { name: 'Alice' });
    const bob = await imUser(url, 'bob');
    const starts = nextIm(bob, 'TYPING', (e) => e.typing);
    await alice.im.keystroke({ type: 'private', id: 'bob' });
    expect(await starts).toEqual({
      conversation: { type: 'private', id: 'alice' },
      user: { id: 'alice', data: { name: 'Alice' } },
      typing: true,
      users: [{ id: 'alice', data: { name: 'Alice' } }],
    });
    expect(bob.im.typingUsers({ type: 'private', id: 'alice' })).toEqual([{ id: 'alice', data: { name: 'Alice' } }]);
    const ends = nextIm(bob, 'TYPING', (e) => !e.typing);
    await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'done', to: { type: 'private', id: 'bob' } }),
    });
    expect(await ends).toMatchObject({ conversation: { type: 'private', id: 'alice' }, typing: false, users: [] });
    // In a group, the member who is not typing hears it; the typist does not hear herself.
    await alice.im.subscribeGroup({ groupIds: ['g'] });
    await bob.im.subscribeGroup({ groupIds: ['g'] });
    const aliceHeard = collectIm(alice, 'TYPING');
    const inGroup = nextIm(bob, 'TYPING', (e) => e.conversation.type === 'group');
    await alice.im.keystroke({ type: 'group', id: 'g' });
    expect(await inGroup).toMatchObject({ conversation: { type: 'group', id: 'g' }, user: { id: 'alice' } });
    await alice.ping();
    expect(aliceHeard).toEqual([]);
  });

  it('messages sent while a client was cut off arrive after its reconnect, once each and in order', async () => {
    const { url } = await server();
    const alice = await imUser(url, 'alice');
    const link = switchableTransport();
    const bob = await imUser(url, 'bob', { name: 'bob' }, link.transport);
    await bob.im.history({ type: 'private', id: 'alice' });
    const got = collectIm(bob, 'PRIVATE_MESSAGE_RECEIVED');
    await alice.im.sendMessage({
      message: alice.im.createTextMessage({ text: 'before', to: { type: 'private', id: 'bob' } }),
    });
    await eventually(() => got.length === 1, 'first message');
    link.cut();
    expect(bob.getConnectionStatus()).toBe('reconnecting');
    for (let i = 1; i <= 5; i++) {
      await alice.im.sendMessage({
        message: alice.im.createTextMessage({ text: `away ${i}`, to: { type: 'private', id: 'bob' } }),
      });
    }
    link.restore();
    await untilStatus(bob, 'reconnected');
    await eventually(() => got.length === 6, 'the five missed messages');
    expect(got.map(text)).toEqual(['before', 'away 1', 'away 2', 'away 3', 'away 4', 'away 5']);
    const history = await bob.im.history({ type: 'private', id: 'alice' });
    expect(history.map(text)).toEqual(['before', 'away 1', 'away 2', 'away 3', 'away 4', 'away 5']);
  });
});
