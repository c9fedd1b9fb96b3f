/**
 * Limits of the pub/sub service, with an injected clock and without sockets: the here-now cap (PUB-14) with more
 * members than a socket-level test could cheaply connect, and history retention (PUB-11), read and pruned.
 */
import { describe, expect, it } from 'vitest';
import type { PubsubHistoryConfig } from '../src/config.js';
import { silentLogger } from '../src/logger.js';
import { MemoryChannelPresence } from '../src/pubsub/presence.js';
import { createPubsubService, type PubsubFanout, type PubsubService, type Subscriber } from '../src/pubsub/service.js';
import { openStore, type Store } from '../src/store/index.js';
import { MESSAGES, PUBSUB_LIMITS } from '../src/protocol.js';
import { OPEN_APP, defer } from './helpers.js';

const T0 = 1_700_000_000_000;

const fanout: PubsubFanout = {
  joinChannel: () => undefined,
  leaveChannel: () => undefined,
  joinPresence: () => undefined,
  leavePresence: () => undefined,
  message: () => undefined,
  presence: () => undefined,
  toConnection: () => undefined,
  redelivered: () => undefined,
  isConnected: () => true,
};

interface Harness {
  pubsub: PubsubService;
  presence: MemoryChannelPresence;
  store: Store;
  clock: { at: number };
}

/** The service over an in-memory SQLite store and memory presence; `clock.at` is its time, starting at T0. */
async function harness(history: PubsubHistoryConfig = { maxMessages: 100, maxAgeMs: 0 }): Promise<Harness> {
  const store = await openStore({
    databaseUrl: undefined,
    databaseSchema: undefined,
    dataDir: '/unused',
    sqlite: ':memory:',
  });
  defer(() => store.close());
  const clock = { at: T0 };
  const presence = new MemoryChannelPresence(600_000);
  const pubsub = createPubsubService({
    store: store.pubsub,
    sessions: store.pubsubSessions,
    presence,
    fanout,
    nodeId: 'node-1',
    soleNode: true,
    history,
    sessionTtlMs: 600_000,
    now: () => clock.at,
    logger: silentLogger(),
  });
  defer(() => pubsub.close());
  return { pubsub, presence, store, clock };
}

/** Publishes `content` to `news` as an app server would. */
function publish(pubsub: PubsubService, content: string): Promise<unknown> {
  return pubsub.publish({
    app: OPEN_APP,
    userId: null,
    channel: 'news',
    content,
    guid: `g-${content}`,
    qos: 0,
    trusted: true,
  });
}

/** A client of the open app that reads channels. */
const READER: Subscriber = {
  app: OPEN_APP,
  userId: 'reader',
  userData: {},
  sid: 'reader',
  connectionId: 'conn-reader',
  restore: false,
  replaces: null,
};

/** What `historyMessages` answers for `news`, as contents. */
async function served(pubsub: PubsubService, limit = 100): Promise<string[]> {
  return (await pubsub.history(READER, { channel: 'news', limit })).messages.map((m) => m.content);
}

/** Every row the store holds for `news`, whatever the retention, as contents. */
async function stored(store: Store): Promise<string[]> {
  const rows = await store.pubsub.history({ appkey: OPEN_APP.appkey, channel: 'news', limit: 10_000, since: 0 });
  return rows.map((m) => m.content);
}

/**
 * A connection arrives, which lets the service run its upkeep (at most every 30 s), and the upkeep is waited for:
 * close() waits for background work and leaves the service usable.
 */
async function upkeep(h: Harness, sid: string): Promise<void> {
  const subscriber: Subscriber = {
    app: OPEN_APP,
    userId: sid,
    userData: {},
    sid,
    connectionId: `conn-${sid}`,
    restore: false,
    replaces: null,
  };
  await h.pubsub.connected(subscriber);
  await h.pubsub.close();
}

