/**
 * Every request the gateway serves, fed arbitrary parameters from real connections: whatever arrives, the answer
 * is `{code, content}` with a client error (never 500, which is what an exception the handlers did not expect
 * becomes), nothing crashes or hangs, and the server still serves valid requests afterwards. The values mix the
 * wire's own keys (read from the protocol's schemas) with values of every JSON type, ids and timestamps that exist
 * on the server, and the shapes bugs hide behind (empty and huge strings, duplicates, nesting, binary, prototype
 * keys).
 */
import fc from 'fast-check';
import type { Socket as ClientSocket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import * as protocol from '../src/protocol.js';
import { CLIENT_EVENTS, CLIENT_NOTICES, CODES } from '../src/protocol.js';
import { request, startServer } from './helpers.js';
import { goOnline, customerSays } from './cs-support.js';
import { login, publishParams, send } from './im-support.js';

/** Requests left out: these two end or reset the connection, and have tests of their own. */
const SKIPPED: ReadonlySet<string> = new Set([CLIENT_EVENTS.authorize, CLIENT_EVENTS.manualDisconnect]);
const EVENTS = Object.values(CLIENT_EVENTS).filter((event) => !SKIPPED.has(event));
/** Cases per request; `FUZZ_RUNS` sets more for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

interface ZodNode {
  _zod?: { def?: Record<string, unknown> };
}

/** The object keys of every protocol schema, nested ones included: the names a request's fields can have. */
function wireKeys(): string[] {
  const keys = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const def = (node as ZodNode)._zod?.def;
    if (!def) return;
    if (def['type'] === 'object') {
      for (const [key, value] of Object.entries(def['shape'] as Record<string, unknown>)) {
        keys.add(key);
        visit(value);
      }
    }
    for (const value of Object.values(def)) {
      if (Array.isArray(value)) value.forEach(visit);
      else visit(value);
    }
  };
  for (const value of Object.values(protocol)) visit(value);
  return [...keys].sort();
}

/** Ids and timestamps that exist on the server once the test has set it up. */
interface Known {
  ids: string[];
  times: number[];
  /** A message of each scene's conversation: alice with bob, the group g1, carol with team t1. */
  sent: { private: number; group: number; cs: number };
}

/**
 * A valid request of each kind, as the SDK sends it: the fuzzer starts from these and breaks them a field or a few
 * at a time, so that it reaches past the first checks into the handlers. `t` is a timestamp that exists.
 */
function examples(sent: Known['sent']): Record<string, Array<Record<string, unknown>>> {
  const chat = (scene: 'private' | 'group' | 'cs', id: string) => ({
    scene,
    id,
    teamId: scene === 'cs' ? 't1' : undefined,
    t: sent[scene],
  });
  const targets = [chat('private', 'bob'), chat('group', 'g1'), chat('cs', 'carol')];
  const text = '{"text":"hi"}';
  return {
    subscribe: [
      { channel: 'c1', presence: { enable: true } },
      { channels: ['c1', 'c2'], resubscribe: true },
    ],
    unsubscribe: [{ channel: 'c1', presence: { enable: false } }],
    publish: [{ channel: 'c1', content: 'hi', guid: 'p1', q: 1, nt: { title: 'a', body: 'b', badge: 1 } }],
    historyMessages: [{ channel: 'c1', limit: 10 }],
    PUBSUB_PRESENCE_SUBSCRIBE: [{ channel: 'c1' }],
    PUBSUB_PRESENCE_UNSUBSCRIBE: [{ channel: 'c1' }],
    PUBSUB_PRESENCE_HERENOW: [{ channel: 'c1', limit: 10 }],
    publishIM: [
      { mt: 'text', to: 'bob', d: '{}', p: text, t: 'private', guid: 'm1', retried: 0 },
      { mt: 'text', to: 'g1', d: '{"name":"G"}', p: text, t: 'group', guid: 'm2', at: null },
      { mt: 'text', to: 't1', d: '{}', p: text, t: 'cs', tid: 't1', guid: 'm3' },
      { mt: 'text', to: 'carol', d: '{}', p: text, t: 'cs', tid: 't1', guid: 'm4' },
    ],
    IM_HISTORY: targets.map((c) => ({ scene: c.scene, id: c.id, teamId: c.teamId, lastTimestamp: c.t, limit: 10 })),
    IM_HISTORY_CHANGE: targets.map((c) => ({ scene: c.scene, id: c.id, teamId: c.teamId, after: c.t, min: c.t })),
    IM_MARK_AS_READ: targets.map((c) => ({ scene: c.scene, id: c.id, teamId: c.teamId, lastTimestamp: c.t })),
    IM_DELETE_MESSAGE: targets.map((c) => ({ scene: c.scene, targetId: c.id, teamId: c.teamId, times: [c.t] })),
    IM_RECALL_MESSAGE: targets.map((c) => ({ scene: c.scene, targetId: c.id, teamId: c.teamId, times: [c.t] })),
    imLastConversations: [{}],
    topConversation: targets.map((c) => ({ type: c.scene, targetId: c.id, teamId: c.teamId, top: true })),
    removeConversation: targets.map((c) => ({ type: c.scene, targetId: c.id, teamId: c.teamId })),
    imData: targets.map((c) => ({ type: c.scene, targetId: c.id, teamId: c.teamId })),
    subscribeGroups: [{ groupIds: ['g1', 'g2'], at: null }],
    unsubscribeGroup: [{ groupId: 'g2' }],
    subscribeUserPresence: [{ userIds: ['bob', 'carol'] }],
    unsubscribeUserPresence: [{ userId: 'bob' }],
    subscribeGroupPresence: [{ groupIds: ['g1'] }],
    unsubscribeGroupPresence: [{ groupId: 'g1' }],
    imHereNow: [{ userIds: ['alice', 'bob'] }],
    imGroupHereNow: [{ groupId: 'g1' }],
    imGroupOnlineCount: [{ groupId: 'g1' }],
    uploadToken: [{ filename: 'photo.jpg' }],
    MD_CMD: [{ name: 'GET', data: { ids: ['alice', 'bob'] } }],
    CS_ONLINE: [{ teamId: 't1', teamData: '{"name":"T"}', agentData: '{"name":"A"}' }],
    CS_OFFLINE: [{ teamId: 't1' }],
    CS_MY_TEAMS: [{}],
    CS_AGENTS: [{ teamId: 't1' }],
    CS_ACCEPT: [{ teamId: 't1', customer: { id: 'carol', data: '{"name":"C"}' } }],
    CS_END: [{ teamId: 't1', customerId: 'carol' }],
    CS_TRANSFER: [{ teamId: 't1', customerId: 'carol', agentId: 'alice' }],
    CS_CUSTOMER_STATUS: [{ teamId: 't1', customerId: 'carol' }],
    CS_LIVE_SESSION: [{ teamId: 't1', customerId: 'carol' }],
    CS_QUIT_LIVE: [{ teamId: 't1', customerId: 'carol' }],
    CS_PENDING_CONVERSATION: [{ teamId: 't1' }],
    PARLEY_PING: [{}],
  };
}

