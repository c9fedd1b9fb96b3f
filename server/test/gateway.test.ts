import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { issueOtp } from '../src/auth/otp.js';
import { ServiceError } from '../src/errors.js';
import { HandlerRegistry, type RequestContext } from '../src/gateway/registry.js';
import { MESSAGES } from '../src/protocol.js';
import {
  OPEN_APP,
  SECURE_APP,
  authorizeParams,
  connect,
  nextServerDisconnect,
  request,
  startServer,
} from './helpers.js';

const anyObject = z.looseObject({});
/** Every known event has a handler in a full server; these tests borrow the CS events, so CS stays off. */
const WITHOUT_CS = { customerService: false };

describe('gateway: authorize', () => {
  it('answers sid, permissions and mD only for the requested modules', async () => {
    const { url } = await startServer();
    const socket = await connect(url);
    const reply = await request(socket, 'authorize', authorizeParams({ mP: { GIM: null, XYZ: {} } }));
    expect(reply).toEqual({
      code: 200,
      resultCode: 200,
      sid: expect.any(String),
      enablePublish: true,
      enableSubscribe: true,
      mD: { GIM: { a: true, ack: false } },
    });
    const both = await request(await connect(url), 'authorize', authorizeParams({ mP: { GIM: null, GWS: null } }));
    expect(both['mD']).toEqual({ GIM: { a: true, ack: false }, GWS: { redelivered: true } });
    const none = await request(await connect(url), 'authorize', authorizeParams({ mP: undefined }));
    expect(none['mD']).toEqual({});
  });

  it('lets each module supply its mD entry, from the authorized connection, once', async () => {
    const registry = new HandlerRegistry();
    registry.moduleData('GWS', (ctx) => Promise.resolve({ user: ctx.userId }));
    expect(() => registry.moduleData('GWS', () => Promise.resolve({}))).toThrow(
      'A handler for GWS is already registered',
    );
    const provider = registry.moduleDataProvider('GWS');
    expect(await provider?.({ userId: 'alice' } as RequestContext)).toEqual({ user: 'alice' });
    expect(registry.moduleDataProvider('GIM')).toBeUndefined();
    // The server's own: IM and pub/sub each have theirs.
    const { server } = await startServer();
    expect(() => server.gateway.moduleData('GIM', () => Promise.resolve({}))).toThrow(/already registered/);
  });

  it('grants read only to the subscribe key', async () => {
    const { url } = await startServer();
    const reply = await request(await connect(url), 'authorize', authorizeParams({ appkey: OPEN_APP.subscribeKey }));
    expect(reply).toMatchObject({ code: 200, enablePublish: false, enableSubscribe: true });
  });

  it('refuses an unknown appkey with 401', async () => {
    const { url } = await startServer();
    const reply = await request(await connect(url), 'authorize', authorizeParams({ appkey: 'who-knows' }));
    expect(reply).toEqual({ code: 401, resultCode: 401, content: MESSAGES.invalidAppkey });
  });

  it('checks the otp of a named user when the app requires it', async () => {
    const { url } = await startServer();
    const socket = await connect(url);
    const auth = (overrides: Record<string, unknown>) =>
      request(socket, 'authorize', authorizeParams({ appkey: SECURE_APP.appkey, ...overrides }));
    const valid = issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'alice' }).otp;
    const expired = issueOtp({
      secretKey: SECURE_APP.secretKey,
      userId: 'alice',
      ttlMs: 1000,
      now: Date.now() - 5000,
    }).otp;
    const forged = issueOtp({ secretKey: 'not-the-secret', userId: 'alice' }).otp;
    const bobs = issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'bob' }).otp;

    expect(await auth({ otp: null })).toMatchObject({ code: 401, content: MESSAGES.otpRequired });
    expect(await auth({ otp: forged })).toMatchObject({ code: 401, content: MESSAGES.otpInvalid });
    expect(await auth({ otp: 'garbage' })).toMatchObject({ code: 401, content: MESSAGES.otpInvalid });
    expect(await auth({ otp: expired })).toMatchObject({ code: 401, content: MESSAGES.otpExpired });
    expect(await auth({ otp: bobs })).toMatchObject({ code: 401, content: MESSAGES.otpInvalid });
    expect(await auth({ otp: valid })).toMatchObject({ code: 200, sid: expect.any(String) });
  });

  it('lets anonymous connections in without an otp', async () => {
    const { url } = await startServer();
    const reply = await request(
      await connect(url),
      'authorize',
      authorizeParams({ appkey: SECURE_APP.appkey, userId: null, a: true }),
    );
    expect(reply).toMatchObject({ code: 200, enablePublish: true });
  });

  it('refuses bad userData with 400', async () => {
    const { url } = await startServer();
    const socket = await connect(url);
    const auth = (userData: unknown) => request(socket, 'authorize', authorizeParams({ userData }));
    expect(await auth('[1,2]')).toMatchObject({ code: 400, content: MESSAGES.dataNotObject });
    expect(await auth('not json')).toMatchObject({ code: 400, content: MESSAGES.dataNotObject });
    expect(await auth('"text"')).toMatchObject({ code: 400, content: MESSAGES.dataNotObject });
    expect(await auth(JSON.stringify({ bio: 'x'.repeat(300) }))).toMatchObject({
      code: 400,
      content: MESSAGES.dataTooLong,
    });
    expect(await auth(JSON.stringify({ bio: 'x'.repeat(100_000) }))).toMatchObject({
      code: 400,
      content: MESSAGES.dataTooLong,
    });
    expect(await auth(JSON.stringify({ bio: 'x'.repeat(250) }))).toMatchObject({ code: 200 });
  });

  it('resumes a session whose sid comes back, and starts a new one for an unknown sid', async () => {
    const { url } = await startServer();
    const first = await request(await connect(url), 'authorize', authorizeParams());
    const sid = first['sid'] as string;
    const again = await request(await connect(url), 'authorize', authorizeParams({ sid }));
    expect(again['sid']).toBe(sid);
    const unknown = await request(await connect(url), 'authorize', authorizeParams({ sid: 'no-such-sid' }));
    expect(unknown['sid']).not.toBe(sid);
    expect(unknown['sid']).not.toBe('no-such-sid');
    const otherUser = await request(await connect(url), 'authorize', authorizeParams({ sid, userId: 'bob' }));
    expect(otherUser['sid']).not.toBe(sid);
  });

  it('starts a new session once the old one outlived its time to live', async () => {
    let clock = 1_800_000_000_000;
    const { url, server } = await startServer({ sessionTtlMs: 60_000 }, { now: () => clock });
    const disconnected = nextServerDisconnect(server);
    const socket = await connect(url);
    const sid = (await request(socket, 'authorize', authorizeParams()))['sid'];
    socket.disconnect();
    await disconnected;
    clock += 60_000;
    expect((await request(await connect(url), 'authorize', authorizeParams({ sid })))['sid']).toBe(sid);
    clock += 60_001;
    expect((await request(await connect(url), 'authorize', authorizeParams({ sid })))['sid']).not.toBe(sid);
  });

  it('answers a re-sent authorize with the same sid', async () => {
    const { url } = await startServer();
    const socket = await connect(url);
    const params = authorizeParams();
    const [a, b] = await Promise.all([request(socket, 'authorize', params), request(socket, 'authorize', params)]);
    expect(a['sid']).toBe(b['sid']);
  });
});

