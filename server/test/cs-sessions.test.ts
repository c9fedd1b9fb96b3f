import { describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES } from '../src/protocol.js';
import { OPEN_APP, request, startServer } from './helpers.js';
import { PRIVATE_APP } from './pubsub-support.js';
import { signToken } from '../src/auth/token.js';
import { collect, content, login, settled } from './im-support.js';
import {
  accept,
  agentSays,
  csPublishParams,
  customerSays,
  expectFailure,
  goOnline,
  pendingOf,
  statusOf,
  type WireCs,
} from './cs-support.js';

describe('CS: sessions', () => {
  it('CS-3, CS-6: a first message opens a pending session that every online agent of the team hears', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const other = await login(url, 'other');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    await goOnline(other, 'team2');
    const aliceGot = collect<WireCs>(alice, 'imMessage');
    const otherGot = collect<WireCs>(other, 'imMessage');
    const ack = await customerSays(carol, 'team1', 'first');
    expect(ack.sessionId).toBe(ack.timestamp);
    await settled(alice, other);
    expect(aliceGot).toEqual([
      {
        t: 'cs',
        r: 'team1',
        s: 'carol',
        i: expect.any(String),
        ts: ack.timestamp,
        mt: 'text',
        p: '{"text":"first"}',
        d: '{"name":"carol"}',
        tid: 'team1',
        accepted: false,
        sessionId: ack.sessionId,
      },
    ]);
    expect(otherGot).toEqual([]);
    expect(await statusOf(alice, 'team1', 'carol')).toEqual({
      status: 'PENDING',
      start: ack.timestamp,
      sessionId: ack.sessionId,
    });
    const second = await customerSays(carol, 'team1', 'second');
    expect(second.sessionId).toBe(ack.sessionId);
    expect(await pendingOf(alice)).toEqual(['carol']);
    expect(await pendingOf(bob)).toEqual(['carol']);
    const [pending] = await content<Array<Record<string, unknown>>>(alice, 'CS_PENDING_CONVERSATION', {});
    expect(pending).toMatchObject({ customerData: '{"name":"carol"}', unread: 2, userOffsets: [] });
  });

  it('CS-7: accept moves the session to ACCEPTED, leaves every pending list, and routes to that agent only', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    const first = await customerSays(carol, 'team1');
    const bobGot = collect<WireCs>(bob, 'imMessage');
    const carolGot = collect<WireCs>(carol, 'imMessage');
    const accepted = await accept(alice, 'team1', 'carol');
    expect(accepted).toEqual({
      t: 'cs',
      r: 'carol',
      s: 'alice',
      i: expect.stringMatching(/^[0-9a-f]{32}$/),
      ts: expect.any(Number),
      mt: 'CS_ACCEPT',
      p: JSON.stringify({ sessionStart: first.timestamp }),
      d: '{"name":"Alice"}',
      tid: 'team1',
      accepted: true,
      sessionId: first.sessionId,
    });
    await settled(bob, carol);
    expect(bobGot.map((m) => m.mt)).toEqual(['CS_ACCEPT']);
    expect(carolGot.map((m) => m.i)).toEqual([accepted.i]);
    expect(await pendingOf(alice)).toEqual([]);
    expect(await pendingOf(bob)).toEqual([]);
    expect(await statusOf(bob, 'team1', 'carol')).toEqual({
      status: 'ACCEPTED',
      start: first.timestamp,
      sessionId: first.sessionId,
      agent: { id: 'alice', data: '{"name":"Alice"}' },
    });
    const aliceGot = collect<WireCs>(alice, 'imMessage');
    const next = await customerSays(carol, 'team1', 'served?');
    expect(next.sessionId).toBe(first.sessionId);
    const reply = await agentSays(alice, 'team1', 'carol', 'yes');
    expect(reply).toMatchObject({ code: 200, content: { sessionId: first.sessionId } });
    await settled(alice, bob, carol);
    expect(aliceGot.map((m) => [m.mt, m.accepted])).toEqual([['text', true]]);
    expect(bobGot.map((m) => m.mt)).toEqual(['CS_ACCEPT']);
    expect(carolGot.map((m) => [m.s, m.r])).toEqual([
      ['alice', 'carol'],
      ['alice', 'carol'],
    ]);
  });

  it('CS-7: a second accept is refused; a re-sent accept of the same agent gets its message back', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await goOnline(bob, 'team1');
    await customerSays(carol, 'team1');
    const first = await accept(alice, 'team1', 'carol');
    expect(await accept(alice, 'team1', 'carol')).toEqual(first);
    const params = { teamId: 'team1', customer: { id: 'carol', data: '{"name":"carol"}' } };
    expectFailure(await request(bob, 'CS_ACCEPT', params), 400, MESSAGES.csAcceptedByOther);
    await agentSays(alice, 'team1', 'carol');
    expectFailure(await request(alice, 'CS_ACCEPT', params), 400, MESSAGES.csAlreadyAccepted);
  });

  it('CS-7: an agent may accept a FREE customer, which opens a new session', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    await goOnline(alice, 'team1');
    const accepted = await accept(alice, 'team1', 'dave');
    expect(accepted.sessionId).toBe(accepted.ts);
    expect(JSON.parse(accepted.p)).toEqual({ sessionStart: accepted.ts });
    expect(await statusOf(alice, 'team1', 'dave')).toMatchObject({ status: 'ACCEPTED', start: accepted.ts });
  });

  it('CS-4: end frees the customer; the next message opens a newer pending session', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    const first = await customerSays(carol, 'team1');
    await accept(alice, 'team1', 'carol');
    // The accept's push to carol may still be on its way when alice has her ack.
    await settled(carol);
    const carolGot = collect<WireCs>(carol, 'imMessage');
    const ended = await content<{ message: WireCs }>(alice, 'CS_END', { teamId: 'team1', customerId: 'carol' });
    expect(ended.message).toMatchObject({ mt: 'CS_END', s: 'alice', r: 'carol', sessionId: first.sessionId });
    expect(await content(alice, 'CS_END', { teamId: 'team1', customerId: 'carol' })).toEqual(ended);
    await settled(carol);
    expect(carolGot.map((m) => m.mt)).toEqual(['CS_END']);
    expect(await statusOf(alice, 'team1', 'carol')).toEqual({ status: 'FREE' });
    const again = await customerSays(carol, 'team1', 'me again');
    expect(again.sessionId).toBeGreaterThan(first.sessionId);
    expect(await statusOf(alice, 'team1', 'carol')).toMatchObject({ status: 'PENDING', sessionId: again.sessionId });
    expect(await pendingOf(alice)).toEqual(['carol']);
  });

  it('CS-5: transfer hands the customer to another online agent; the payload carries transferTo.data as JSON', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    const first = await customerSays(carol, 'team1');
    await accept(alice, 'team1', 'carol');
    // Bob, online in the team, is told of the accept too (CS-7): let that arrive before listening.
    await settled(bob);
    const bobGot = collect<WireCs>(bob, 'imMessage');
    const params = { teamId: 'team1', customerId: 'carol', agentId: 'bob' };
    const { message } = await content<{ message: WireCs }>(alice, 'CS_TRANSFER', params);
    expect(JSON.parse(message.p)).toEqual({
      sessionStart: first.timestamp,
      transferTo: { id: 'bob', data: '{"name":"Bob"}' },
    });
    expect(await content(alice, 'CS_TRANSFER', params)).toEqual({ message });
    await settled(bob);
    expect(bobGot.map((m) => m.i)).toEqual([message.i]);
    expect(await statusOf(alice, 'team1', 'carol')).toMatchObject({
      status: 'ACCEPTED',
      sessionId: first.sessionId,
      agent: { id: 'bob', data: '{"name":"Bob"}' },
    });
    const aliceGot = collect<WireCs>(alice, 'imMessage');
    await customerSays(carol, 'team1', 'to bob now');
    expectFailure(await agentSays(alice, 'team1', 'carol'), 400, MESSAGES.csNotYourCustomer);
    expect(await agentSays(bob, 'team1', 'carol')).toMatchObject({ code: 200 });
    await settled(alice, bob);
    expect(aliceGot).toEqual([]);
    expect(bobGot.map((m) => m.s)).toEqual(['alice', 'carol']);
  });

  it('CS-5: transfer only to another online agent of the team', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    await goOnline(alice, 'team1');
    await goOnline(bob, 'team2');
    await accept(alice, 'team1', 'carol');
    for (const agentId of ['bob', 'alice', 'nobody']) {
      const ack = await request(alice, 'CS_TRANSFER', { teamId: 'team1', customerId: 'carol', agentId });
      expectFailure(ack, 400, MESSAGES.csTransferTarget);
    }
  });

  it('CS-2: only online agents of the team accept, end, transfer, watch or read status (401 No permission)', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const mallory = await login(url, 'mallory');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await goOnline(mallory, 'team2');
    await customerSays(carol, 'team1');
    const ref = { teamId: 'team1', customerId: 'carol' };
    const attempts: Array<[string, unknown]> = [
      ['CS_ACCEPT', { teamId: 'team1', customer: { id: 'carol', data: '{"a":1}' } }],
      ['CS_END', ref],
      ['CS_TRANSFER', { ...ref, agentId: 'alice' }],
      ['CS_CUSTOMER_STATUS', ref],
      ['CS_LIVE_SESSION', ref],
    ];
    for (const [event, params] of attempts) {
      expectFailure(await request(mallory, event, params), 401, MESSAGES.noPermission);
      expectFailure(await request(carol, event, params), 401, MESSAGES.noPermission);
    }
    expectFailure(await agentSays(mallory, 'team1', 'carol'), 401, MESSAGES.noPermission);
    expect(await pendingOf(mallory)).toEqual([]);
  });

  it('CS-7: accept validates the customer with the spec messages', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    await goOnline(alice, 'team1');
    expectFailure(await request(alice, 'CS_ACCEPT', { teamId: 'team1' }), 400, MESSAGES.csCustomerRequired);
    for (const data of ['{}', '[]', 'nope', '"x"']) {
      const ack = await request(alice, 'CS_ACCEPT', { teamId: 'team1', customer: { id: 'carol', data } });
      expectFailure(ack, 400, MESSAGES.csCustomerDataEmpty);
    }
  });

  it('CS-16: team, agent and customer data are at most 300 bytes of JSON', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    // {"n":"…"} is 8 bytes around the value; é is two bytes.
    const sized = (bytes: number) =>
      JSON.stringify({ n: 'é'.repeat(Math.floor((bytes - 8) / 2)) + 'x'.repeat((bytes - 8) % 2) });
    expect(Buffer.byteLength(sized(301))).toBe(301);
    const online = (teamData: string, agentData: string) =>
      request(alice, 'CS_ONLINE', { teamId: 'team1', teamData, agentData });
    expectFailure(await online(sized(301), '{}'), 400, MESSAGES.dataTooLong);
    expectFailure(await online('{}', sized(301)), 400, MESSAGES.dataTooLong);
    expect(await online(sized(300), sized(300))).toMatchObject({ code: 200 });
    const accept = (data: string) => request(alice, 'CS_ACCEPT', { teamId: 'team1', customer: { id: 'carol', data } });
    expectFailure(await accept(sized(301)), 400, MESSAGES.dataTooLong);
    expect(await accept(sized(300))).toMatchObject({ code: 200 });
  });

  it('CS-3: a re-sent customer message is stored once and answered with its first timestamp', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    const aliceGot = collect<WireCs>(alice, 'imMessage');
    const params = { mt: 'text', to: 'team1', p: '{"text":"x"}', t: 'cs', tid: 'team1', guid: 'g'.repeat(32) };
    const first = await content(carol, 'publishIM', { ...params, retried: 0 });
    expect(await content(carol, 'publishIM', { ...params, retried: 1 })).toEqual(first);
    await settled(alice);
    expect(aliceGot).toHaveLength(1);
    expectFailure(
      await request(carol, 'publishIM', { ...params, guid: 'h'.repeat(32), p: 'x' }),
      400,
      MESSAGES.payloadNotJson,
    );
  });

  it('IM-25, IM-26: CS messages follow the text rules, and carry a notification to the other side', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    const aliceGot = collect<WireCs & { nt?: unknown }>(alice, 'imMessage');
    const params = (overrides: Record<string, unknown>) => csPublishParams('team1', overrides);
    expectFailure(await request(carol, 'publishIM', params({ p: '{"text":" "}' })), 400, MESSAGES.textEmpty);
    const long = JSON.stringify({ text: 'x'.repeat(LIMITS.textMaxLength + 1) });
    expectFailure(await request(carol, 'publishIM', params({ p: long })), 400, MESSAGES.textTooLong);
    await content(carol, 'publishIM', params({ nt: { title: 'Carol', body: 'help' } }));
    await settled(alice);
    expect(aliceGot).toHaveLength(1);
    expect(aliceGot[0]?.nt).toEqual({ t: 'Carol', c: 'help' });
  });

  it('CS-14: a client cannot send the session events as messages, so it cannot accept, end or transfer by them', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await customerSays(carol, 'team1');
    const fake = (mt: string, p: unknown) =>
      request(carol, 'publishIM', csPublishParams('team1', { mt, p: JSON.stringify(p) }));
    for (const [mt, p] of [
      ['CS_ACCEPT', { sessionStart: 1 }],
      ['CS_END', {}],
      ['CS_TRANSFER', { transferTo: { id: 'mallory', data: '{}' } }],
    ] as const) {
      expectFailure(await fake(mt, p), 400, MESSAGES.csEventReserved);
    }
    expect(await statusOf(alice, 'team1', 'carol')).toMatchObject({ status: 'PENDING' });
    expect(await pendingOf(alice)).toEqual(['carol']);
  });

  it('CS-11: a live session hears every message of the customer until it quits or its connection closes', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await goOnline(alice, 'team1');
    await goOnline(bob, 'team1');
    await customerSays(carol, 'team1');
    await accept(alice, 'team1', 'carol');
    const ref = { teamId: 'team1', customerId: 'carol' };
    const live = await content<{ customerStatus: Record<string, unknown> }>(bob, 'CS_LIVE_SESSION', ref);
    expect(live.customerStatus).toMatchObject({ status: 'ACCEPTED', agent: { id: 'alice' } });
    const bobGot = collect<WireCs>(bob, 'imMessage');
    await customerSays(carol, 'team1', 'one');
    await agentSays(alice, 'team1', 'carol', 'two');
    await settled(bob);
    expect(bobGot.map((m) => JSON.parse(m.p) as unknown)).toEqual([{ text: 'one' }, { text: 'two' }]);
    await content(bob, 'CS_QUIT_LIVE', ref);
    await customerSays(carol, 'team1', 'three');
    await settled(bob);
    expect(bobGot).toHaveLength(2);
  });

  it('CS-15: in an app that requires access tokens, going online needs a token naming the team', async () => {
    const { url } = await startServer({ apps: [OPEN_APP, PRIVATE_APP] });
    const alice = await login(url, 'alice', { appkey: PRIVATE_APP.appkey });
    const future = Date.now() + 60_000;
    const token = (payload: Record<string, unknown>, secret = PRIVATE_APP.secretKey) => signToken(secret, payload);
    const online = (at?: string) =>
      request(alice, 'CS_ONLINE', { teamId: 'team1', teamData: '{}', agentData: '{"name":"Alice"}', at });
    const refused = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    expect(await online()).toEqual(refused);
    expect(await online('garbage')).toEqual(refused);
    expect(await online(token({ u: 'alice', t: 'team1', e: future }, 'wrong-secret'))).toEqual(refused);
    expect(await online(token({ u: 'bob', t: 'team1', e: future }))).toEqual(refused);
    expect(await online(token({ u: 'alice', t: ['team2'], e: future }))).toEqual(refused);
    expect(await online(token({ u: 'alice', t: 'team1', e: Date.now() - 1 }))).toEqual(refused);
    expect(await content(alice, 'CS_MY_TEAMS', {})).toEqual([]);
    expect(await online(token({ u: 'alice', t: ['team2', 'team1'], e: future }))).toMatchObject({ code: 200 });
    expect(await content(alice, 'CS_MY_TEAMS', {})).toEqual(['team1']);
  });
});