/** Values of every JSON type, with the ids and timestamps that exist and the shapes bugs hide behind. */
function valueArbitrary(known: Known, keys: string[]): fc.Arbitrary<unknown> {
  const id = fc.constantFrom(...known.ids);
  const time = fc.constantFrom(...known.times);
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', ' ', 'private', 'group', 'cs', 'text', 'image', '{}', '[]', 'null', '{', '{"text":"hi"}'),
    fc.constantFrom('x'.repeat(2501), 'x'.repeat(70_000), '\u0000', '__proto__', 'constructor', 'GET'),
  );
  const number = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.constantFrom(0, -1, 1, 1.5, 10, 30, 31, 200, 300, 301, Number.MAX_SAFE_INTEGER, 1e300),
  );
  // Binary travels as a socket.io attachment and arrives as a Buffer.
  const binary = fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes));
  const scalar = fc.oneof(id, time, text, number, fc.boolean(), fc.constant(null), binary);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(id, time), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 4 }) },
      fc.constantFrom(
        Array.from({ length: 301 }, (_, i) => `g${i}`),
        Array.from({ length: 21 }, () => known.sent.private),
        ['bob', 'bob'],
        [''],
        [null],
      ),
    ),
  }));
  return value;
}

/**
 * Values of the same JSON type as `like`, at the edges handlers get wrong: they pass the schema's type check and
 * reach the handler's own logic (bounds, emptiness, duplicates, ids and times that do or do not exist).
 */
function edgeOf(like: unknown, known: Known, value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (typeof like === 'number') {
    return fc.oneof(
      fc.constantFrom(...known.times, 0, -1, 1, 1.5, 29, 30, 31, 200, 201, 300, 301, 2 ** 31, Number.MAX_SAFE_INTEGER),
      fc.integer(),
    );
  }
  if (typeof like === 'string') {
    return fc.oneof(
      fc.constantFrom(
        ...known.ids,
        'private',
        'group',
        'cs',
        '',
        ' ',
        '0',
        'x'.repeat(61),
        'x'.repeat(3000),
        '{}',
        '[]',
        '"s"',
        '{',
        'GET',
      ),
      fc.string({ maxLength: 8 }),
    );
  }
  if (typeof like === 'boolean') return fc.boolean();
  if (Array.isArray(like)) {
    return fc.oneof(
      fc.array(edgeOf(like[0], known, value), { maxLength: 5 }),
      fc.constant([...like, ...like]),
      fc.constant(Array.from({ length: 301 }, (_, i) => (typeof like[0] === 'number' ? i : `x${i}`))),
    );
  }
  if (typeof like === 'object' && like !== null) {
    const fields = Object.entries(like);
    if (fields.length === 0) return value;
    return fc
      .record({ at: fc.nat(fields.length - 1), to: value })
      .map(({ at, to }) => ({ ...like, [(fields[at] as [string, unknown])[0]]: to }));
  }
  return value;
}

