import { describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES, privateConversationId } from '../src/protocol.js';
import { OPEN_APP, authorizeParams, connect, freshPgSchema, request, startServer } from './helpers.js';
import {
  acking,
  collect,
  content,
  guid,
  leave,
  login,
  next,
  pagesBeforePushes,
  publishParams,
  send,
  settled,
} from './im-support.js';

interface WireMessage {
  t: string;
  r: string;
  s: string;
  i: string;
  ts: number;
  mt: string;
  p: string;
  d?: string;
  rc?: boolean;
  recaller?: { id: string; data: Record<string, unknown> };
}
interface History {
  messages: WireMessage[];
  userOffsets: Array<{ userId: string; offset: number }>;
}

describe('IM: publishIM', () => {
  it("IM-15: acks the timestamp and pushes to every connection of the receiver and the sender's other ones", async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bobPhone = await login(url, 'bob');
    const bobLaptop = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const carolGot = collect(carol, 'imMessage');
    const senderGot = collect(alice, 'imMessage');
    const pushes = [alicePhone, bobPhone, bobLaptop].map((s) => next<WireMessage>(s, 'imMessage'));
    const before = Date.now();
    const params = publishParams('bob', { p: JSON.stringify({ text: 'hi' }) });
    const ack = await request(alice, 'publishIM', params);
    expect(ack).toEqual({ code: 200, resultCode: 200, content: { timestamp: expect.any(Number) } });
    const ts = (ack['content'] as { timestamp: number }).timestamp;
    expect(ts).toBeGreaterThanOrEqual(before);
    const expected = { t: 'private', r: 'bob', s: 'alice', i: params['guid'], ts, mt: 'text', p: '{"text":"hi"}' };
    for (const push of await Promise.all(pushes)) expect(push).toEqual(expected);
    await settled(carol, alice);
    expect(carolGot).toEqual([]);
    expect(senderGot).toEqual([]);
  });

  it('IM-3: a re-sent guid gets the first timestamp, and is stored and pushed once', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const got = collect(bob, 'imMessage');
    const params = publishParams('bob');
    const first = await request(alice, 'publishIM', params);
    const again = await request(alice, 'publishIM', { ...params, retried: 1 });
    const [x, y] = await Promise.all([
      request(alice, 'publishIM', { ...params, retried: 2 }),
      request(alice, 'publishIM', { ...params, retried: 3 }),
    ]);
    expect(again['content']).toEqual(first['content']);
    expect(x['content']).toEqual(first['content']);
    expect(y['content']).toEqual(first['content']);
    await settled(bob);
    expect(got).toHaveLength(1);
    const history = await content<History>(bob, 'IM_HISTORY', { id: 'alice', scene: 'private' });
    expect(history.messages).toHaveLength(1);
  });

  it('IM-5: timestamps strictly increase within a conversation under a burst of 50 sends', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alice2 = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const pushed = collect<WireMessage>(bob, 'imMessage');
    const sends = Array.from({ length: 50 }, (_, n) => send(n % 2 ? alice : alice2, 'bob'));
    const times = await Promise.all(sends);
    expect(new Set(times).size).toBe(50);
    await settled(bob);
    const pushedTimes = pushed.map((m) => m.ts);
    // Pushes leave in timestamp order.
    expect(pushedTimes).toEqual([...pushedTimes].sort((a, b) => a - b));
    expect([...times].sort((a, b) => a - b)).toEqual(pushedTimes);
  });

  it('IM-2, IM-4: refuses bad input with the spec messages', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bad = (overrides: Record<string, unknown>) => request(alice, 'publishIM', publishParams('bob', overrides));
    expect(await bad({ mt: '' })).toEqual({ code: 400, resultCode: 400, content: MESSAGES.typeEmpty });
    expect(await bad({ mt: undefined })).toMatchObject({ code: 400, content: MESSAGES.typeEmpty });
    expect(await bad({ p: '' })).toMatchObject({ code: 400, content: MESSAGES.payloadEmpty });
    expect(await bad({ p: undefined })).toMatchObject({ code: 400, content: MESSAGES.payloadEmpty });
    const long = JSON.stringify({ text: 'x'.repeat(LIMITS.messageMaxBytes) });
    expect(await bad({ p: long })).toMatchObject({ code: 400, content: MESSAGES.messageTooLong });
    // IM-27: the type counts towards the 3 KB, so that it cannot carry what the payload may not.
    const p = JSON.stringify({ n: 1 });
    const fits = 'k'.repeat(LIMITS.messageMaxBytes - p.length);
    expect(await bad({ mt: `${fits}k`, p })).toMatchObject({ code: 400, content: MESSAGES.messageTooLong });
    expect(await bad({ mt: 'k'.repeat(100_000), p })).toMatchObject({ code: 400, content: MESSAGES.messageTooLong });
    expect(await bad({ mt: fits, p })).toMatchObject({ code: 200 });
    // In UTF-8 bytes, as the SDK counts: 1 100 characters of three bytes each are over, though 1 100 characters fit.
    const wide = JSON.stringify({ text: '中'.repeat(1100) });
    expect(await bad({ p: wide })).toMatchObject({ code: 400, content: MESSAGES.messageTooLong });
    expect(await bad({ p: JSON.stringify({ text: '中'.repeat(1000) }) })).toMatchObject({ code: 200 });
    expect(await bad({ t: 'system' })).toMatchObject({ code: 400, content: MESSAGES.sceneNotSupported });
    // The scene `cs` is served by customer service now (CS-3, server/test/cs-sessions.test.ts).
    expect(await bad({ to: 'alice' })).toMatchObject({ code: 400, content: MESSAGES.toSelf });
    // In every scene: a group or a team named by my own id is refused as well (IM-2).
    expect(await bad({ t: 'group', to: 'alice' })).toMatchObject({ code: 400, content: MESSAGES.toSelf });
    expect(await bad({ t: 'cs', to: 'alice' })).toMatchObject({ code: 400, content: MESSAGES.toSelf });
    expect(await bad({ to: '' })).toMatchObject({ code: 400, content: MESSAGES.idEmpty });
    expect(await bad({ to: 'x'.repeat(129) })).toMatchObject({ code: 400 });
    expect(await bad({ p: '{not json' })).toMatchObject({ code: 400, content: MESSAGES.payloadNotJson });
    expect(await bad({ d: '[1]' })).toMatchObject({ code: 400, content: MESSAGES.dataNotObjectIm });
    // A number id is the reference's too: it becomes a string.
    expect(await bad({ to: 42 })).toMatchObject({ code: 200 });
  });

  it('IM-25: a text message must hold a text that is not blank and at most 2 500 characters, as the SDK checks', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const got = collect<WireMessage>(bob, 'imMessage');
    const sendP = (p: unknown, mt = 'text') =>
      request(alice, 'publishIM', publishParams('bob', { mt, p: JSON.stringify(p) }));
    const empty = { code: 400, resultCode: 400, content: MESSAGES.textEmpty };
    expect(await sendP({ text: '' })).toEqual(empty);
    expect(await sendP({ text: ' \n\t' })).toEqual(empty);
    expect(await sendP({})).toEqual(empty);
    expect(await sendP({ text: 42 })).toEqual(empty);
    expect(await sendP('hello')).toEqual(empty);
    expect(await sendP(null)).toEqual(empty);
    expect(await sendP({ text: 'x'.repeat(LIMITS.textMaxLength + 1) })).toEqual({
      code: 400,
      resultCode: 400,
      content: MESSAGES.textTooLong,
    });
    expect(await sendP({ text: 'x'.repeat(LIMITS.textMaxLength) })).toMatchObject({ code: 200 });
    // Other types keep their own payloads: a custom type may carry a blank string or a number.
    expect(await sendP(' ', 'poke')).toMatchObject({ code: 200 });
    expect(await sendP(5, 'poke')).toMatchObject({ code: 200 });
    await settled(alice, bob);
    expect(got.map((m) => m.mt)).toEqual(['text', 'poke', 'poke']);
  });

  it('IM-26: a notification reaches the receivers with the message as {t, c}; one over its limits is refused', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const got = collect<WireMessage & { nt?: unknown }>(bob, 'imMessage');
    const nt = { title: 'Alice', body: 'hello', badge: '1', sound: 'ding' };
    expect(await request(alice, 'publishIM', publishParams('bob', { nt }))).toMatchObject({ code: 200 });
    expect(await request(alice, 'publishIM', publishParams('bob', { nt: null }))).toMatchObject({ code: 200 });
    expect(await request(alice, 'publishIM', publishParams('bob', { nt: { title: 'x'.repeat(33) } }))).toEqual({
      code: 400,
      resultCode: 400,
      content: MESSAGES.notificationTitleTooLong,
    });
    expect(await request(alice, 'publishIM', publishParams('bob', { nt: { body: 'x'.repeat(51) } }))).toMatchObject({
      code: 400,
      content: MESSAGES.notificationBodyTooLong,
    });
    await settled(alice, bob);
    expect(got).toHaveLength(2);
    expect(got[0]?.nt).toEqual({ t: 'Alice', c: 'hello' });
    expect(got[1]).not.toHaveProperty('nt');
    // History does not keep it: it is for the push that wakes a device.
    const page = await content<History>(bob, 'IM_HISTORY', { id: 'alice', scene: 'private' });
    expect(page.messages[0]).not.toHaveProperty('nt');
  });

  it('IM-2: needs the write permission and a named user', async () => {
    const { url } = await startServer();
    const reader = await login(url, 'alice', { appkey: OPEN_APP.subscribeKey });
    expect(await request(reader, 'publishIM', publishParams('bob'))).toEqual({
      code: 401,
      resultCode: 401,
      content: MESSAGES.noPermission,
    });
    const anonymous = await login(url, '', { userId: null, a: true });
    expect(await request(anonymous, 'publishIM', publishParams('bob'))).toMatchObject({
      code: 401,
      content: MESSAGES.noPermission,
    });
    // Nor may it look up who is online or what users said about themselves.
    for (const [event, params] of [
      ['imHereNow', { userIds: ['bob'] }],
      ['imGroupHereNow', { groupId: 'g1' }],
      ['imGroupOnlineCount', { groupId: 'g1' }],
      ['MD_CMD', { name: 'GET', data: { ids: ['bob'] } }],
    ] as const) {
      expect(await request(anonymous, event, params), event).toEqual({
        code: 401,
        resultCode: 401,
        content: MESSAGES.noPermission,
      });
    }
  });
});

