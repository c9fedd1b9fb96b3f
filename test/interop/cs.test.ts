import { describe, expect, it } from 'vitest';
import { createClient, type CsMessage, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { GoEasy, call, connectReference, eventually } from './support.js';

const TEAM = 'support';

interface RefMessage {
  messageId: string;
  senderId: string;
  type: string;
  payload: unknown;
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
    expect(sent).toMatchObject({ teamId: TEAM, accepted: false });
    await eventually(
      () => alicePending.some((l) => l.conversations.some((c) => c.id === 'ref')),
      'ref pending at alice',
    );

    await alice.im.csteam(TEAM).accept({ customer: { id: 'ref', data: { name: 'Ref' } } });
    await eventually(() => atRef.some((m) => m.type === 'CS_ACCEPT'), 'CS_ACCEPT at the customer');
    await alice.im.csteam(TEAM).transfer({ customerId: 'ref', agentId: 'bob' });
    await eventually(() => atRef.some((m) => m.type === 'CS_TRANSFER'), 'CS_TRANSFER at the customer');
    const reply = bob.im
      .csteam(TEAM)
      .createTextMessage({ text: 'Bob here', to: { type: 'cs', id: 'ref', data: { name: 'Ref' } } });
    await bob.im.sendMessage({ message: reply });
    await eventually(() => atRef.some((m) => m.type === 'text' && m.senderId === 'bob'), "bob's reply at the customer");
    await bob.im.csteam(TEAM).end({ id: 'ref' });
    await eventually(() => atRef.some((m) => m.type === 'CS_END'), 'CS_END at the customer');
    expect(await bob.im.csteam(TEAM).customerStatus({ id: 'ref' })).toMatchObject({ status: 'FREE' });
  });

  it('INTEROP-13: the reference client as agent; a Parley customer; pending, accept, transfer', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    const bob = await parley(url, 'bob');
    await bob.im.csteam(TEAM).online({ teamData: { name: 'Support' }, agentData: { name: 'Bob' } });
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['im']);
    // The client keeps its teams in a set it only creates when it first asks the server for them (isOnline):
    // going online before that throws inside the client, so an app asks first.
    await call((o) => refTeam().isOnline(o));
    await call((o) => refTeam().online(o), { teamData: { name: 'Support' }, agentData: { name: 'Ref' } });
    const pending: Array<{ conversations: Array<{ id: string }> }> = [];
    GoEasy.im.on(GoEasy.IM_EVENT.PENDING_CONVERSATIONS_UPDATED ?? 'PENDING_CONVERSATIONS_UPDATED', (l) =>
      pending.push(l as { conversations: Array<{ id: string }> }),
    );
    await call((o) => GoEasy.im.pendingConversations!(o));

    const carol = await parley(url, 'carol');
    const first = (await carol.im.sendMessage({
      message: carol.im.createTextMessage({
        text: 'hello team',
        to: { type: 'cs', id: TEAM, data: { name: 'Support' } },
      }),
    })) as CsMessage;
    await eventually(
      () => pending.some((l) => l.conversations.some((c) => c.id === 'carol')),
      'carol pending at the reference',
    );

    await call((o) => refTeam().accept(o), { customer: { id: 'carol', data: { name: 'Carol' } } });
    const status = await call<{ status: string; agent?: { id: string } }>((o) => refTeam().customerStatus(o), {
      id: 'carol',
    });
    expect(status).toMatchObject({ status: 'ACCEPTED', agent: { id: 'ref' } });
    expect(first).toMatchObject({ status: 'success', teamId: TEAM });

    await call((o) => refTeam().transfer(o), { customerId: 'carol', agentId: 'bob' });
    expect(await bob.im.csteam(TEAM).customerStatus({ id: 'carol' })).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'bob' },
    });
    await bob.im.csteam(TEAM).end({ id: 'carol' });
    expect(await bob.im.csteam(TEAM).customerStatus({ id: 'carol' })).toMatchObject({ status: 'FREE' });
  });
});
