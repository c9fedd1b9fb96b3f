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
import { request, startServer, storesUnderTest } from './helpers.js';
import { goOnline, customerSays } from './cs-support.js';
import { anyValue, brokenRequest, FUZZ_RUNS, type Pools } from './fuzz-support.js';
import { login, publishParams, send } from './im-support.js';

/** Requests left out: these two end or reset the connection, and have tests of their own. */
const SKIPPED: ReadonlySet<string> = new Set([CLIENT_EVENTS.authorize, CLIENT_EVENTS.manualDisconnect]);
const EVENTS = Object.values(CLIENT_EVENTS).filter((event) => !SKIPPED.has(event));
const RUNS = FUZZ_RUNS;

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

/** A message of each scene's conversation, once the test has set them up: alice with bob, g1, carol with t1. */
interface Sent {
  private: number;
  group: number;
  cs: number;
}

/**
 * A valid request of each kind, as the SDK sends it: the fuzzer starts from these and breaks them a field or a few
 * at a time, so that it reaches past the first checks into the handlers; each conversation names a message of it.
 */
function examples(sent: Sent): Record<string, Array<Record<string, unknown>>> {
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
    IM_TYPING: [
      ...targets.map((c) => ({ scene: c.scene, targetId: c.id, teamId: c.teamId, typing: true })),
      { scene: 'cs', targetId: 't1', typing: false },
    ],
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

describe.each(storesUnderTest())('any parameters, on %s', (_name, store) => {
  it('get a client error or an answer from every request, never a 500, and the server keeps serving', async () => {
    const { url } = await startServer({ rateLimit: { perSecond: 100_000, burst: 100_000 }, ...store() });
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
    const pools: Pools = {
      ids: ['alice', 'bob', 'carol', 'g1', 't1', 'nobody', 'u1'],
      times: [toBob, toAlice, toGroup, toTeam, 0, 1, Date.now() + 60_000],
      keys: wireKeys(),
    };
    const requests = examples({ private: toBob, group: toGroup, cs: toTeam });
    const sockets: ClientSocket[] = [alice, bob, carol];

    for (const event of EVENTS) {
      const bases = requests[event];
      if (!bases) throw new Error(`no example of ${event}: add one to examples()`);
      await fc.assert(
        fc.asyncProperty(brokenRequest(bases, pools), fc.nat(sockets.length - 1), async (input, who) => {
          const ack = await request(sockets[who] as ClientSocket, event, input);
          expectClientAnswer(event, input, ack);
        }),
        { numRuns: RUNS },
      );
    }
    // Notices have no answer; whatever they carry, the connection stays and later requests are served.
    for (const notice of Object.values(CLIENT_NOTICES)) {
      fc.assert(
        fc.property(anyValue(pools), (input) => {
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