describe('IM: history', () => {
  it('IM-8: pages oldest first, lastTimestamp exclusive, default 10, at most 30, exactly limit when more exist', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const times: number[] = [];
    for (let n = 0; n < 40; n += 1) times.push(await send(n % 3 ? alice : bob, n % 3 ? 'bob' : 'alice'));
    const page = (params: Record<string, unknown>) =>
      content<History>(alice, 'IM_HISTORY', { id: 'bob', scene: 'private', ...params });

    const latest = await page({});
    expect(latest.messages.map((m) => m.ts)).toEqual(times.slice(30));
    expect(latest.messages[0]).toMatchObject({ t: 'private', mt: 'text', p: '{"text":"hello"}' });
    for (const m of latest.messages) expect(m.r).toBe(m.s === 'alice' ? 'bob' : 'alice');
    expect((await page({ lastTimestamp: 0, limit: null })).messages).toHaveLength(10);
    const older = await page({ lastTimestamp: times[30], limit: 5 });
    expect(older.messages.map((m) => m.ts)).toEqual(times.slice(25, 30));
    expect((await page({ limit: 100 })).messages.map((m) => m.ts)).toEqual(times.slice(10));
    expect((await page({ lastTimestamp: times[3], limit: 30 })).messages.map((m) => m.ts)).toEqual(times.slice(0, 3));
    expect((await page({ lastTimestamp: times[0] })).messages).toEqual([]);
    expect(await request(alice, 'IM_HISTORY', { id: 'bob', scene: 'private', limit: 0 })).toMatchObject({
      code: 400,
    });
  });

  it('IM-7, IM-8: leaves out what I deleted, flags what was recalled, and reports read offsets', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const [a, b, c] = [await send(alice, 'bob'), await send(alice, 'bob'), await send(alice, 'bob')];
    await content(alice, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'bob', times: [b] });
    await content(bob, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'alice', times: [a] });
    await content(bob, 'IM_MARK_AS_READ', { id: 'alice', scene: 'private', lastTimestamp: b });
    const bobs = await content<History>(bob, 'IM_HISTORY', { id: 'alice', scene: 'private' });
    expect(bobs.messages.map((m) => m.ts)).toEqual([b, c]);
    expect(bobs.messages[0]).toMatchObject({ rc: true, recaller: { id: 'alice', data: { name: 'alice' } } });
    expect(bobs.messages[1]?.rc).toBeUndefined();
    expect(bobs.userOffsets).toEqual([
      { userId: 'bob', offset: b },
      { userId: 'alice', offset: c },
    ]);
    const alices = await content<History>(alice, 'IM_HISTORY', { id: 'bob', scene: 'private' });
    expect(alices.messages.map((m) => m.ts)).toEqual([a, b, c]);
  });

  it('IM-9: a private history is only ever the requester own conversation', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    await send(alice, 'bob');
    const carol = await login(url, 'carol');
    // Carol can only name the other side; the conversation alice-bob is not hers to reach.
    expect((await content<History>(carol, 'IM_HISTORY', { id: 'bob', scene: 'private' })).messages).toEqual([]);
    expect((await content<History>(carol, 'IM_HISTORY', { id: 'alice', scene: 'private' })).messages).toEqual([]);
    // Ids with ':' cannot forge another pair's key.
    const odd = await login(url, 'alice:bob');
    expect((await content<History>(odd, 'IM_HISTORY', { id: 'x', scene: 'private' })).messages).toEqual([]);
  });

  it('IM-9: a group history is for members only', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await send(alice, 'g1', { t: 'group' });
    const mallory = await login(url, 'mallory');
    expect(await request(mallory, 'IM_HISTORY', { id: 'g1', scene: 'group' })).toEqual({
      code: 401,
      resultCode: 401,
      content: MESSAGES.noPermission,
    });
    expect(await request(mallory, 'IM_HISTORY_CHANGE', { id: 'g1', scene: 'group', after: 0, min: 0 })).toMatchObject({
      code: 401,
    });
    const history = await content<History>(alice, 'IM_HISTORY', { id: 'g1', scene: 'group' });
    expect(history.messages).toEqual([
      expect.objectContaining({ t: 'group', r: 'g1', s: 'alice', d: '{"name":"alice"}' }),
    ]);
  });

  it('IM-10: IM_HISTORY_CHANGE reports offsets, my deletions and recalls grouped by recaller', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const change = (socket: typeof alice, id: string, min: number) =>
      content<Record<string, unknown>>(socket, 'IM_HISTORY_CHANGE', { scene: 'private', id, after: min, min });
    expect(await change(bob, 'alice', 0)).toEqual({ userOffsets: [], deletedMessageTimes: [], recalledMessages: [] });
    const t = [await send(alice, 'bob'), await send(bob, 'alice'), await send(alice, 'bob'), await send(bob, 'alice')];
    await content(alice, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'bob', times: [t[0], t[2]] });
    await content(bob, 'IM_RECALL_MESSAGE', { scene: 'private', targetId: 'alice', times: [t[3]] });
    await content(bob, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'alice', times: [t[0], t[2]] });
    const bobs = await change(bob, 'alice', t[1] as number);
    expect(bobs).toEqual({
      userOffsets: [
        { userId: 'bob', offset: t[3] },
        { userId: 'alice', offset: t[2] },
      ],
      deletedMessageTimes: [t[2]],
      recalledMessages: [
        { recaller: { id: 'alice', data: { name: 'alice' } }, times: [t[2]] },
        { recaller: { id: 'bob', data: { name: 'bob' } }, times: [t[3]] },
      ],
    });
    expect((await change(alice, 'bob', 0))['deletedMessageTimes']).toEqual([]);
  });
});

