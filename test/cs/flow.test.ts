import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationList, CsMessage, CustomerStatus } from '../../src/index.js';
import { MESSAGES } from '../../src/index.js';
import type { WireImMessage } from '../../src/protocol/index.js';
import { fakeIm } from '../support/fake-im.js';
import { fakeSetup } from '../support/setup.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const tick = async (ms = 0): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
};
const ok = (content: unknown) => ({ code: 200, resultCode: 200, content });

async function connected(me: string) {
  const setup = fakeSetup({ modules: ['im'], random: () => 0.5 });
  fakeIm(setup.server, me);
  await Promise.all([setup.client.connect({ id: me, data: { name: me } }), tick()]);
  return { ...setup, im: setup.client.im };
}

const wire = (overrides: Partial<WireImMessage>): WireImMessage => ({
  t: 'cs',
  r: 'team1',
  s: 'carol',
  i: `m${Math.random().toString(16).slice(2)}`,
  ts: 2000,
  mt: 'text',
  p: JSON.stringify({ text: 'help' }),
  d: JSON.stringify({ name: 'Carol' }),
  tid: 'team1',
  accepted: false,
  sessionId: 2000,
  ...overrides,
});

function collect<T>(subscribe: (fn: (value: T) => void) => unknown): T[] {
  const seen: T[] = [];
  subscribe((value) => seen.push(value));
  return seen;
}

describe('CS on the fake server: customer side', () => {
  it('IMC-14: a customer writes to a team with tid, and gets CS_MESSAGE_RECEIVED for agent messages', async () => {
    const { im, server } = await connected('carol');
    await im.latestConversations();
    const message = im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'team1', data: { name: 'Support' } } });
    expect(message).toMatchObject({ scene: 'cs', to: 'team1', teamId: 'team1', accepted: false, senderId: 'carol' });
    server.handle('publishIM', () => ok({ timestamp: 1500, sessionId: 1500 }));
    await im.sendMessage({ message });
    expect(server.requests('publishIM')[0]?.params).toMatchObject({ t: 'cs', to: 'team1', tid: 'team1' });
    expect(message).toMatchObject({ status: 'success', timestamp: 1500, sessionId: 1500 });
    const got = collect<CsMessage>((fn) => im.on('CS_MESSAGE_RECEIVED', fn));
    const accepted = collect<CsMessage>((fn) => im.on('CS_ACCEPTED', fn));
    const acceptWire = wire({ s: 'alice', r: 'carol', mt: 'CS_ACCEPT', p: '{"sessionStart":1500}', accepted: true });
    server.push('imMessage', acceptWire);
    server.push('imMessage', acceptWire);
    await tick();
    expect(got.map((m) => m.type)).toEqual(['CS_ACCEPT']);
    expect(accepted).toHaveLength(1);
    expect(server.requests('imAck')).toHaveLength(2);
    const list = await im.latestConversations();
    expect(list.conversations.find((c) => c.type === 'cs')).toMatchObject({ id: 'team1', teamId: 'team1' });
  });

  it('IM-32: a pin and a removal of the team conversation on another device reach this one’s list', async () => {
    const { im, server } = await connected('carol');
    await im.latestConversations();
    server.handle('publishIM', () => ok({ timestamp: 1500, sessionId: 1500 }));
    await im.sendMessage({ message: im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'team1' } }) });
    const team = async () => (await im.latestConversations()).conversations.find((c) => c.type === 'cs');
    expect(await team()).toMatchObject({ id: 'team1', top: false });
    server.push('IM_CONVERSATION_CHANGED', { type: 'cs', targetId: 'team1', top: true });
    await tick();
    expect(await team()).toMatchObject({ id: 'team1', top: true });
    server.push('IM_CONVERSATION_CHANGED', { type: 'cs', targetId: 'team1', removed: true });
    await tick();
    expect(await team()).toBeUndefined();
  });

  it('IMC-5: an agent message a history page brought before its push arrives with that push, once', async () => {
    const { im, server } = await connected('carol');
    await im.latestConversations();
    const reply = wire({ s: 'alice', r: 'carol', p: JSON.stringify({ text: 'hello' }), accepted: true });
    // Stored on another node: this one's history page has it before its push crossed over.
    server.handle('IM_HISTORY', () => ok({ messages: [reply], userOffsets: [] }));
    const got = collect<CsMessage>((fn) => im.on('CS_MESSAGE_RECEIVED', fn));
    expect((await im.history({ type: 'cs', id: 'team1' })).map((m) => m.messageId)).toEqual([reply.i]);
    expect(got).toEqual([]);
    server.push('imMessage', reply);
    server.push('imMessage', reply);
    await tick();
    expect(got.map((m) => m.messageId)).toEqual([reply.i]);
    const list = await im.latestConversations();
    expect(list.conversations.filter((c) => c.type === 'cs').map((c) => [c.lastMessage.messageId, c.unread])).toEqual([
      [reply.i, 1],
    ]);
  });

  it('IMC-14: recall and delete of CS messages are refused locally', async () => {
    const { im, server } = await connected('carol');
    server.handle('publishIM', () => ok({ timestamp: 1500, sessionId: 1500 }));
    const message = await im.sendMessage({
      message: im.createTextMessage({ text: 'x', to: { type: 'cs', id: 'team1' } }),
    });
    await expect(im.recallMessage({ messages: [message] })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.recallCs,
    });
    await expect(im.deleteMessage({ messages: [message] })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.deleteCs,
    });
  });
});