describe('gateway: requests', () => {
  it('refuses a request before authorize with 401', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: () => Promise.resolve('data'),
    });
    const socket = await connect(url);
    expect(await request(socket, 'CS_MY_TEAMS', {})).toEqual({
      code: 401,
      resultCode: 401,
      content: MESSAGES.noPermission,
    });
    await request(socket, 'authorize', authorizeParams());
    expect(await request(socket, 'CS_MY_TEAMS', {})).toEqual({ code: 200, resultCode: 200, content: 'data' });
  });

  it('checks the permission a handler needs', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    server.gateway.handle('CS_ONLINE', {
      schema: anyObject,
      permission: 'write',
      handler: () => Promise.resolve(null),
    });
    const reader = await connect(url);
    await request(reader, 'authorize', authorizeParams({ appkey: OPEN_APP.subscribeKey }));
    expect(await request(reader, 'CS_ONLINE', {})).toMatchObject({ code: 401, content: MESSAGES.noPermission });
    const writer = await connect(url);
    await request(writer, 'authorize', authorizeParams());
    expect(await request(writer, 'CS_ONLINE', {})).toMatchObject({ code: 200 });
  });

  it('answers malformed params with 400 and keeps the connection', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    server.gateway.handle('CS_MY_TEAMS', {
      schema: z.object({ targetId: z.string() }),
      permission: 'none',
      handler: (_ctx, params) => Promise.resolve(params.targetId),
    });
    const socket = await connect(url);
    for (const bad of ['a string', 42, null, true, [1]]) {
      expect(await request(socket, 'authorize', bad)).toMatchObject({ code: 400 });
    }
    expect(await request(socket, 'authorize', authorizeParams({ appkey: 42 }))).toMatchObject({ code: 400 });
    expect(await request(socket, 'authorize', authorizeParams({ userId: 'x'.repeat(61) }))).toMatchObject({
      code: 400,
      content: MESSAGES.idTooLong,
    });
    await request(socket, 'authorize', authorizeParams());
    for (const bad of ['a string', 42, null, { targetId: 7 }, 'x'.repeat(200_000)]) {
      expect(await request(socket, 'CS_MY_TEAMS', bad)).toMatchObject({ code: 400 });
    }
    expect(await request(socket, 'CS_MY_TEAMS', { targetId: 'ok' })).toMatchObject({ code: 200, content: 'ok' });
    expect(socket.connected).toBe(true);
  });

  it('refuses parameters holding the NUL character with 400, before any handler', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    let handled = 0;
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: () => Promise.resolve((handled += 1)),
    });
    const socket = await connect(url);
    const nul = { code: 400, content: MESSAGES.nulCharacter };
    expect(await request(socket, 'authorize', authorizeParams({ userId: 'al\u0000ice' }))).toMatchObject(nul);
    await request(socket, 'authorize', authorizeParams());
    for (const params of [{ a: 'x\u0000' }, { a: [{ b: ['\u0000'] }] }, { ['k\u0000']: 1 }]) {
      expect(await request(socket, 'CS_MY_TEAMS', params)).toMatchObject(nul);
    }
    expect(handled).toBe(0);
    // Escaped in JSON text it is no NUL character, and binary is not text: both pass.
    expect(await request(socket, 'CS_MY_TEAMS', { a: '{"t":"\\u0000"}', b: Buffer.from([0]) })).toMatchObject({
      code: 200,
    });
    expect(handled).toBe(1);
  });

  it('ignores unknown events and requests without an ack', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: () => Promise.resolve('fine'),
    });
    const socket = await connect(url);
    let answered = false;
    socket.emit('noSuchEvent', {}, () => {
      answered = true;
    });
    socket.emit('authorize', authorizeParams());
    socket.emit('CS_MY_TEAMS', {});
    socket.emit('CS_MY_TEAMS');
    await request(socket, 'authorize', authorizeParams());
    // Events are handled in order, so by this ack the unknown one would have been answered if it ever were.
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200, content: 'fine' });
    expect(answered).toBe(false);
    expect(socket.connected).toBe(true);
  });

  it('answers a handler that throws with 500 and keeps serving', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    let calls = 0;
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: () => {
        calls += 1;
        // A synchronous throw and a rejection must both be caught.
        if (calls === 1) throw new Error('boom');
        if (calls === 2) return Promise.reject(new ServiceError(400, 'bad target'));
        return Promise.resolve('recovered');
      },
    });
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    expect(await request(socket, 'CS_MY_TEAMS', {})).toEqual({
      code: 500,
      resultCode: 500,
      content: MESSAGES.serverError,
    });
    expect(await request(socket, 'CS_MY_TEAMS', {})).toEqual({ code: 400, resultCode: 400, content: 'bad target' });
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200, content: 'recovered' });
  });

  it('takes what the reader of a handler makes of a request, and leaves the rest to its schema', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    const schema = z.looseObject({ n: z.number({ error: 'n must be a number' }) });
    server.gateway.handle('CS_MY_TEAMS', {
      schema,
      // Reads only small numbers, and marks what it read.
      read: (params) => {
        const n = (params as { n?: unknown }).n;
        return typeof n === 'number' && n < 10 ? { n, read: true } : undefined;
      },
      permission: 'none',
      handler: (_ctx, params) => Promise.resolve(params),
    });
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    expect(await request(socket, 'CS_MY_TEAMS', { n: 1 })).toMatchObject({ code: 200, content: { n: 1, read: true } });
    expect(await request(socket, 'CS_MY_TEAMS', { n: 99 })).toMatchObject({ code: 200, content: { n: 99 } });
    expect(await request(socket, 'CS_MY_TEAMS', { n: 99 })).not.toHaveProperty('content.read');
    expect(await request(socket, 'CS_MY_TEAMS', { n: 'x' })).toEqual({
      code: 400,
      resultCode: 400,
      content: 'n must be a number',
    });
  });

  it('acts for the user of the latest authorize when a connection authorizes again as someone else', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: (ctx) => Promise.resolve({ userId: ctx.userId, userData: ctx.userData }),
    });
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({
      content: { userId: 'alice', userData: { name: 'Alice' } },
    });
    await request(socket, 'authorize', authorizeParams({ userId: 'bob', userData: '{"name":"Bob"}' }));
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({
      content: { userId: 'bob', userData: { name: 'Bob' } },
    });
  });

  it('answers known events without a handler yet with 400', async () => {
    const { url } = await startServer({}, WITHOUT_CS);
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    expect(await request(socket, 'CS_AGENTS', {})).toMatchObject({
      code: 400,
      content: 'Not supported: CS_AGENTS',
    });
  });

  /** A server with this rate limit, on a clock the test moves, answering `CS_MY_TEAMS` with no work. */
  async function limitedServer(rateLimit: { perSecond: number; burst: number }, clock: { at: number }) {
    const { url, server } = await startServer({ rateLimit }, { now: () => clock.at, ...WITHOUT_CS });
    server.gateway.handle('CS_MY_TEAMS', {
      schema: anyObject,
      permission: 'none',
      handler: () => Promise.resolve('ok'),
    });
    return url;
  }

  it('limits the request rate per connection with 429', async () => {
    const clock = { at: 1_800_000_000_000 };
    const url = await limitedServer({ perSecond: 1, burst: 3 }, clock);
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    const replies = await Promise.all([1, 2, 3, 4].map(() => request(socket, 'CS_MY_TEAMS', {})));
    expect(replies.map((r) => r['code'])).toEqual([200, 200, 429, 429]);
    expect(replies[2]).toMatchObject({ content: MESSAGES.tooFrequent });
    // Another connection has its own budget.
    const other = await connect(url);
    expect(await request(other, 'authorize', authorizeParams())).toMatchObject({ code: 200 });
    clock.at += 1000;
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200 });
    expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({ code: 429 });
  });

  it('WIRE-9: the connections of one user on a node share three times one connection budget', async () => {
    const url = await limitedServer({ perSecond: 1, burst: 2 }, { at: 1_800_000_000_000 });
    const as = async (userId: string) => {
      const socket = await connect(url);
      expect(await request(socket, 'authorize', authorizeParams({ userId }))).toMatchObject({ code: 200 });
      return socket;
    };
    // Each connection has one request left after its authorize: seven connections, seven requests, but the user
    // has six.
    const alices = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => as('alice')));
    const answers = await Promise.all(alices.map((socket) => request(socket, 'CS_MY_TEAMS', {})));
    expect(answers.filter((r) => r['code'] === 200)).toHaveLength(6);
    expect(answers.filter((r) => r['code'] === 429)).toEqual([
      { code: 429, resultCode: 429, content: MESSAGES.tooFrequent },
    ]);
    // Another user has a budget of their own.
    const bob = await as('bob');
    expect(await request(bob, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200 });
  });

  it('WIRE-9: a connection gone while its authorize ran leaves no share in its user budget', async () => {
    const url = await limitedServer({ perSecond: 1, burst: 2 }, { at: 1_800_000_000_000 });
    // Sent together, the authorize and the close arrive in one read: the authorize finishes after the disconnect.
    const gone = await connect(url);
    gone.emit('authorize', authorizeParams({ userId: 'alice' }));
    gone.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const as = async () => {
      const socket = await connect(url);
      expect(await request(socket, 'authorize', authorizeParams({ userId: 'alice' }))).toMatchObject({ code: 200 });
      return socket;
    };
    // Six connections, one request left in each after its authorize, spend alice's six; then all close.
    const spent = await Promise.all([1, 2, 3, 4, 5, 6].map(() => as()));
    for (const socket of spent) expect(await request(socket, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200 });
    await Promise.all(
      spent.map((socket) => {
        const closed = new Promise((resolve) => socket.once('disconnect', resolve));
        socket.disconnect();
        return closed;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The budget went with alice's last connection: a new one starts with a full one, not with the spent one that a
    // share of the gone connection would have kept.
    const fresh = await as();
    expect(await request(fresh, 'CS_MY_TEAMS', {})).toMatchObject({ code: 200 });
  });

  it('WIRE-10: a user gets at most maxUserConnections connections on a node, counted when authorized', async () => {
    const { url } = await startServer({ maxUserConnections: 2 }, WITHOUT_CS);
    const authorizeAs = async (userId: string) => {
      const socket = await connect(url);
      return { socket, reply: await request(socket, 'authorize', authorizeParams({ userId })) };
    };
    // Sent together, as a client with many tabs might: two get in.
    const tries = await Promise.all([1, 2, 3, 4, 5].map(() => authorizeAs('alice')));
    const admitted = tries.filter((t) => t.reply['code'] === 200);
    expect(admitted).toHaveLength(2);
    for (const t of tries.filter((t) => t.reply['code'] !== 200)) {
      expect(t.reply).toEqual({ code: 429, resultCode: 429, content: MESSAGES.tooManyConnections });
    }
    // Another user, and anonymous connections, are not counted with alice.
    expect((await authorizeAs('bob')).reply).toMatchObject({ code: 200 });
    const anonymous = await connect(url);
    expect(await request(anonymous, 'authorize', authorizeParams({ userId: null }))).toMatchObject({ code: 200 });
    // At the bound, an admitted connection may still authorize again as alice.
    const [first, second] = admitted as [(typeof admitted)[number], (typeof admitted)[number]];
    expect(await request(first.socket, 'authorize', authorizeParams({ userId: 'alice' }))).toMatchObject({
      code: 200,
    });
    // Switching to bob frees alice's place; the refused connections held none.
    expect(await request(first.socket, 'authorize', authorizeParams({ userId: 'bob' }))).toMatchObject({ code: 200 });
    expect((await authorizeAs('alice')).reply).toMatchObject({ code: 200 });
    expect((await authorizeAs('alice')).reply).toMatchObject({ code: 429 });
    // So does a closed connection.
    const closed = new Promise((resolve) => second.socket.once('disconnect', resolve));
    second.socket.disconnect();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await authorizeAs('alice')).reply).toMatchObject({ code: 200 });
  });

  it('WIRE-10: an authorize that fails after its user was counted takes no place', async () => {
    const { url, server } = await startServer({ maxUserConnections: 2 }, WITHOUT_CS);
    const authorizeAs = async (userId: string) => request(await connect(url), 'authorize', authorizeParams({ userId }));
    const sessions = server.store.sessions;
    const create = sessions.create.bind(sessions);
    sessions.create = () => Promise.reject(new Error('disk full'));
    for (let i = 0; i < 2; i++) expect(await authorizeAs('carol')).toMatchObject({ code: 500 });
    sessions.create = create;
    for (let i = 0; i < 2; i++) expect(await authorizeAs('carol')).toMatchObject({ code: 200 });
    expect(await authorizeAs('carol')).toMatchObject({ code: 429 });
  });

  it('closes a connection that has not authorized in time, and keeps one that has', async () => {
    const { url } = await startServer({ authorizeTimeoutMs: 300 }, WITHOUT_CS);
    const closed = (socket: Awaited<ReturnType<typeof connect>>) =>
      new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const silent = await connect(url);
    const silentClosed = closed(silent);
    const refused = await connect(url);
    const refusedClosed = closed(refused);
    expect(await request(refused, 'authorize', authorizeParams({ appkey: 'no-such-app' }))).toMatchObject({
      code: 401,
    });
    const member = await connect(url);
    await request(member, 'authorize', authorizeParams());
    expect(await silentClosed).toBe('io server disconnect');
    expect(await refusedClosed).toBe('io server disconnect');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(member.connected).toBe(true);
    expect(await request(member, 'PARLEY_PING', {})).toMatchObject({ code: 200 });
  });

  it('acks manualDisconnect and then closes the connection', async () => {
    const { url } = await startServer({}, WITHOUT_CS);
    const socket = await connect(url);
    await request(socket, 'authorize', authorizeParams());
    const reason = new Promise((resolve) => socket.once('disconnect', resolve));
    expect(await request(socket, 'manualDisconnect', {})).toEqual({ code: 200, resultCode: 200, content: null });
    expect(await reason).toBe('io server disconnect');
  });

  it('pushes to every connection of a user', async () => {
    const { url, server } = await startServer({}, WITHOUT_CS);
    const phone = await connect(url);
    const laptop = await connect(url);
    const stranger = await connect(url);
    await request(phone, 'authorize', authorizeParams());
    await request(laptop, 'authorize', authorizeParams());
    await request(stranger, 'authorize', authorizeParams({ userId: 'bob' }));
    let strangerGot = false;
    stranger.on('imMessage', () => {
      strangerGot = true;
    });
    const got = Promise.all([phone, laptop].map((s) => new Promise((resolve) => s.once('imMessage', resolve))));
    server.gateway.pushToUser({ appkey: OPEN_APP.appkey, userId: 'alice', event: 'imMessage', payload: { i: 'm1' } });
    expect(await got).toEqual([{ i: 'm1' }, { i: 'm1' }]);
    expect(strangerGot).toBe(false);
  });
});