describe('IM: recall and delete', () => {
  it('IM-13, IM-14: recalls only my own messages, pushing to the others and my other devices, not the asker', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const mine = await send(alice, 'bob');
    const bobs = await send(bob, 'alice');
    const askerGot = collect(alice, 'IM_MSG_RECALLED');
    const recall = (times: number[], scene = 'private') =>
      request(alice, 'IM_RECALL_MESSAGE', { scene, targetId: 'bob', times });
    expect(await recall([mine, bobs])).toEqual({ code: 400, resultCode: 400, content: MESSAGES.recallOthers });
    expect(await recall([mine + 100_000])).toMatchObject({ code: 400, content: MESSAGES.recallOthers });
    expect(await recall([mine], 'cs')).toMatchObject({ code: 400, content: MESSAGES.recallCs });
    const pushes = [bob, alicePhone].map((s) => next(s, 'IM_MSG_RECALLED'));
    expect(await recall([mine])).toEqual({ code: 200, resultCode: 200, content: null });
    const expected = {
      scene: 'private',
      conversationId: privateConversationId('alice', 'bob'),
      recaller: { id: 'alice', data: { name: 'alice' } },
      times: [mine],
    };
    expect(await Promise.all(pushes)).toEqual([expected, expected]);
    // Again: already recalled, skipped silently, nothing pushed.
    const bobGot = collect(bob, 'IM_MSG_RECALLED');
    expect(await recall([mine])).toMatchObject({ code: 200 });
    await settled(alice, bob);
    expect(askerGot).toEqual([]);
    expect(bobGot).toEqual([]);
  });

  it('IM-12: deletes for me only, tells my other devices, and the other side still sees them', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const bobGot = collect(bob, 'IM_MSG_DELETED');
    const askerGot = collect(alice, 'IM_MSG_DELETED');
    const [a, b] = [await send(alice, 'bob'), await send(bob, 'alice')];
    const del = (params: Record<string, unknown>) =>
      request(alice, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'bob', ...params });
    expect(await del({ times: [a], scene: 'cs' })).toMatchObject({ code: 400, content: MESSAGES.deleteCs });
    expect(await del({ times: [] })).toMatchObject({ code: 200 });
    const phone = next(alicePhone, 'IM_MSG_DELETED');
    expect(await del({ times: [a, b] })).toMatchObject({ code: 200 });
    expect(await phone).toEqual({ scene: 'private', targetId: 'bob', deleterId: 'alice', times: [a, b] });
    await settled(alice, bob);
    expect(bobGot).toEqual([]);
    expect(askerGot).toEqual([]);
    expect((await content<History>(alice, 'IM_HISTORY', { id: 'bob', scene: 'private' })).messages).toEqual([]);
    expect((await content<History>(bob, 'IM_HISTORY', { id: 'alice', scene: 'private' })).messages).toHaveLength(2);
  });

  it('IM-24: a client that comes back with its sid gets the messages stored while it was away', async () => {
    const { url, server } = await startServer();
    const alice = acking(await login(url, 'alice'));
    const bob = await login(url, 'bob');
    const sid = (await request(alice, 'authorize', authorizeParams({ userId: 'alice' })))['sid'];
    const before = await send(bob, 'alice');
    // Replay starts at the millisecond of the last sighting: a message of that same millisecond comes again.
    while (Date.now() <= before) await new Promise((resolve) => setTimeout(resolve, 2));
    await settled(alice);
    await leave(server, alice);
    const missed = [await send(bob, 'alice'), await send(bob, 'alice', { t: 'private' })];
    const back = await connect(url);
    const got = collect<WireMessage>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await settled(back);
    expect(got.map((m) => m.ts)).toEqual(missed);
    expect(got.map((m) => m.ts)).not.toContain(before);
    // A fresh start (no sid) replays nothing: the client loads conversations and history itself.
    const fresh = await connect(url);
    const none = collect(fresh, 'imMessage');
    await request(fresh, 'authorize', authorizeParams({ userId: 'alice' }));
    await settled(fresh);
    expect(none).toEqual([]);
  });

  it('IM-24: what was pushed and not acknowledged when the link went comes again, but my own sends', async () => {
    const { url, server } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    await content(alice, 'subscribeGroups', { groupIds: ['g'] });
    await content(bob, 'subscribeGroups', { groupIds: ['g'] });
    const sid = (await request(alice, 'authorize', authorizeParams({ userId: 'alice' })))['sid'];
    const got = collect<WireMessage>(alice, 'imMessage');
    const received = await send(bob, 'alice');
    await settled(alice);
    alice.emit('imAck', { publishGuid: (got[0] as WireMessage).i });
    await settled(alice);
    // From here the link is as good as dead: the pushes reach the socket, and the client never gets to them.
    const lost = [await send(bob, 'alice'), await send(bob, 'g', { t: 'group' })];
    const mine = await send(alice, 'bob');
    const after = await send(bob, 'alice');
    await settled(alice);
    expect(got.map((m) => m.ts)).toEqual([received, ...lost, after]);
    // What the sweep stores meanwhile, so that a node that stops without its disconnects still leaves it.
    const live = server.gateway.liveSessions().find((session) => session.sid === sid);
    expect(live?.replay?.from).toBe(lost[0]);
    expect(live?.replay?.except).toHaveLength(1);
    await leave(server, alice);
    // This time the client gets and acknowledges everything.
    const back = acking(await connect(url));
    const replayed = collect<WireMessage>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await settled(back);
    expect(mine).toBeGreaterThan(received);
    expect(replayed.map((m) => m.ts)).toEqual([...lost, after]);
    // So a later return starts from when that connection was last seen: nothing more to replay.
    await settled(back);
    await leave(server, back);
    const again = await connect(url);
    const none = collect<WireMessage>(again, 'imMessage');
    expect(await request(again, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await settled(again);
    expect(none).toEqual([]);
  });

  it('IM-24: a session on two connections is swept once, from the older push, with what either sent', async () => {
    const { url, server } = await startServer();
    const first = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const sid = (await request(first, 'authorize', authorizeParams({ userId: 'alice' })))['sid'];
    const unacknowledged = await send(bob, 'alice');
    // The client resumes the session on a second connection before the first is noticed gone.
    const second = await connect(url);
    expect(await request(second, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await send(first, 'bob');
    await send(second, 'bob');
    await send(bob, 'alice');
    await settled(first, second);
    const live = server.gateway.liveSessions().filter((session) => session.sid === sid);
    expect(live).toHaveLength(1);
    expect(live[0]?.replay?.from).toBe(unacknowledged);
    expect(live[0]?.replay?.except).toHaveLength(2);
  });

  it('IM-24: a client that says it sends no imAck is replayed from when its link was noticed gone', async () => {
    const { url, server } = await startServer();
    const quiet = { mP: { GIM: { imAck: false } } };
    const alice = await login(url, 'alice', quiet);
    const bob = await login(url, 'bob');
    const sid = (await request(alice, 'authorize', authorizeParams({ userId: 'alice', ...quiet })))['sid'];
    const pushed = await send(bob, 'alice');
    while (Date.now() <= pushed) await new Promise((resolve) => setTimeout(resolve, 2));
    await settled(alice);
    await leave(server, alice);
    const missed = await send(bob, 'alice');
    const back = await connect(url);
    const replayed = collect<WireMessage>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'alice', sid, ...quiet }))).toMatchObject({
      sid,
    });
    await settled(back);
    expect(replayed.map((m) => m.ts)).toEqual([missed]);
  });

  it('IM-24: the replay leaves out what I deleted meanwhile and groups I left', async () => {
    const { url, server } = await startServer();
    const alice = await login(url, 'alice');
    const phone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    await content(alice, 'subscribeGroups', { groupIds: ['g'] });
    await content(bob, 'subscribeGroups', { groupIds: ['g'] });
    const sid = (await request(acking(alice), 'authorize', authorizeParams({ userId: 'alice' })))['sid'];
    await send(bob, 'g', { t: 'group' });
    const before = await send(bob, 'alice');
    while (Date.now() <= before) await new Promise((resolve) => setTimeout(resolve, 2));
    await settled(alice);
    await leave(server, alice);
    const kept = await send(bob, 'alice');
    const deleted = await send(bob, 'alice');
    await content(phone, 'IM_DELETE_MESSAGE', { scene: 'private', targetId: 'bob', times: [deleted] });
    await content(phone, 'unsubscribeGroup', { groupId: 'g' });
    await send(bob, 'g', { t: 'group' });
    const back = await connect(url);
    const got = collect<WireMessage>(back, 'imMessage');
    expect(await request(back, 'authorize', authorizeParams({ userId: 'alice', sid }))).toMatchObject({ sid });
    await settled(back);
    expect(got.map((m) => m.ts)).toEqual([kept]);
  });

  it('IM-23: accepts imAck notices', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    alice.emit('imAck', { publishGuid: guid() });
    alice.emit('imAck', 'garbage');
    await settled(alice);
    expect(alice.connected).toBe(true);
  });
});