describe('CS on the fake server: agent side', () => {
  async function agent() {
    const setup = await connected('alice');
    const teams = new Set<string>();
    setup.server.handle('CS_MY_TEAMS', () => ok([...teams]));
    setup.server.handle('CS_ONLINE', (p) => {
      teams.add(String(p.teamId));
      return ok(null);
    });
    setup.server.handle('CS_OFFLINE', (p) => {
      teams.delete(String(p.teamId));
      return ok(null);
    });
    setup.server.handle('CS_PENDING_CONVERSATION', () =>
      ok(
        teams.has('team1')
          ? [{ lastMessage: wire({ ts: 1000 }), customerData: '{"name":"Carol"}', userOffsets: [], unread: 1 }]
          : [],
      ),
    );
    return { ...setup, team: setup.im.csteam('team1') };
  }

  it('CS-16: data over 300 bytes of JSON is refused before it is sent', async () => {
    const { server, team } = await agent();
    const big = { name: 'x'.repeat(300) };
    const tooLong = { code: 400, content: MESSAGES.dataTooLong };
    await expect(team.online({ teamData: big, agentData: {} })).rejects.toMatchObject(tooLong);
    await expect(team.online({ teamData: {}, agentData: big })).rejects.toMatchObject(tooLong);
    await expect(team.accept({ customer: { id: 'carol', data: big } })).rejects.toMatchObject(tooLong);
    expect(server.requests('CS_ONLINE')).toHaveLength(0);
    expect(server.requests('CS_ACCEPT')).toHaveLength(0);
  });

  it('CS-15: online carries the access token as at', async () => {
    const { server, team } = await agent();
    await team.online({ teamData: {}, agentData: { name: 'Alice' }, accessToken: 'tok' });
    expect(server.requests('CS_ONLINE')[0]?.params).toEqual({
      teamId: 'team1',
      teamData: '{}',
      agentData: '{"name":"Alice"}',
      at: 'tok',
    });
  });

  it('IMC-15: online sends JSON data, loads the pending list, and keeps it current from pushes', async () => {
    const { im, server, team } = await agent();
    const updates = collect<ConversationList>((fn) => im.on('PENDING_CONVERSATIONS_UPDATED', fn));
    await team.online({ teamData: { name: 'Support' }, agentData: { name: 'Alice' } });
    expect(server.requests('CS_ONLINE')[0]?.params).toEqual({
      teamId: 'team1',
      teamData: '{"name":"Support"}',
      agentData: '{"name":"Alice"}',
    });
    expect(await team.isOnline()).toBe(true);
    expect(updates.at(-1)?.conversations).toMatchObject([
      { type: 'cs', id: 'carol', teamId: 'team1', data: { name: 'Carol' } },
    ]);
    server.push('imMessage', wire({ s: 'dave', i: 'dave-1', ts: 3000 }));
    await tick();
    expect((await im.pendingConversations()).conversations.map((c) => c.id)).toEqual(['dave', 'carol']);
    server.push('imMessage', wire({ s: 'bob', r: 'carol', mt: 'CS_ACCEPT', accepted: true, ts: 3100 }));
    await tick();
    expect((await im.pendingConversations()).conversations.map((c) => c.id)).toEqual(['dave']);
    server.push('CS_ONLINE_CHANGED', { teamId: 'team1', online: false });
    await tick();
    expect((await im.pendingConversations()).conversations).toEqual([]);
    expect(await team.isOnline()).toBe(false);
  });

  it('IMC-15: a pending customer cannot be topped or removed, in the reference’s words; nothing is asked', async () => {
    const { im, server, team } = await agent();
    await im.latestConversations();
    await team.online({ teamData: {}, agentData: { name: 'Alice' } });
    const [pending] = (await im.pendingConversations()).conversations;
    expect(pending).toMatchObject({ type: 'cs', id: 'carol', teamId: 'team1' });
    const refused = { code: 400, content: MESSAGES.csPendingConversation };
    await expect(im.topConversation({ conversation: pending, top: true })).rejects.toMatchObject(refused);
    await expect(im.removeConversation({ conversation: pending })).rejects.toMatchObject(refused);
    // One the agent has in neither list.
    const other = { ...pending, id: 'nobody' };
    await expect(im.topConversation({ conversation: other, top: true })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.conversationNotFound,
    });
    expect(server.requests('topConversation')).toHaveLength(0);
    expect(server.requests('removeConversation')).toHaveLength(0);
  });

  it('IMC-15: accept, end and transfer resolve with their message and fire the session events', async () => {
    const { im, server, team } = await agent();
    await im.latestConversations();
    let ts = 5000;
    const act = (type: string, payload: object) => () =>
      ok({ message: wire({ s: 'alice', r: 'carol', mt: type, p: JSON.stringify(payload), accepted: true, ts: ts++ }) });
    server.handle('CS_ACCEPT', act('CS_ACCEPT', { sessionStart: 2000 }));
    server.handle(
      'CS_TRANSFER',
      act('CS_TRANSFER', { sessionStart: 2000, transferTo: { id: 'bob', data: '{"name":"Bob"}' } }),
    );
    server.handle('CS_END', act('CS_END', { sessionStart: 2000 }));
    // The conversation's data, asked for when it comes into the list: the customer's, as the server keeps it.
    server.handle('imData', () => ok(JSON.stringify({ name: 'Carol' })));
    const events = collect<string>((fn) => {
      im.on('CS_ACCEPTED', (m) => fn(m.type));
      im.on('CS_TRANSFERRED', (m) => fn(m.type));
      im.on('CS_ENDED', (m) => fn(m.type));
    });
    const accepted = await team.accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    expect(server.requests('CS_ACCEPT')[0]?.params).toEqual({
      teamId: 'team1',
      customer: { id: 'carol', data: '{"name":"Carol"}' },
    });
    expect(accepted).toMatchObject({ type: 'CS_ACCEPT', teamId: 'team1', to: 'carol', accepted: true });
    expect((await im.latestConversations()).conversations[0]).toMatchObject({
      id: 'carol',
      ended: false,
      data: { name: 'Carol' },
    });
    const moved = await team.transfer({ customerId: 'carol', agentId: 'bob' });
    expect(moved.payload).toEqual({ sessionStart: 2000, transferTo: { id: 'bob', data: { name: 'Bob' } } });
    expect(server.requests('CS_TRANSFER')[0]?.params).toEqual({ customerId: 'carol', teamId: 'team1', agentId: 'bob' });
    expect((await im.latestConversations()).conversations[0]).toMatchObject({ ended: true });
    await team.end({ id: 'carol' });
    expect(server.requests('CS_END')[0]?.params).toEqual({ customerId: 'carol', teamId: 'team1' });
    expect(events).toEqual(['CS_ACCEPT', 'CS_TRANSFER', 'CS_END']);
  });

  it('IMC-15: an agent message carries tid and accepted, and takes its sessionId from the ack', async () => {
    const { im, server, team } = await agent();
    server.handle('publishIM', () => ok({ timestamp: 7000, sessionId: 2000 }));
    const message = team.createTextMessage({ text: 'hello', to: { id: 'carol' } });
    expect(message).toMatchObject({ scene: 'cs', to: 'carol', teamId: 'team1', accepted: true });
    await im.sendMessage({ message });
    expect(server.requests('publishIM')[0]?.params).toMatchObject({ t: 'cs', to: 'carol', tid: 'team1' });
    expect(message.sessionId).toBe(2000);
  });

  it('IMC-15: a live session gets the status, then every message of the customer and each status change', async () => {
    const { server, team } = await agent();
    server.handle('CS_LIVE_SESSION', () => ok({ customerStatus: { status: 'PENDING', start: 2000, sessionId: 2000 } }));
    const statuses: CustomerStatus[] = [];
    const messages: CsMessage[] = [];
    await team.liveSession({
      customerId: 'carol',
      onNewMessage: (m) => messages.push(m),
      onStatusUpdated: (s) => statuses.push(s),
    });
    server.push('imMessage', wire({ i: 'c1', ts: 2100, sessionId: 2000 }));
    server.push('imMessage', wire({ i: 'other', s: 'dave', ts: 2100 }));
    server.push(
      'imMessage',
      wire({
        i: 'a1',
        s: 'bob',
        r: 'carol',
        mt: 'CS_ACCEPT',
        p: '{"sessionStart":2000}',
        d: '{"name":"Bob"}',
        accepted: true,
        ts: 2200,
        sessionId: 2000,
      }),
    );
    await tick();
    expect(messages.map((m) => m.messageId)).toEqual(['c1', 'a1']);
    expect(statuses).toEqual([
      { status: 'PENDING', start: 2000, sessionId: 2000 },
      { status: 'ACCEPTED', start: 2000, sessionId: 2000, agent: { id: 'bob', data: { name: 'Bob' } } },
    ]);
    await team.quitLiveSession();
    expect(server.requests('CS_QUIT_LIVE')[0]?.params).toEqual({ teamId: 'team1', customerId: 'carol' });
    server.push('imMessage', wire({ i: 'c2', ts: 2300, sessionId: 2000, accepted: true }));
    await tick();
    expect(messages).toHaveLength(2);
  });

  it("IMC-15: customerStatus parses the agent data; agents() parses each agent's data", async () => {
    const { server, team } = await agent();
    server.handle('CS_CUSTOMER_STATUS', () =>
      ok({ status: 'ACCEPTED', start: 1, sessionId: 1, agent: { id: 'bob', data: '{"name":"Bob"}' } }),
    );
    server.handle('CS_AGENTS', () => ok([{ id: 'bob', data: '{"name":"Bob"}' }]));
    expect(await team.customerStatus({ id: 'carol' })).toEqual({
      status: 'ACCEPTED',
      start: 1,
      sessionId: 1,
      agent: { id: 'bob', data: { name: 'Bob' } },
    });
    expect(await team.agents()).toEqual([{ id: 'bob', data: { name: 'Bob' } }]);
    expect(server.requests('CS_CUSTOMER_STATUS')[0]?.params).toEqual({ customerId: 'carol', teamId: 'team1' });
  });
});

