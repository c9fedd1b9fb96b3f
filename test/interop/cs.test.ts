import { describe, expect, it } from 'vitest';
import { createClient, type CsMessage, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { GoEasy, call, connectReference, eventually, referenceLink } from './support.js';

const TEAM = 'support';

interface RefMessage {
  messageId: string;
  senderId: string;
  type: string;
  payload: unknown;
  timestamp: number;
  teamId?: string;
  accepted?: boolean;
}

interface RefTeam {
  isOnline(options: Record<string, unknown>): void;
  online(options: Record<string, unknown>): void;
  accept(options: Record<string, unknown>): void;
  transfer(options: Record<string, unknown>): void;
  end(options: Record<string, unknown>): void;
  customerStatus(options: Record<string, unknown>): void;
}

async function parley(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

function refTeam(): RefTeam {
  return (GoEasy.im.csteam as unknown as (teamId: string) => RefTeam)(TEAM);
}

/**
 * Connects the reference client as agent `ref`, online in the team, and collects its pending lists (after loading
 * the first). The client keeps its teams in a set it only creates when it first asks the server for them
 * (isOnline): going online before that throws inside the client, so an app asks first.
 */
async function referenceAgent(port: number): Promise<Array<{ conversations: Array<{ id: string }> }>> {
  await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
  await call((o) => refTeam().isOnline(o));
  await call((o) => refTeam().online(o), { teamData: { name: 'Support' }, agentData: { name: 'Ref' } });
  const pending: Array<{ conversations: Array<{ id: string }> }> = [];
  GoEasy.im.on(GoEasy.IM_EVENT.PENDING_CONVERSATIONS_UPDATED ?? 'PENDING_CONVERSATIONS_UPDATED', (l) =>
    pending.push(l as { conversations: Array<{ id: string }> }),
  );
  await call((o) => GoEasy.im.pendingConversations!(o));
  return pending;
}

/** A session event as it reaches either side: who caused it, and its payload. */
const sessionEvents = (messages: ReadonlyArray<{ type: string; senderId: string; payload: unknown }>) =>
  messages.filter((m) => m.type.startsWith('CS_')).map((m) => [m.type, m.senderId, m.payload]);

describe('reference client: customer service', () => {
  it('INTEROP-12: the reference client as customer; Parley agents accept, transfer and end', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    const alice = await parley(url, 'alice');
    const bob = await parley(url, 'bob');
    for (const [agent, name] of [
      [alice, 'Alice'],
      [bob, 'Bob'],
    ] as const) {
      await agent.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name } });
      await agent.im.pendingConversations();
    }
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
    const alicePending: Array<{ conversations: Array<{ id?: string }> }> = [];
    alice.im.on('PENDING_CONVERSATIONS_UPDATED', (l) =>
      alicePending.push(l as { conversations: Array<{ id?: string }> }),
    );
    const atRef: RefMessage[] = [];
    GoEasy.im.on(GoEasy.IM_EVENT.CS_MESSAGE_RECEIVED ?? 'CS_MESSAGE_RECEIVED', (m) => atRef.push(m as RefMessage));

    const message = GoEasy.im.createTextMessage!({
      text: 'help please',
      to: { type: 'cs', id: TEAM, data: { name: 'Support' } },
    });
    const sent = await call<RefMessage>((o) => GoEasy.im.sendMessage!(o), { message });
    expect([sent.teamId, sent.accepted], 'sendMessage onSuccess: [teamId, accepted]').toEqual([TEAM, false]);
    // The session is named by the time of the message that opened it (CS-4); on the customer's side the reference
    // keeps no sessionId on messages.
    const sessionStart = sent.timestamp;
    await eventually(
      () => alicePending.some((l) => l.conversations.some((c) => c.id === 'ref')),
      'PENDING_CONVERSATIONS_UPDATED at alice (ref)',
    );

    await alice.im.csteam(TEAM).accept({ customer: { id: 'ref', data: { name: 'Ref' } } });
    await eventually(() => atRef.length === 1, 'CS_MESSAGE_RECEIVED at the customer (CS_ACCEPT)');
    await alice.im.csteam(TEAM).transfer({ customerId: 'ref', agentId: 'bob' });
    await eventually(() => atRef.length === 2, 'CS_MESSAGE_RECEIVED at the customer (CS_TRANSFER)');
    const reply = bob.im
      .csteam(TEAM)
      .createTextMessage({ text: 'Bob here', to: { type: 'cs', id: 'ref', data: { name: 'Ref' } } });
    await bob.im.sendMessage({ message: reply });
    await eventually(() => atRef.length === 3, "CS_MESSAGE_RECEIVED at the customer (bob's reply)");
    await bob.im.csteam(TEAM).end({ id: 'ref' });
    await eventually(() => atRef.length === 4, 'CS_MESSAGE_RECEIVED at the customer (CS_END)');
    expect(
      atRef.map((m) => [m.type, m.senderId, m.teamId, m.accepted]),
      'CS_MESSAGE_RECEIVED at the customer: [type, senderId, teamId, accepted]',
    ).toEqual([
      ['CS_ACCEPT', 'alice', TEAM, true],
      ['CS_TRANSFER', 'alice', TEAM, true],
      ['text', 'bob', TEAM, true],
      ['CS_END', 'bob', TEAM, true],
    ]);
    expect(sessionEvents(atRef), 'CS_MESSAGE_RECEIVED at the customer: [type, senderId, payload]').toEqual([
      ['CS_ACCEPT', 'alice', { sessionStart }],
      ['CS_TRANSFER', 'alice', { sessionStart, transferTo: { id: 'bob', data: { name: 'Bob' } } }],
      ['CS_END', 'bob', { sessionStart }],
    ]);
    expect(atRef[2]?.payload, "CS_MESSAGE_RECEIVED (bob's reply): payload").toEqual({ text: 'Bob here' });
    expect(
      await bob.im.csteam(TEAM).customerStatus({ id: 'ref' }),
      'customerStatus after CS_END: status',
    ).toMatchObject({ status: 'FREE' });
  });

  it('INTEROP-13: the reference client as agent sees a Parley customer pending, accepts, transfers and ends', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    const bob = await parley(url, 'bob');
    await bob.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Bob' } });
    const pending = await referenceAgent(port);

    const carol = await parley(url, 'carol');
    const atCarol: CsMessage[] = [];
    carol.im.on('CS_MESSAGE_RECEIVED', (m) => atCarol.push(m));
    const first = (await carol.im.sendMessage({
      message: carol.im.createTextMessage({
        text: 'hello team',
        to: { type: 'cs', id: TEAM, data: { name: 'Support' } },
      }),
    })) as CsMessage;
    expect([first.status, first.teamId], 'sendMessage (customer): [status, teamId]').toEqual(['success', TEAM]);
    const sessionStart = first.sessionId;
    await eventually(
      () => pending.some((l) => l.conversations.some((c) => c.id === 'carol')),
      'PENDING_CONVERSATIONS_UPDATED at the reference (carol)',
    );
    const status = () =>
      call<{ status: string; agent?: { id: string } }>((o) => refTeam().customerStatus(o), { id: 'carol' });

    await call((o) => refTeam().accept(o), { customer: { id: 'carol', data: { name: 'Carol' } } });
    expect(await status(), 'csteam.customerStatus after accept: {status, agent}').toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'ref' },
    });
    await eventually(() => atCarol.length === 1, 'CS_MESSAGE_RECEIVED at the customer (CS_ACCEPT)');

    await call((o) => refTeam().transfer(o), { customerId: 'carol', agentId: 'bob' });
    expect(await bob.im.csteam(TEAM).customerStatus({ id: 'carol' }), 'customerStatus after transfer').toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'bob' },
    });
    await eventually(() => atCarol.length === 2, 'CS_MESSAGE_RECEIVED at the customer (CS_TRANSFER)');

    // Bob hands the customer back, so that the reference, holding it again, ends the session itself.
    await bob.im.csteam(TEAM).transfer({ customerId: 'carol', agentId: 'ref' });
    expect(await status(), 'csteam.customerStatus after the hand-back: {status, agent}').toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'ref' },
    });
    await call((o) => refTeam().end(o), { id: 'carol' });
    expect(await status(), 'csteam.customerStatus after end: status').toMatchObject({ status: 'FREE' });
    await eventually(() => atCarol.length === 4, 'CS_MESSAGE_RECEIVED at the customer (CS_END)');

    expect(
      atCarol.map((m) => [m.teamId, m.to, m.accepted, m.sessionId]),
      'CS_MESSAGE_RECEIVED at the customer: [teamId, to, accepted, sessionId]',
    ).toEqual(Array.from({ length: 4 }, () => [TEAM, 'carol', true, sessionStart]));
    expect(sessionEvents(atCarol), 'CS_MESSAGE_RECEIVED at the customer: [type, senderId, payload]').toEqual([
      ['CS_ACCEPT', 'ref', { sessionStart }],
      ['CS_TRANSFER', 'ref', { sessionStart, transferTo: { id: 'bob', data: { name: 'Bob' } } }],
      ['CS_TRANSFER', 'bob', { sessionStart, transferTo: { id: 'ref', data: { name: 'Ref' } } }],
      ['CS_END', 'ref', { sessionStart }],
    ]);
    expect(
      atCarol.filter((m) => m.senderId === 'ref').map((m) => m.senderData),
      'CS_MESSAGE_RECEIVED at the customer (from the reference): senderData',
    ).toEqual([{ name: 'Ref' }, { name: 'Ref' }, { name: 'Ref' }]);
  });

  it('INTEROP-22: the reference agent reloads its pending list on reconnect (mD.GIM.a), so a customer who wrote while its link was down shows', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    const pending = await referenceAgent(port);
    const shows = (id: string) => pending.some((l) => l.conversations.some((c) => c.id === id));

    referenceLink.lose();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnecting', "getConnectionStatus() 'reconnecting'");
    const dave = await parley(url, 'dave');
    await dave.im.sendMessage({
      message: dave.im.createTextMessage({
        text: 'anyone there?',
        to: { type: 'cs', id: TEAM, data: { name: 'Support' } },
      }),
    });
    expect(shows('dave'), 'PENDING_CONVERSATIONS_UPDATED at the reference while its link is down').toBe(false);
    referenceLink.restore();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnected', "getConnectionStatus() 'reconnected'");
    await eventually(() => shows('dave'), 'PENDING_CONVERSATIONS_UPDATED at the reference after the reconnect (dave)');
  });
});