const pgUrl = process.env['PARLEY_TEST_PG'];

describe.runIf(Boolean(pgUrl))('IM on PostgreSQL', () => {
  it('IM-3, IM-5: concurrent sends and re-sends keep one message each, with increasing timestamps', async () => {
    const databaseSchema = freshPgSchema(pgUrl as string);
    const { url } = await startServer({ databaseUrl: pgUrl, databaseSchema });
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const pushed = collect<WireMessage>(bob, 'imMessage');
    const all = Array.from({ length: 30 }, () => publishParams('bob'));
    const acks = await Promise.all([...all, ...all].map((params) => request(alice, 'publishIM', params)));
    const times = acks.map((a) => (a['content'] as { timestamp: number }).timestamp);
    expect(times.slice(30)).toEqual(times.slice(0, 30));
    expect(new Set(times).size).toBe(30);
    await settled(bob);
    expect(pushed).toHaveLength(30);
    const history = await content<History>(bob, 'IM_HISTORY', { id: 'alice', scene: 'private', limit: 30 });
    expect(history.messages.map((m) => m.ts)).toEqual([...times.slice(0, 30)].sort((a, b) => a - b));
  });

  it('IM-8, IM-15: a history page that holds a message being sent answers after its push, on that connection', async () => {
    const databaseSchema = freshPgSchema(pgUrl as string);
    const { url } = await startServer({ databaseUrl: pgUrl, databaseSchema });
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const seen = await pagesBeforePushes(bob, () => request(alice, 'publishIM', publishParams('bob')), {
      id: 'alice',
      scene: 'private',
    });
    expect(seen).toEqual({ early: [], pushes: 40 });
  });
});
