import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { authorizeParams, connect, request, startServer, storesUnderTest } from './helpers.js';
import { acking, collect, content, leave, login, pagesBeforePushes, send, settled } from './im-support.js';
import { accept, agentSays, customerSays, expectFailure, goOnline, type WireCs } from './cs-support.js';

interface Listed {
  t: string;
  top: boolean;
  d: string;
  lmsg: WireCs;
  unread: number;
}

const list = (socket: Parameters<typeof content>[0]) => content<Listed[]>(socket, 'imLastConversations', {});
const history = (socket: Parameters<typeof content>[0], id: string, teamId: string) =>
  content<{ messages: WireCs[]; userOffsets: unknown[] }>(socket, 'IM_HISTORY', { id, scene: 'cs', teamId, limit: 30 });

describe('CS: teams and agents', () => {
  it("CS-1: online, my teams, agents, offline; the agent's other devices hear CS_ONLINE_CHANGED", async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const phoneGot = collect(alicePhone, 'CS_ONLINE_CHANGED');
    const aliceGot = collect(alice, 'CS_ONLINE_CHANGED');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(alice, 'team2', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    expect(await content(alicePhone, 'CS_MY_TEAMS', {})).toEqual(['team1', 'team2']);
    expect(await content(bob, 'CS_AGENTS', { teamId: 'team1' })).toEqual([
      { id: 'alice', data: '{"name":"Alice"}' },
      { id: 'bob', data: '{"name":"Bob"}' },
    ]);
    await content(alice, 'CS_OFFLINE', { teamId: 'team2' });
    await settled(alice, alicePhone);
    expect(phoneGot).toEqual([
      { teamId: 'team1', online: true },
      { teamId: 'team2', online: true },
      { teamId: 'team2', online: false },
    ]);
    expect(aliceGot).toEqual([]);
    expect(await content(alice, 'CS_MY_TEAMS', {})).toEqual(['team1']);
  });

  it('CS-1: agent and team data must be JSON objects', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    for (const [teamData, agentData] of [
      ['[]', '{}'],
      ['{}', 'x'],
      [1, '{}'],
    ]) {
      expectFailure(
        await request(alice, 'CS_ONLINE', { teamId: 't', teamData, agentData }),
        400,
        MESSAGES.csDataNotObjects,
      );
    }
  });

  it('CS-2: offline is refused while the agent holds accepted customers, and empties their pending list', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    const dave = await login(url, 'dave');
    await goOnline(alice, 'team1');
    await customerSays(carol, 'team1');
    await customerSays(dave, 'team1');
    await accept(alice, 'team1', 'carol');
    expectFailure(await request(alice, 'CS_OFFLINE', { teamId: 'team1' }), 400, MESSAGES.csOfflineWithCustomers);
    await content(alice, 'CS_END', { teamId: 'team1', customerId: 'carol' });
    await content(alice, 'CS_OFFLINE', { teamId: 'team1' });
    expect(await content(alice, 'CS_PENDING_CONVERSATION', {})).toEqual([]);
    const aliceGot = collect<WireCs>(alice, 'imMessage');
    await customerSays(dave, 'team1', 'anyone?');
    await settled(alice);
    expect(aliceGot).toEqual([]);
  });
});

