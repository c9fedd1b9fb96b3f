/**
 * Customer service end to end: Parley's SDK against the real server, one customer and two agents.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationList, CsMessage, ParleyClient } from '../../src/index.js';
import { OPEN_APP, startServer, tempDir } from '../../server/test/helpers.js';
import { collectIm, eventually, imUser, lossyTransport, nextIm, untilStatus } from './support.js';

const TEAM = 'support';
const text = (m: { payload: unknown }) => (m.payload as { text?: string }).text;
const customers = (list: ConversationList) => list.conversations.map((c) => c.id);

async function customerSays(client: ParleyClient, words: string): Promise<CsMessage> {
  const message = client.im.createTextMessage({ text: words, to: { type: 'cs', id: TEAM, data: { name: 'Support' } } });
  return (await client.im.sendMessage({ message })) as CsMessage;
}

async function agents(url: string) {
  const alice = await imUser(url, 'alice');
  const bob = await imUser(url, 'bob');
  await alice.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Alice' } });
  await bob.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Bob' } });
  await alice.im.pendingConversations();
  await bob.im.pendingConversations();
  await alice.im.latestConversations();
  await bob.im.latestConversations();
  return { alice, bob };
}

describe('customer service end to end', () => {
  it('CS-3..CS-7: pending for both agents, accept, transfer, end, and a new session', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const { alice, bob } = await agents(url);
    const carol = await imUser(url, 'carol');
    await carol.im.latestConversations();
    const carolGot = collectIm(carol, 'CS_MESSAGE_RECEIVED');
    const aliceTeam = alice.im.csteam(TEAM);
    const bobTeam = bob.im.csteam(TEAM);

    const bothPending = Promise.all(
      [alice, bob].map((agent) => nextIm(agent, 'PENDING_CONVERSATIONS_UPDATED', (l) => l.conversations.length === 1)),
    );
    const first = await customerSays(carol, 'I need help');
    expect(first).toMatchObject({ scene: 'cs', teamId: TEAM, to: TEAM, accepted: false, status: 'success' });
    for (const list of await bothPending) {
      expect(list.conversations[0]).toMatchObject({ type: 'cs', id: 'carol', teamId: TEAM, data: { name: 'carol' } });
    }
    expect(await aliceTeam.customerStatus({ id: 'carol' })).toMatchObject({
      status: 'PENDING',
      start: first.timestamp,
    });

    const bobSeesAccept = nextIm(bob, 'PENDING_CONVERSATIONS_UPDATED', (l) => l.conversations.length === 0);
    const accepted = await aliceTeam.accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    expect(accepted).toMatchObject({
      type: 'CS_ACCEPT',
      senderId: 'alice',
      accepted: true,
      payload: { sessionStart: first.timestamp },
    });
    await bobSeesAccept;
    expect(customers(await alice.im.pendingConversations())).toEqual([]);
    await eventually(() => carolGot.some((m) => m.type === 'CS_ACCEPT'), 'carol hears the accept');
    expect((await alice.im.latestConversations()).conversations[0]).toMatchObject({
      type: 'cs',
      id: 'carol',
      teamId: TEAM,
      ended: false,
      data: { name: 'Carol' },
    });

    const reply = aliceTeam.createTextMessage({ text: 'how can I help?', to: { id: 'carol' } });
    expect(reply).toMatchObject({ scene: 'cs', teamId: TEAM, to: 'carol', accepted: true });
    await alice.im.sendMessage({ message: reply });
    expect(reply.sessionId).toBe(first.sessionId ?? first.timestamp);
    await eventually(() => carolGot.some((m) => text(m) === 'how can I help?'), 'carol hears alice');

    const transferred = nextIm(bob, 'CS_TRANSFERRED');
    await aliceTeam.transfer({ customerId: 'carol', agentId: 'bob' });
    expect((await transferred).payload).toMatchObject({ transferTo: { id: 'bob', data: { name: 'Bob' } } });
    expect(await bobTeam.customerStatus({ id: 'carol' })).toMatchObject({ status: 'ACCEPTED', agent: { id: 'bob' } });
    const aliceList = await alice.im.latestConversations();
    expect(aliceList.conversations[0]).toMatchObject({ id: 'carol', ended: true });
    const bobAll = collectIm(bob, 'CONVERSATIONS_UPDATED');
    const aliceAll = collectIm(alice, 'CONVERSATIONS_UPDATED');
    await customerSays(carol, 'still there?');
    await eventually(
      () => bobAll.some((l) => l.conversations.some((c) => c.id === 'carol' && text(c.lastMessage) === 'still there?')),
      'bob gets the customer',
    );
    expect((await bobTeam.history({ customerId: 'carol' })).map((m) => m.type)).toEqual([
      'text',
      'CS_ACCEPT',
      'text',
      'CS_TRANSFER',
      'text',
    ]);
    await bob.ping();
    await alice.ping();
    expect(aliceAll.flatMap((l) => l.conversations).some((c) => text(c.lastMessage) === 'still there?')).toBe(false);

    const ended = nextIm(carol, 'CS_ENDED');
    await bobTeam.end({ id: 'carol' });
    await ended;
    expect(await bobTeam.customerStatus({ id: 'carol' })).toEqual({ status: 'FREE' });
    expect((await bob.im.latestConversations()).conversations[0]).toMatchObject({ id: 'carol', ended: true });

    const pendingAgain = nextIm(alice, 'PENDING_CONVERSATIONS_UPDATED', (l) => l.conversations.length === 1);
    const again = await customerSays(carol, 'one more thing');
    await pendingAgain;
    const status = await aliceTeam.customerStatus({ id: 'carol' });
    expect(status).toMatchObject({ status: 'PENDING', start: again.timestamp });
    expect(status.status === 'PENDING' && status.sessionId).toBeGreaterThan(first.timestamp);
    const carolList = await carol.im.latestConversations();
    expect(carolList.conversations[0]).toMatchObject({ type: 'cs', id: TEAM, teamId: TEAM });
    expect((await carol.im.history({ type: 'cs', id: TEAM, limit: 30 })).map((m) => m.type)).toEqual([
      'text',
      'CS_ACCEPT',
      'text',
      'CS_TRANSFER',
      'text',
      'CS_END',
      'text',
    ]);
  });

  it('TYPING-4: every online agent sees a waiting customer type; once accepted, only their agent', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const { alice, bob } = await agents(url);
    const carol = await imUser(url, 'carol');
    await customerSays(carol, 'Anyone there?');
    const typers = (agent: ParleyClient) =>
      agent.im
        .csteam(TEAM)
        .typingUsers({ customerId: 'carol' })
        .map((u) => u.id);
    const bothSee = (ids: string[]) =>
      eventually(() => [alice, bob].every((agent) => typers(agent).join() === ids.join()), `typers ${ids.join()}`);
    await carol.im.keystroke({ type: 'cs', id: TEAM });
    await bothSee(['carol']);
    await carol.im.stopTyping({ type: 'cs', id: TEAM });
    await bothSee([]);

    await alice.im.csteam(TEAM).accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    const bobHeard = collectIm(bob, 'TYPING');
    await carol.im.keystroke({ type: 'cs', id: TEAM });
    await eventually(() => typers(alice).join() === 'carol', 'alice sees carol type');
    expect(alice.im.csteam(TEAM).typingUsers({ customerId: 'carol' })).toEqual([
      { id: 'carol', data: { name: 'carol' } },
    ]);
    expect(bobHeard).toEqual([]);
  });

  it('IMC-18: a live session goes on after the link comes back, with what was missed meanwhile, in order and once', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const link = lossyTransport();
    const alice = await imUser(url, 'alice', { name: 'Alice' }, link.transport);
    const bob = await imUser(url, 'bob');
    await alice.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Alice' } });
    await bob.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Bob' } });
    const carol = await imUser(url, 'carol');
    await customerSays(carol, 'before the watch');
    await bob.im.csteam(TEAM).accept({ customer: { id: 'carol', data: { name: 'Carol' } } });

    const seen: string[] = [];
    const statuses: string[] = [];
    await alice.im.csteam(TEAM).liveSession({
      customerId: 'carol',
      onNewMessage: (m) => seen.push(text(m) ?? m.type),
      onStatusUpdated: (s) => statuses.push(s.status),
    });
    await customerSays(carol, 'one');
    await eventually(() => seen.length === 1, 'the first message at the watching agent');

    link.lose();
    await untilStatus(alice, 'reconnecting');
    await customerSays(carol, 'two');
    await bob.im.csteam(TEAM).end({ id: 'carol' });
    link.restore();
    await untilStatus(alice, 'reconnected');
    await eventually(() => statuses.length === 2, 'the status after the reconnect');
    await customerSays(carol, 'three');
    await eventually(() => seen.length === 4, 'every message at the watching agent');
    expect(seen).toEqual(['one', 'two', 'CS_END', 'three']);
    // Carol's last message opened a new session.
    expect(statuses).toEqual(['ACCEPTED', 'FREE', 'PENDING']);
  });

  it('CS-2: an agent holding a customer cannot go offline; offline empties the pending list', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const { alice } = await agents(url);
    const carol = await imUser(url, 'carol');
    const dave = await imUser(url, 'dave');
    const team = alice.im.csteam(TEAM);
    await customerSays(carol, 'hi');
    await customerSays(dave, 'hello');
    await eventually(async () => (await alice.im.pendingConversations()).conversations.length === 2, 'two pending');
    await team.accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    await expect(team.offline()).rejects.toMatchObject({
      code: 400,
      content: 'Cannot go offline while you still have accepted customers: end or transfer them first.',
    });
    expect(await team.isOnline()).toBe(true);
    await team.end({ id: 'carol' });
    const emptied = nextIm(alice, 'PENDING_CONVERSATIONS_UPDATED', (l) => l.conversations.length === 0);
    await team.offline();
    await emptied;
    expect(await team.isOnline()).toBe(false);
  });

  it('CS-8, CS-2: customers read only their own conversation; a non-agent cannot accept (401)', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    await agents(url);
    const carol = await imUser(url, 'carol');
    const mallory = await imUser(url, 'mallory');
    await customerSays(carol, 'my secret');
    expect(await mallory.im.history({ type: 'cs', id: TEAM })).toEqual([]);
    await expect(mallory.im.csteam(TEAM).history({ customerId: 'carol' })).rejects.toMatchObject({
      code: 401,
      content: 'No permission',
    });
    await expect(mallory.im.csteam(TEAM).accept({ customer: { id: 'carol', data: { a: 1 } } })).rejects.toMatchObject({
      code: 401,
      content: 'No permission',
    });
    expect((await carol.im.history({ type: 'cs', id: TEAM })).map(text)).toEqual(['my secret']);
  });

  it('CS-3: sessions, assignments and history survive a server restart', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ apps: [OPEN_APP], sqlite });
    const { alice, bob } = await agents(first.url);
    const carol = await imUser(first.url, 'carol');
    await customerSays(carol, 'before restart');
    await alice.im.csteam(TEAM).accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    await first.server.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await startServer({ apps: [OPEN_APP], sqlite, port: first.port });
    expect(second.port).toBe(first.port);
    const team = alice.im.csteam(TEAM);
    await eventually(async () => {
      try {
        return (await team.customerStatus({ id: 'carol' })).status === 'ACCEPTED';
      } catch {
        return false;
      }
    }, 'status after restart');
    expect(await team.customerStatus({ id: 'carol' })).toMatchObject({ status: 'ACCEPTED', agent: { id: 'alice' } });
    expect(await team.isOnline()).toBe(true);
    expect(await bob.im.csteam(TEAM).isOnline()).toBe(true);
    const got = nextIm(carol, 'CS_MESSAGE_RECEIVED', (m) => text(m) === 'after restart');
    await alice.im.sendMessage({ message: team.createTextMessage({ text: 'after restart', to: { id: 'carol' } }) });
    await got;
    expect((await team.history({ customerId: 'carol' })).map((m) => m.type)).toEqual(['text', 'CS_ACCEPT', 'text']);
    await expect(team.offline()).rejects.toMatchObject({ code: 400 });
  });
});