describe('pub/sub service limits', () => {
  it('PUB-17: a session subscribes to at most 1000 channels, even with subscribes sent together', async () => {
    const { pubsub } = await harness();
    const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `c${from + i}`);
    const subscribe = (channels: string[]) =>
      pubsub.subscribe(READER, { channels, presence: false, resubscribe: false });
    const tooMany = { code: 400, content: MESSAGES.sessionChannelsTooMany };
    const together = await Promise.allSettled([0, 300, 600, 900].map((from) => subscribe(names(from, 300))));
    expect(together.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = together.flatMap((r): unknown[] => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused).toMatchObject([tooMany]);
    // Three of them hold 900 channels: room for 100 more.
    const free = names(2000, 100);
    await subscribe(free);
    await expect(subscribe(['one-more'])).rejects.toMatchObject(tooMany);
    // Channels already held cost nothing, and an unsubscribe makes room.
    await subscribe(free.slice(0, 50));
    await pubsub.unsubscribe(READER, free[0]!);
    await subscribe(['one-more']);
  });

  it('PUB-17: a session watches the presence of at most 1000 channels', async () => {
    const { pubsub } = await harness();
    for (let i = 0; i < PUBSUB_LIMITS.sessionWatchesMax; i++) await pubsub.watchPresence(READER, { channel: `w${i}` });
    await expect(pubsub.watchPresence(READER, { channel: 'w-more' })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.sessionWatchesTooMany,
    });
    await pubsub.watchPresence(READER, { channel: 'w0' });
    await pubsub.unwatchPresence(READER, 'w0');
    await pubsub.watchPresence(READER, { channel: 'w-more' });
  });

  it('PUB-14: here-now lists 10 members by default and at most 300 whatever the limit; amount is the total', async () => {
    const { pubsub, presence } = await harness();
    const ids = Array.from({ length: 305 }, (_, i) => `u${i + 1}`);
    for (const id of ids) {
      const member = { id, data: { n: id } };
      await presence.enter({
        appkey: OPEN_APP.appkey,
        channel: 'room',
        member,
        entry: { sid: id, connectionId: id },
        now: T0,
      });
    }
    const newestFirst = [...ids].reverse();
    const listed = async (limit: number | null | undefined) => {
      const answer = await pubsub.hereNow(READER, { channel: 'room', limit });
      expect(answer.amount).toBe(305);
      return answer.members.map((m) => m.id);
    };
    expect(await listed(undefined)).toEqual(newestFirst.slice(0, 10));
    expect(await listed(null)).toEqual(newestFirst.slice(0, 10));
    expect(await listed(301)).toEqual(newestFirst.slice(0, 300));
    expect(await listed(5000)).toEqual(newestFirst.slice(0, 300));
    expect(await listed(300)).toEqual(newestFirst.slice(0, 300));
    expect(await listed(299)).toHaveLength(299);
    expect((await pubsub.hereNow(READER, { channel: 'room', limit: 1 })).members).toEqual([
      { id: 'u305', data: { n: 'u305' } },
    ]);
  });

  it('PUB-11: messages beyond maxMessages are never served and are deleted from the store at the next upkeep', async () => {
    const h = await harness({ maxMessages: 3, maxAgeMs: 0 });
    for (const n of [1, 2, 3, 4, 5]) await publish(h.pubsub, `m${n}`);
    expect(await served(h.pubsub)).toEqual(['m3', 'm4', 'm5']);
    // Capped at read only so far: the upkeep has not run within 30 s of the start.
    expect(await stored(h.store)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    h.clock.at = T0 + 29_999;
    await upkeep(h, 'early');
    expect(await stored(h.store)).toHaveLength(5);
    h.clock.at = T0 + 30_000;
    await upkeep(h, 'due');
    expect(await stored(h.store)).toEqual(['m3', 'm4', 'm5']);
    expect(await served(h.pubsub)).toEqual(['m3', 'm4', 'm5']);
  });

  it('PUB-11: messages older than maxAgeMs are never served and are deleted from the store at the next upkeep', async () => {
    const h = await harness({ maxMessages: 100, maxAgeMs: 60_000 });
    await publish(h.pubsub, 'old');
    h.clock.at = T0 + 10_000;
    await publish(h.pubsub, 'new');
    h.clock.at = T0 + 60_000;
    expect(await served(h.pubsub)).toEqual(['old', 'new']);
    h.clock.at = T0 + 60_001;
    // The read filters by age on its own: the row is still stored.
    expect(await served(h.pubsub)).toEqual(['new']);
    expect(await stored(h.store)).toEqual(['old', 'new']);
    await upkeep(h, 'due');
    expect(await stored(h.store)).toEqual(['new']);
    h.clock.at = T0 + 70_001;
    expect(await served(h.pubsub)).toEqual([]);
  });

  it('PUB-11: a channel nobody publishes to any more loses its old messages too', async () => {
    const h = await harness({ maxMessages: 100, maxAgeMs: 60_000 });
    await publish(h.pubsub, 'idle');
    // A first upkeep with the channel still fresh: after it, nothing marks the channel as published to.
    h.clock.at = T0 + 30_000;
    await upkeep(h, 'first');
    expect(await stored(h.store)).toEqual(['idle']);
    h.clock.at = T0 + 90_001;
    await upkeep(h, 'second');
    expect(await stored(h.store)).toEqual([]);
  });

  it('PUB-11: with maxAgeMs 0 age is no limit, and with maxMessages 0 nothing is kept', async () => {
    const ageless = await harness({ maxMessages: 100, maxAgeMs: 0 });
    await publish(ageless.pubsub, 'ancient');
    ageless.clock.at = T0 + 365 * 86_400_000;
    await upkeep(ageless, 'much-later');
    expect(await served(ageless.pubsub)).toEqual(['ancient']);
    expect(await stored(ageless.store)).toEqual(['ancient']);

    const none = await harness({ maxMessages: 0, maxAgeMs: 0 });
    await publish(none.pubsub, 'gone');
    expect(await served(none.pubsub)).toEqual([]);
    expect(await stored(none.store)).toEqual([]);
  });
});