describe('CS: history and conversations', () => {
  it('CS-8: both sides read the whole history, oldest first, with tid, accepted and sessionId', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    const first = await customerSays(carol, 'team1', 'hi');
    await accept(alice, 'team1', 'carol');
    await agentSays(alice, 'team1', 'carol', 'hello');
    const mine = await history(carol, 'team1', 'team1');
    expect(mine.messages.map((m) => [m.mt, m.s, m.accepted, m.sessionId, m.tid])).toEqual([
      ['text', 'carol', false, first.sessionId, 'team1'],
      ['CS_ACCEPT', 'alice', true, first.sessionId, 'team1'],
      ['text', 'alice', true, first.sessionId, 'team1'],
    ]);
    expect((await history(alice, 'carol', 'team1')).messages).toEqual(mine.messages);
    const page = await content<{ messages: WireCs[] }>(carol, 'IM_HISTORY', {
      id: 'team1',
      scene: 'cs',
      teamId: 'team1',
      lastTimestamp: mine.messages[2]?.ts,
      limit: 1,
    });
    expect(page.messages.map((m) => m.mt)).toEqual(['CS_ACCEPT']);
    expect(
      await content(carol, 'IM_HISTORY_CHANGE', { scene: 'cs', id: 'team1', teamId: 'team1', after: 1, min: 0 }),
    ).toEqual({
      userOffsets: [{ userId: 'carol', offset: first.timestamp }],
      deletedMessageTimes: [],
      recalledMessages: [],
    });
  });

  it.each(storesUnderTest())(
    'CS-8: a history page never answers before the push of a message it holds, on %s',
    async (_name, store) => {
      const { url } = await startServer(store());
      const carol = await login(url, 'carol');
      const carolPhone = await login(url, 'carol');
      const seen = await pagesBeforePushes(carolPhone, (round) => customerSays(carol, 'team1', `m${round}`), {
        id: 'team1',
        scene: 'cs',
        teamId: 'team1',
      });
      expect(seen).toEqual({ early: [], pushes: 40 });
    },
  );

  it('CS-8: a customer sees only their own conversation; naming another customer needs team membership', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    const dave = await login(url, 'dave');
    await goOnline(alice, 'team1');
    await customerSays(carol, 'team1', 'secret');
    expect((await history(dave, 'team1', 'team1')).messages).toEqual([]);
    const peek = await request(dave, 'IM_HISTORY', { id: 'carol', scene: 'cs', teamId: 'team1' });
    expectFailure(peek, 401, MESSAGES.noPermission);
    const changes = await request(dave, 'IM_HISTORY_CHANGE', {
      scene: 'cs',
      id: 'carol',
      teamId: 'team1',
      after: 1,
      min: 0,
    });
    expectFailure(changes, 401, MESSAGES.noPermission);
    expect((await list(dave)).filter((c) => c.t === 'cs')).toEqual([]);
  });

  it('CS-9: CS conversations join the list; an agent sees ended after an end or a transfer away', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    await send(alice, 'bob');
    await customerSays(carol, 'team1', 'one');
    await customerSays(carol, 'team1', 'two');
    expect((await list(alice)).map((c) => c.t)).toEqual(['private']);
    await accept(alice, 'team1', 'carol');
    const aliceList = await list(alice);
    expect(aliceList.map((c) => c.t)).toEqual(['cs', 'private']);
    // Accepting is an answer: like sending (IM-7), it reads what came before.
    expect(aliceList[0]).toMatchObject({ d: '{"name":"carol"}', lmsg: { mt: 'CS_ACCEPT', tid: 'team1' }, unread: 0 });
    const carolList = await list(carol);
    expect(carolList).toEqual([
      {
        t: 'cs',
        top: false,
        d: '{"name":"Team team1"}',
        userOffsets: expect.any(Array),
        lmsg: expect.objectContaining({ mt: 'CS_ACCEPT' }),
        unread: 1,
      },
    ]);
    await content(alice, 'CS_TRANSFER', { teamId: 'team1', customerId: 'carol', agentId: 'bob' });
    await customerSays(carol, 'team1', 'three');
    expect((await list(alice))[0]?.lmsg.mt).toBe('CS_TRANSFER');
    // Bob takes over a conversation he never read: every customer message counts.
    expect((await list(bob)).find((c) => c.t === 'cs')).toMatchObject({ lmsg: { mt: 'text', s: 'carol' }, unread: 3 });
  });

  it('CS-10: a pending conversation cannot be topped or removed; a CS conversation is removed only once ended', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await customerSays(carol, 'team1');
    const mine = { type: 'cs', targetId: 'team1', teamId: 'team1' };
    expectFailure(await request(carol, 'topConversation', { ...mine, top: true }), 400, MESSAGES.csPendingConversation);
    expectFailure(await request(carol, 'removeConversation', mine), 400, MESSAGES.csPendingConversation);
    await accept(alice, 'team1', 'carol');
    await content(carol, 'topConversation', { ...mine, top: true });
    expect((await list(carol))[0]?.top).toBe(true);
    const theirs = { type: 'cs', targetId: 'carol', teamId: 'team1' };
    expectFailure(await request(carol, 'removeConversation', mine), 400, MESSAGES.csNotEnded);
    expectFailure(await request(alice, 'removeConversation', theirs), 400, MESSAGES.csNotEnded);
    await content(alice, 'CS_END', { teamId: 'team1', customerId: 'carol' });
    await content(carol, 'removeConversation', mine);
    await content(alice, 'removeConversation', theirs);
    expect(await list(carol)).toEqual([]);
    expect(await list(alice)).toEqual([]);
    expect(await content(carol, 'imData', mine)).toBe('{"name":"Team team1"}');
    expect(await content(alice, 'imData', theirs)).toBe('{"name":"carol"}');
  });

  it('CS-12: recall and delete of CS messages are refused with the spec messages', async () => {
    const { url } = await startServer();
    const carol = await login(url, 'carol');
    const { timestamp } = await customerSays(carol, 'team1');
    const params = { scene: 'cs', targetId: 'team1', times: [timestamp] };
    expectFailure(await request(carol, 'IM_RECALL_MESSAGE', params), 400, MESSAGES.recallCs);
    expectFailure(await request(carol, 'IM_DELETE_MESSAGE', params), 400, MESSAGES.deleteCs);
  });

  it("CS-8: mark as read moves the reader's offset and tells their other devices", async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    const carolPhone = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await customerSays(carol, 'team1');
    const accepted = await accept(alice, 'team1', 'carol');
    expect((await list(carol))[0]?.unread).toBe(1);
    const phoneGot = collect(carolPhone, 'IM_MSG_READ');
    await content(carol, 'IM_MARK_AS_READ', { id: 'team1', scene: 'cs', teamId: 'team1', lastTimestamp: accepted.ts });
    await settled(carolPhone);
    expect(phoneGot).toEqual([
      { scene: 'cs', targetId: 'team1', markerId: 'carol', teamId: 'team1', time: accepted.ts },
    ]);
    expect((await list(carol))[0]?.unread).toBe(0);
  });
});