describe('gateway: pushes', () => {
  it("reaches users' connections and rooms, each once, leaving out whom it is told to", async () => {
    const { url, server } = await startServer();
    const { pusher } = server.gateway;
    const appkey = OPEN_APP.appkey;
    const join = async (userId: string) => {
      const socket = await connect(url);
      await request(socket, 'authorize', authorizeParams({ userId }));
      const got: unknown[] = [];
      socket.on('imMessage', (payload: unknown) => got.push(payload));
      return { socket, got };
    };
    const alice1 = await join('alice');
    const alice2 = await join('alice');
    const bob = await join('bob');
    const carol = await join('carol');
    const everyone = [alice1, alice2, bob, carol];
    const id = (c: { socket: { id?: string } }) => c.socket.id as string;

    // No users: no one, where socket.io's own to([]) would mean everyone.
    pusher.toUsers({ appkey, userIds: [], event: 'imMessage', payload: { n: 0 } });
    // A list kept frozen, as the group store keeps its members, pushed twice: each connection once a push.
    const members = Object.freeze(['alice', 'bob', 'alice']);
    pusher.toUsers({ appkey, userIds: members, event: 'imMessage', payload: { n: 1 }, exceptConnectionId: id(alice1) });
    pusher.toUsers({ appkey, userIds: members, event: 'imMessage', payload: { n: 2 } });
    // A list made for the push; an appkey of another app does not reach these users.
    pusher.toUsers({ appkey, userIds: ['carol'], event: 'imMessage', payload: { n: 3 } });
    pusher.toUsers({ appkey: SECURE_APP.appkey, userIds: ['carol'], event: 'imMessage', payload: { n: 4 } });
    pusher.toConnection({ connectionId: id(bob), event: 'imMessage', payload: { n: 5 } });
    for (const c of [alice2, bob, carol]) pusher.joinRoom({ connectionId: id(c), room: 'r' });
    pusher.toRoom({ appkey, room: 'r', event: 'imMessage', payload: { n: 6 }, exceptUserIds: ['bob'] });
    pusher.toRoom({ appkey, room: 'r', event: 'imMessage', payload: { n: 7 }, exceptConnectionId: id(carol) });
    // Pushes reach each connection in order: once this last one is in, every one before it is too.
    const all = ['alice', 'bob', 'carol'];
    pusher.toUsers({ appkey, userIds: all, event: 'imMessage', payload: { n: 8 } });
    const ns = (c: { got: unknown[] }) => c.got.map((p) => (p as { n: number }).n);
    await expect.poll(() => everyone.every((c) => ns(c).at(-1) === 8)).toBe(true);

    expect(ns(alice1)).toEqual([2, 8]);
    expect(ns(alice2)).toEqual([1, 2, 6, 7, 8]);
    expect(ns(bob)).toEqual([1, 2, 5, 7, 8]);
    expect(ns(carol)).toEqual([3, 6, 8]);
  });
});