describe("CS validation (the spec's messages)", () => {
  it('IMC-14: online needs objects; accept needs a customer with non-empty object data', async () => {
    const { im } = await connected('alice');
    const team = im.csteam('team1');
    const bad = { code: 400, content: MESSAGES.csDataNotObjects };
    await expect(team.online({ teamData: [] as never, agentData: {} })).rejects.toMatchObject(bad);
    await expect(team.online({ teamData: {}, agentData: 'x' as never })).rejects.toMatchObject(bad);
    await expect(team.online(undefined as never)).rejects.toMatchObject(bad);
    const required = { code: 400, content: 'customer is required.' };
    await expect(team.accept({} as never)).rejects.toMatchObject(required);
    await expect(team.accept({ customer: { data: { a: 1 } } } as never)).rejects.toMatchObject(required);
    // An id that is neither a string nor a number is no customer, not "[object Object]" on the wire.
    for (const id of [{ a: 1 }, ['c'], true, [Object.create(null)]]) {
      await expect(team.accept({ customer: { id, data: { a: 1 } } } as never)).rejects.toMatchObject(required);
    }
    const empty = { code: 400, content: 'customer data must be non-empty object.' };
    await expect(team.accept({ customer: { id: 'c', data: {} } })).rejects.toMatchObject(empty);
    await expect(team.accept({ customer: { id: 'c' } } as never)).rejects.toMatchObject(empty);
    await expect(team.end({ id: '' })).rejects.toMatchObject({ content: MESSAGES.idEmpty });
    expect(() => team.createTextMessage({ text: 'x', to: { id: 'team1' } })).toThrow(MESSAGES.csTargetNotCustomer);
    expect(() => team.createTextMessage({ text: 'x', to: undefined as never })).toThrow(MESSAGES.toRequired);
    expect(() => im.csteam('')).toThrow(MESSAGES.idEmpty);
    await expect(
      team.liveSession({ customerId: 'c', onNewMessage: undefined as never, onStatusUpdated: () => undefined }),
    ).rejects.toMatchObject({ content: MESSAGES.csQueryOptions });
  });
});