describe('CS: a customer coming back (IM-24)', () => {
  it('gets what the agents wrote while it was away, the acknowledged and its own sends left out', async () => {
    const { url, server } = await startServer();
    const agent = await login(url, 'agent');
    await goOnline(agent, 'team1');
    const carol = acking(await login(url, 'carol'));
    const sid = (await request(carol, 'authorize', authorizeParams({ userId: 'carol' })))['sid'];
    await customerSays(carol, 'team1', 'hello?');
    const accepted = await accept(agent, 'team1', 'carol');
    await settled(carol);
    carol.removeAllListeners('imMessage');
    // Carol's link dies unnoticed: what comes next is pushed and never acknowledged.
    expect(await agentSays(agent, 'team1', 'carol', 'lost')).toMatchObject({ code: 200 });
    const mine = await customerSays(carol, 'team1', 'still there?');
    expect(await agentSays(agent, 'team1', 'carol', 'yes')).toMatchObject({ code: 200 });
    await settled(carol);
    await leave(server, carol);
    const back = acking(await connect(url));
    const replayed = collect<WireCs>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'carol', sid }))).toMatchObject({ sid });
    await settled(back);
    expect(replayed.map((m) => [m.t, JSON.parse(m.p) as unknown])).toEqual([
      ['cs', { text: 'lost' }],
      ['cs', { text: 'yes' }],
    ]);
    expect(replayed.every((m) => m.ts > accepted.ts && m.ts !== mine.timestamp)).toBe(true);
  });
});

describe('CS: an agent coming back (IM-24)', () => {
  it("gets what its accepted customers wrote while it was away, not other agents' customers nor waiting ones", async () => {
    const { url, server } = await startServer();
    const alice = acking(await login(url, 'alice'));
    const sid = (await request(alice, 'authorize', authorizeParams({ userId: 'alice' })))['sid'];
    const bob = await login(url, 'bob');
    await goOnline(alice, 'team1');
    await goOnline(bob, 'team1');
    const carol = await login(url, 'carol');
    const dave = await login(url, 'dave');
    const frank = await login(url, 'frank');
    await customerSays(carol, 'team1', 'hello?');
    await customerSays(dave, 'team1', 'anyone?');
    await customerSays(frank, 'team1', 'hi');
    const accepted = await accept(alice, 'team1', 'carol');
    await accept(bob, 'team1', 'dave');
    await accept(alice, 'team1', 'frank');
    await settled(alice);
    alice.removeAllListeners('imMessage');
    // Alice's link dies unnoticed: what comes next is pushed and never acknowledged.
    await customerSays(carol, 'team1', 'lost');
    const mine = await agentSays(alice, 'team1', 'carol', 'on it');
    await customerSays(carol, 'team1', 'thanks');
    await customerSays(dave, 'team1', "bob's");
    // Alice ends Frank's session, which she has in the ack; what Frank writes next waits for any agent.
    await content(alice, 'CS_END', { teamId: 'team1', customerId: 'frank' });
    await customerSays(frank, 'team1', 'again');
    // Erin waits, which reached Alice live; Alice accepts her, which she has in the ack.
    const erin = await login(url, 'erin');
    await customerSays(erin, 'team1', 'waiting');
    await accept(alice, 'team1', 'erin');
    await settled(alice);
    await leave(server, alice);
    const back = acking(await connect(url));
    const replayed = collect<WireCs>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await settled(back);
    expect(replayed.map((m) => [m.s, m.mt, m.p])).toEqual([
      ['carol', 'text', '{"text":"lost"}'],
      ['carol', 'text', '{"text":"thanks"}'],
      ['erin', 'text', '{"text":"waiting"}'],
    ]);
    expect(mine).toMatchObject({ code: 200 });
    expect(replayed.every((m) => m.ts > accepted.ts)).toBe(true);
  });
});
