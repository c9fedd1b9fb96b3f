/**
 * The store contract for pub/sub channel history (PUB-10, PUB-11): append de-duplicated by guid, history pages and
 * retention. Registered by `describeStoreContract` so that it runs on SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { Store } from '../src/store/index.js';
import { defer } from './helpers.js';

/** Times as a server stores them: ms since the epoch, beyond 32 bits. */
const T0 = 1_700_000_000_000;

/** Registers the pub/sub history part of the contract; `fresh` opens a fresh store closed after the test. */
export function describePubsubMessageStoreContract(
  fresh: () => Promise<{ store: Store; reopen: () => Promise<Store> }>,
): void {
  /** Appends `news` messages m0..m(n-1), one ms apart from T0, to `app`. */
  const appendNews = async (store: Store, count: number, channel = 'news') => {
    for (let i = 0; i < count; i += 1) {
      await store.pubsub.append({ appkey: 'app', channel, guid: `${channel}-${i}`, time: T0 + i, content: `m${i}` });
    }
  };
  /** Every stored message of a channel, as contents. */
  const all = async (store: Store, channel = 'news', appkey = 'app') =>
    (await store.pubsub.history({ appkey, channel, limit: 10_000, since: 0 })).map((m) => m.content);

  it('PUB-10: appends a message once per (appkey, guid) and answers the stored time for a duplicate', async () => {
    const { store } = await fresh();
    const message = { appkey: 'app', channel: 'news', guid: 'g1', time: T0, content: 'first' };
    expect(await store.pubsub.append(message)).toEqual({ inserted: true, time: T0 });
    expect(await store.pubsub.append({ ...message, time: T0 + 5, content: 'again' })).toEqual({
      inserted: false,
      time: T0,
    });
    // Guids are an app's own: another app may use the same one.
    expect(await store.pubsub.append({ ...message, appkey: 'app2', time: T0 + 7 })).toEqual({
      inserted: true,
      time: T0 + 7,
    });
    expect(await store.pubsub.history({ appkey: 'app', channel: 'news', limit: 10, since: 0 })).toEqual([
      { time: T0, content: 'first' },
    ]);
    expect(await all(store, 'news', 'app2')).toEqual(['first']);
  });

  it('PUB-7: a message is stored after its channel newest one, whatever time its node asked for', async () => {
    const { store } = await fresh();
    const append = (guid: string, time: number, channel = 'news') =>
      store.pubsub.append({ appkey: 'app', channel, guid, time, content: guid });
    expect(await append('a', T0 + 10)).toEqual({ inserted: true, time: T0 + 10 });
    // Two nodes in the same millisecond, or a node whose clock is behind: the time moves past the newest.
    expect(await append('b', T0 + 10)).toEqual({ inserted: true, time: T0 + 11 });
    expect(await append('c', T0 + 3)).toEqual({ inserted: true, time: T0 + 12 });
    expect(await append('d', T0 + 20)).toEqual({ inserted: true, time: T0 + 20 });
    // Per channel and per app.
    expect(await append('e', T0 + 3, 'sport')).toEqual({ inserted: true, time: T0 + 3 });
    expect(await store.pubsub.append({ appkey: 'app2', channel: 'news', guid: 'f', time: T0, content: 'f' })).toEqual({
      inserted: true,
      time: T0,
    });
    // Many at once, as from several nodes: each after the one before, none on the same time.
    const times = await Promise.all(Array.from({ length: 20 }, (_, i) => append(`m${i}`, T0 + 30)));
    expect(new Set(times.map((t) => t.time)).size).toBe(20);
    expect(await all(store)).toEqual([
      'a',
      'b',
      'c',
      'd',
      ...times
        .map((t, i) => ({ t, i }))
        .sort((x, y) => x.t.time - y.t.time)
        .map(({ i }) => `m${i}`),
    ]);
  });

  it('PUB-9: tells the time of the newest message of each channel asked for that has one, of one app', async () => {
    const { store } = await fresh();
    await appendNews(store, 3);
    await appendNews(store, 2, 'sport');
    await store.pubsub.append({ appkey: 'app2', channel: 'news', guid: 'x', time: T0 + 9, content: 'other app' });
    const newest = (channels: string[]) => store.pubsub.newest({ appkey: 'app', channels });
    expect(await newest(['news', 'sport', 'empty'])).toEqual(
      new Map([
        ['news', T0 + 2],
        ['sport', T0 + 1],
      ]),
    );
    expect(await newest(['empty'])).toEqual(new Map());
    expect(await newest([])).toEqual(new Map());
  });

  it('PUB-11: history answers the newest messages at or after a time, oldest first, of one channel of one app', async () => {
    const { store } = await fresh();
    await appendNews(store, 5);
    await appendNews(store, 2, 'sport');
    await store.pubsub.append({ appkey: 'app2', channel: 'news', guid: 'x', time: T0 + 9, content: 'other app' });
    const page = (limit: number, since = 0) => store.pubsub.history({ appkey: 'app', channel: 'news', limit, since });
    expect(await page(3)).toEqual([
      { time: T0 + 2, content: 'm2' },
      { time: T0 + 3, content: 'm3' },
      { time: T0 + 4, content: 'm4' },
    ]);
    expect((await page(10)).map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect((await page(10, T0 + 3)).map((m) => m.content)).toEqual(['m3', 'm4']);
    expect(await page(10, T0 + 5)).toEqual([]);
    expect(await store.pubsub.history({ appkey: 'app', channel: 'none', limit: 10, since: 0 })).toEqual([]);
    expect(await all(store, 'sport')).toEqual(['m0', 'm1']);
  });

  it('PUB-11: prune keeps the newest messages of a channel and deletes the rest, counting them', async () => {
    const { store } = await fresh();
    await appendNews(store, 6);
    await appendNews(store, 4, 'sport');
    const prune = (keep: number, before = 0, channel = 'news') =>
      store.pubsub.prune({ appkey: 'app', channel, keep, before });
    expect(await prune(10)).toBe(0);
    expect(await prune(4)).toBe(2);
    expect(await all(store)).toEqual(['m2', 'm3', 'm4', 'm5']);
    expect(await prune(4)).toBe(0);
    // Other channels are untouched.
    expect(await all(store, 'sport')).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(await prune(0, 0, 'sport')).toBe(4);
    expect(await all(store, 'sport')).toEqual([]);
    expect(await prune(3, 0, 'none')).toBe(0);
  });

  it('PUB-11: prune deletes messages older than a time, whichever limit is tighter', async () => {
    const { store } = await fresh();
    await appendNews(store, 6);
    // Older than T0 + 2: m0 and m1; the count keeps all.
    expect(await store.pubsub.prune({ appkey: 'app', channel: 'news', keep: 100, before: T0 + 2 })).toBe(2);
    expect(await all(store)).toEqual(['m2', 'm3', 'm4', 'm5']);
    // The count is tighter than the age here.
    expect(await store.pubsub.prune({ appkey: 'app', channel: 'news', keep: 1, before: T0 + 3 })).toBe(3);
    expect(await all(store)).toEqual(['m5']);
    expect(await store.pubsub.prune({ appkey: 'app', channel: 'news', keep: 100, before: T0 + 6 })).toBe(1);
    expect(await all(store)).toEqual([]);
  });

  it('PUB-11: pruneOlderThan deletes old messages of every channel of every app, counting them', async () => {
    const { store } = await fresh();
    await appendNews(store, 4);
    await appendNews(store, 3, 'sport');
    await store.pubsub.append({ appkey: 'app2', channel: 'news', guid: 'x', time: T0, content: 'other app' });
    expect(await store.pubsub.pruneOlderThan(T0)).toBe(0);
    expect(await store.pubsub.pruneOlderThan(T0 + 2)).toBe(5);
    expect(await all(store)).toEqual(['m2', 'm3']);
    expect(await all(store, 'sport')).toEqual(['m2']);
    expect(await all(store, 'news', 'app2')).toEqual([]);
  });

  it('PUB-10 PUB-11: a pruned guid can be appended again; history survives a reopen', async () => {
    const { store, reopen } = await fresh();
    await appendNews(store, 3);
    await store.pubsub.prune({ appkey: 'app', channel: 'news', keep: 2, before: 0 });
    expect(
      await store.pubsub.append({ appkey: 'app', channel: 'news', guid: 'news-1', time: T0 + 9, content: 'x' }),
    ).toEqual({ inserted: false, time: T0 + 1 });
    expect(
      await store.pubsub.append({ appkey: 'app', channel: 'news', guid: 'news-0', time: T0 + 9, content: 'y' }),
    ).toEqual({ inserted: true, time: T0 + 9 });
    const again = await reopen();
    defer(() => again.close());
    expect(await all(again)).toEqual(['m1', 'm2', 'y']);
  });
}