/**
 * A valid request of `event` broken in up to four places: a field set to an edge value of its own type, to any
 * value, or dropped; now and then another field of the wire added, or a value that is no request at all.
 */
function paramsArbitrary(event: string, known: Known, keys: string[]): fc.Arbitrary<unknown> {
  const bases = examples(known.sent)[event];
  if (!bases) throw new Error(`no example of ${event}`);
  const value = valueArbitrary(known, keys);
  const other = fc.constantFrom(...keys, '__proto__', 'constructor');
  const broken = fc.constantFrom(...bases).chain((base) => {
    const own = Object.entries(base).filter(([, v]) => v !== undefined);
    const changes: Array<fc.Arbitrary<{ key: string; value?: unknown; drop?: true }>> = [
      fc.record({ key: other, value }),
    ];
    for (const [key, like] of own) {
      changes.push(
        fc.record({ key: fc.constant(key), value: edgeOf(like, known, value) }),
        fc.record({ key: fc.constant(key), value: edgeOf(like, known, value) }),
        fc.record({ key: fc.constant(key), value }),
        fc.record({ key: fc.constant(key), drop: fc.constant(true as const) }),
      );
    }
    // One change most of the time, so that the rest of the request stays valid and the change reaches its check.
    const change = fc.oneof(...changes);
    const list = fc.oneof(
      { weight: 3, arbitrary: change.map((c) => [c]) },
      { weight: 1, arbitrary: fc.array(change, { minLength: 2, maxLength: 4 }) },
    );
    return list.map((list) => {
      const params = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
      for (const c of list) {
        if (c.drop) delete params[c.key];
        // defineProperty: a key named __proto__ becomes an own field, as JSON.parse on the server makes it.
        else
          Object.defineProperty(params, c.key, {
            value: c.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return params;
    });
  });
  return fc.oneof({ weight: 9, arbitrary: broken }, { weight: 1, arbitrary: value });
}

/** Whether `ack` is a well-formed answer to a request: 200, or a client error with a message. */
function expectClientAnswer(event: string, params: unknown, ack: Record<string, unknown>): void {
  const where = `${event} ${JSON.stringify(params)?.slice(0, 300)}`;
  expect(typeof ack, where).toBe('object');
  expect(typeof ack['code'], where).toBe('number');
  const code = ack['code'] as number;
  expect(code, where).not.toBe(CODES.SERVER_ERROR);
  if (code !== CODES.OK) {
    expect(code >= 400 && code < 500, where).toBe(true);
    expect(typeof ack['content'], where).toBe('string');
    expect((ack['content'] as string).length, where).toBeGreaterThan(0);
  }
}

describe('any parameters', () => {
  it('get a client error or an answer from every request, never a 500, and the server keeps serving', async () => {
    const { url } = await startServer({ rateLimit: { perSecond: 100_000, burst: 100_000 } });
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    // Something to act on: a private chat, a group, a customer-service session.
    const toBob = await send(alice, 'bob');
    const toAlice = await send(bob, 'alice');
    for (const socket of [alice, bob]) {
      expect(await request(socket, 'subscribeGroups', { groupIds: ['g1'] })).toMatchObject({ code: 200 });
    }
    const toGroup = await send(alice, 'g1', { t: 'group' });
    await goOnline(bob, 't1');
    const toTeam = (await customerSays(carol, 't1')).timestamp;
    const known: Known = {
      ids: ['alice', 'bob', 'carol', 'g1', 't1', 'nobody', 'u1'],
      times: [toBob, toAlice, toGroup, toTeam, 0, 1, Date.now() + 60_000],
      sent: { private: toBob, group: toGroup, cs: toTeam },
    };
    const keys = wireKeys();
    const sockets: ClientSocket[] = [alice, bob, carol];

    for (const event of EVENTS) {
      await fc.assert(
        fc.asyncProperty(paramsArbitrary(event, known, keys), fc.nat(sockets.length - 1), async (input, who) => {
          const ack = await request(sockets[who] as ClientSocket, event, input);
          expectClientAnswer(event, input, ack);
        }),
        { numRuns: RUNS },
      );
    }
    // Notices have no answer; whatever they carry, the connection stays and later requests are served.
    for (const notice of Object.values(CLIENT_NOTICES)) {
      fc.assert(
        fc.property(valueArbitrary(known, keys), (input) => {
          alice.emit(notice, input);
        }),
        { numRuns: RUNS },
      );
    }
    // Requests without parameters.
    for (const event of EVENTS) expectClientAnswer(event, undefined, await request(bob, event));

    for (const socket of sockets) expect(socket.connected).toBe(true);
    expect(await request(alice, 'publishIM', publishParams('bob'))).toMatchObject({ code: 200 });
    expect(await request(bob, 'IM_HISTORY', { scene: 'private', id: 'alice' })).toMatchObject({ code: 200 });
    // About 9 000 round trips: seconds alone, longer beside the rest of the suite on two cores.
  }, 120_000);
});