describe('CS read marks from my other devices', () => {
  it('CS-8, IMC-14: a customer reading on another device takes the unread count of the team conversation down here', async () => {
    const { im, server } = await connected('carol');
    await im.latestConversations();
    server.push('imMessage', wire({ s: 'alice', r: 'carol', ts: 3000, accepted: true, d: '{"name":"Alice"}' }));
    await tick();
    const unread = async () => (await im.latestConversations()).conversations.find((c) => c.type === 'cs')?.unread;
    expect(await unread()).toBe(1);
    const updates = collect<ConversationList>((fn) => im.on('CONVERSATIONS_UPDATED', fn));
    // Someone else's mark is not mine to apply; mine is.
    server.push('IM_MSG_READ', { scene: 'cs', targetId: 'team1', markerId: 'alice', teamId: 'team1', time: 3000 });
    await tick();
    expect(await unread()).toBe(1);
    server.push('IM_MSG_READ', { scene: 'cs', targetId: 'team1', markerId: 'carol', teamId: 'team1', time: 3000 });
    await tick();
    expect(await unread()).toBe(0);
    expect(updates.at(-1)?.unreadTotal).toBe(0);
  });

  it('CS-8, IMC-15: an agent reading a customer on another device takes that conversation down here', async () => {
    const { im, server } = await connected('alice');
    await im.latestConversations();
    // Accepted by me (on another device): the conversation is mine, and the customer's next message counts.
    const accept = { s: 'alice', r: 'carol', ts: 2500, mt: 'CS_ACCEPT', p: '{"sessionStart":2000}', accepted: true };
    server.push('imMessage', wire(accept));
    server.push('imMessage', wire({ s: 'carol', r: 'team1', ts: 3000, accepted: true }));
    await tick();
    const unread = async () =>
      (await im.latestConversations()).conversations.find((c) => c.type === 'cs' && c.id === 'carol')?.unread;
    expect(await unread()).toBe(1);
    server.push('IM_MSG_READ', { scene: 'cs', targetId: 'carol', markerId: 'alice', teamId: 'team1', time: 3000 });
    await tick();
    expect(await unread()).toBe(0);
  });
});
