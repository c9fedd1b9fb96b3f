/**
 * The store contract for pub/sub sessions (PUB-8, PUB-9); registered by `describeStoreContract` so that it runs on
 * SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { SessionConnection, Store } from '../src/store/index.js';
import { defer } from './helpers.js';

/** Registers the pub/sub session part of the contract; `fresh` opens a fresh store closed after the test. */
export function describePubsubSessionStoreContract(
  fresh: () => Promise<{ store: Store; reopen: () => Promise<Store> }>,
): void {
  const session = (sid: string, overrides: Partial<SessionConnection> = {}): SessionConnection => ({
    sid,
    appkey: 'app',
    userId: `user-${sid}`,
    connectionId: `conn-${sid}`,
    nodeId: 'node-1',
    ...overrides,
  });
  const body = (guid: string) => JSON.stringify({ n: 'news', c: guid, t: 1, i: guid, a: true });
  const pendingGuids = async (store: Store, sid: string, channels?: string[]) =>
    (await store.pubsubSessions.pending({ sid, channels, limit: 1000 })).map((p) => p.guid);

  it('PUB-9: stores a session with its channels, presence flags and watches', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    expect(await s.load('s1')).toBeUndefined();
    await s.subscribe({ session: session('s1'), channels: ['news', 'chat'], presence: false });
    await s.subscribe({ session: session('s1'), channels: ['chat', 'room'], presence: true });
    // Presence never goes back to false by subscribing again without it.
    await s.subscribe({ session: session('s1'), channels: ['room'], presence: false });
    await s.watch({ session: session('s1'), channel: 'room' });
    await s.watch({ session: session('s1'), channel: 'lobby' });
    await s.watch({ session: session('s1'), channel: 'lobby' });
    await s.unwatch({ sid: 's1', channel: 'lobby' });
    expect(await s.load('s1')).toEqual({
      sid: 's1',
      appkey: 'app',
      userId: 'user-s1',
      channels: [
        { channel: 'chat', presence: true },
        { channel: 'news', presence: false },
        { channel: 'room', presence: true },
      ],
      watching: ['room'],
    });
    const anonymous = session('s2', { userId: null });
    await s.watch({ session: anonymous, channel: 'x' });
    expect(await s.load('s2')).toEqual({ sid: 's2', appkey: 'app', userId: null, channels: [], watching: ['x'] });
  });

  it('PUB-8: a qos-1 message is pending for every subscribed session, noting the connection serving it', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    await s.subscribe({ session: session('on'), channels: ['news'], presence: false });
    await s.subscribe({ session: session('off'), channels: ['news', 'other'], presence: false });
    await s.subscribe({ session: session('elsewhere'), channels: ['other'], presence: false });
    await s.subscribe({ session: session('other-app', { appkey: 'app2' }), channels: ['news'], presence: false });
    await s.detach({ sid: 'off', connectionId: 'conn-off', now: 10 });
    expect(await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 100, body: body('g1') })).toBe(2);
    expect(await s.pending({ sid: 'on', limit: 10 })).toEqual([
      { guid: 'g1', channel: 'news', body: body('g1'), deliveredTo: 'conn-on' },
    ]);
    expect(await s.pending({ sid: 'off', limit: 10 })).toEqual([
      { guid: 'g1', channel: 'news', body: body('g1'), deliveredTo: null },
    ]);
    expect(await pendingGuids(store, 'elsewhere')).toEqual([]);
    expect(await pendingGuids(store, 'other-app')).toEqual([]);
    // No subscriber: nothing is kept.
    expect(await s.addPending({ appkey: 'app', channel: 'nobody', guid: 'g2', time: 101, body: body('g2') })).toBe(0);
    // The same message again (a re-sent publish) adds nothing.
    expect(await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 100, body: body('g1') })).toBe(0);
  });

  it('PUB-8: pending messages come oldest first, by channel and newest within the limit; acks remove them', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    await s.subscribe({ session: session('a'), channels: ['news', 'chat'], presence: false });
    await s.subscribe({ session: session('b'), channels: ['news'], presence: false });
    for (const [i, channel] of ['news', 'chat', 'news', 'chat'].entries()) {
      await s.addPending({ appkey: 'app', channel, guid: `g${i}`, time: 100 + i, body: body(`g${i}`) });
    }
    expect(await pendingGuids(store, 'a')).toEqual(['g0', 'g1', 'g2', 'g3']);
    expect(await pendingGuids(store, 'a', ['chat'])).toEqual(['g1', 'g3']);
    expect(await pendingGuids(store, 'a', [])).toEqual([]);
    expect((await s.pending({ sid: 'a', limit: 2 })).map((p) => p.guid)).toEqual(['g2', 'g3']);
    await s.ack([
      { sid: 'a', guid: 'g0' },
      { sid: 'a', guid: 'g3' },
      { sid: 'b', guid: 'g2' },
      { sid: 'a', guid: 'unknown' },
    ]);
    await s.ack([]);
    expect(await pendingGuids(store, 'a')).toEqual(['g1', 'g2']);
    expect(await pendingGuids(store, 'b')).toEqual(['g0']);
  });

  it('PUB-8: acks of one message by many sessions are written in batches', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    const sids = Array.from({ length: 450 }, (_, i) => `s${i}`);
    for (const sid of sids) await s.subscribe({ session: session(sid), channels: ['news'], presence: false });
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g2', time: 2, body: body('g2') });
    await s.ack(sids.map((sid) => ({ sid, guid: 'g1' })).concat([{ sid: 's7', guid: 'g2' }]));
    expect(await pendingGuids(store, 's0')).toEqual(['g2']);
    expect(await pendingGuids(store, 's449')).toEqual(['g2']);
    expect(await pendingGuids(store, 's7')).toEqual([]);
  });

  it('PUB-6: unsubscribing removes the channel and its pending messages', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    await s.subscribe({ session: session('a'), channels: ['news', 'chat'], presence: true });
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    await s.addPending({ appkey: 'app', channel: 'chat', guid: 'g2', time: 2, body: body('g2') });
    await s.unsubscribe({ sid: 'a', channel: 'news' });
    await s.unsubscribe({ sid: 'a', channel: 'never' });
    expect((await s.load('a'))?.channels).toEqual([{ channel: 'chat', presence: true }]);
    expect(await pendingGuids(store, 'a')).toEqual(['g2']);
  });

  it('PUB-9: a new session of the user takes over what their sessions without a connection missed', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    const alice = (sid: string) => session(sid, { userId: 'alice' });
    await s.subscribe({ session: alice('old1'), channels: ['news', 'chat'], presence: false });
    await s.subscribe({ session: alice('old2'), channels: ['news'], presence: false });
    await s.subscribe({ session: alice('live'), channels: ['news'], presence: false });
    await s.subscribe({ session: session('bob'), channels: ['news'], presence: false });
    await s.detach({ sid: 'old1', connectionId: 'conn-old1', now: 5 });
    await s.detach({ sid: 'old2', connectionId: 'conn-old2', now: 5 });
    // A detach naming another connection than the one serving the session changes nothing.
    await s.detach({ sid: 'live', connectionId: 'stale', now: 5 });
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    await s.addPending({ appkey: 'app', channel: 'chat', guid: 'g2', time: 2, body: body('g2') });
    await s.subscribe({ session: alice('new'), channels: ['news', 'chat'], presence: false });
    expect(await s.takeOver({ sid: 'new', appkey: 'app', userId: 'alice', channels: ['news'] })).toBe(1);
    expect(await s.pending({ sid: 'new', limit: 10 })).toEqual([
      { guid: 'g1', channel: 'news', body: body('g1'), deliveredTo: null },
    ]);
    expect(await s.takeOver({ sid: 'new', appkey: 'app', userId: 'alice', channels: ['news', 'chat'] })).toBe(1);
    expect(await pendingGuids(store, 'new')).toEqual(['g1', 'g2']);
    expect(await s.takeOver({ sid: 'bob', appkey: 'app', userId: 'user-bob', channels: ['news'] })).toBe(0);
    expect(await s.takeOver({ sid: 'new', appkey: 'app', userId: 'alice', channels: [] })).toBe(0);
  });

  it('releases the sessions of a node, or of every node, as without a connection', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    const alice = (sid: string, nodeId: string) => session(sid, { userId: 'alice', nodeId });
    await s.subscribe({ session: alice('on-a', 'node-a'), channels: ['news'], presence: false });
    await s.subscribe({ session: alice('on-b', 'node-b'), channels: ['news'], presence: false });
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    await s.subscribe({ session: alice('new', 'node-b'), channels: ['news'], presence: false });
    expect(await s.release({ nodeId: 'node-a', now: 50 })).toBe(1);
    // Released, on-a counts as without a connection; on-b still has one.
    expect(await s.takeOver({ sid: 'new', appkey: 'app', userId: 'alice', channels: ['news'] })).toBe(1);
    expect(await s.release({ now: 60 })).toBe(2);
    expect(await s.release({ now: 70 })).toBe(0);
    expect(await s.deleteExpired(55)).toBe(1);
    expect(await s.load('on-a')).toBeUndefined();
    expect(await s.load('on-b')).toBeDefined();
  });

  it('forgets sessions without a connection for too long, and dropped ones, with all they hold', async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    for (const sid of ['old', 'recent', 'connected', 'dropped']) {
      await s.subscribe({ session: session(sid), channels: ['news'], presence: false });
      await s.watch({ session: session(sid), channel: 'room' });
    }
    await s.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    await s.detach({ sid: 'old', connectionId: 'conn-old', now: 100 });
    await s.detach({ sid: 'recent', connectionId: 'conn-recent', now: 300 });
    await s.drop('dropped');
    expect(await s.deleteExpired(200)).toBe(1);
    expect(await s.load('old')).toBeUndefined();
    expect(await pendingGuids(store, 'old')).toEqual([]);
    expect(await s.load('dropped')).toBeUndefined();
    expect(await pendingGuids(store, 'dropped')).toEqual([]);
    expect((await s.load('recent'))?.watching).toEqual(['room']);
    expect(await pendingGuids(store, 'connected')).toEqual(['g1']);
    // Attached again, a session is connected: no expiry.
    await s.attach(session('recent'));
    expect(await s.deleteExpired(1_000)).toBe(0);
  });

  it("PUB-20: keeps the watches of an expired session longer, and hands them to the same client's new session", async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    const alice = (sid: string) => session(sid, { userId: 'alice' });
    for (const sid of ['watcher', 'plain']) {
      await s.subscribe({ session: alice(sid), channels: ['news'], presence: false });
      await s.addPending({ appkey: 'app', channel: 'news', guid: `g-${sid}`, time: 1, body: body(`g-${sid}`) });
    }
    await s.watch({ session: alice('watcher'), channel: 'room' });
    await s.watch({ session: alice('watcher'), channel: 'lobby' });
    await s.detach({ sid: 'watcher', connectionId: 'conn-watcher', now: 100 });
    await s.detach({ sid: 'plain', connectionId: 'conn-plain', now: 100 });
    // Expired: what they held goes, but the watcher's row and watches stay until the later bound.
    expect(await s.deleteExpired(200, 50)).toBe(1);
    expect(await s.load('plain')).toBeUndefined();
    expect(await s.load('watcher')).toMatchObject({ channels: [], watching: ['lobby', 'room'] });
    expect(await pendingGuids(store, 'watcher')).toEqual([]);

    // Only to the same app and user, and not while the old session has a connection.
    expect(await s.handOver({ from: 'watcher', to: session('other-user') })).toEqual([]);
    expect(await s.handOver({ from: 'watcher', to: session('other-app', { userId: 'alice', appkey: 'b' }) })).toEqual(
      [],
    );
    expect(await s.handOver({ from: 'nope', to: alice('new') })).toEqual([]);
    expect(await s.load('watcher')).toBeDefined();
    expect(await s.handOver({ from: 'watcher', to: alice('new') })).toEqual(['lobby', 'room']);
    expect(await s.load('new')).toMatchObject({ userId: 'alice', channels: [], watching: ['lobby', 'room'] });
    expect(await s.load('watcher')).toBeUndefined();
    expect(await s.handOver({ from: 'watcher', to: alice('again') })).toEqual([]);
    await s.watch({ session: alice('live'), channel: 'room' });
    expect(await s.handOver({ from: 'live', to: alice('newer') })).toEqual([]);
    expect((await s.load('live'))?.watching).toEqual(['room']);

    // Past the later bound the watches go too.
    await s.detach({ sid: 'new', connectionId: 'conn-new', now: 300 });
    expect(await s.deleteExpired(400, 350)).toBe(1);
    expect(await s.load('new')).toBeUndefined();
  });

  it("PUB-8: keeps each session's newest pending messages up to the cap, with their bodies", async () => {
    const { store } = await fresh();
    const s = store.pubsubSessions;
    await s.subscribe({ session: session('busy'), channels: ['news'], presence: false });
    await s.subscribe({ session: session('calm'), channels: ['chat'], presence: false });
    for (let i = 0; i < 5; i += 1) {
      await s.addPending({ appkey: 'app', channel: 'news', guid: `n${i}`, time: 10 + i, body: body(`n${i}`) });
    }
    await s.addPending({ appkey: 'app', channel: 'chat', guid: 'c0', time: 10, body: body('c0') });
    await s.prune({ maxPending: 3, before: 0 });
    expect(await pendingGuids(store, 'busy')).toEqual(['n2', 'n3', 'n4']);
    expect(await pendingGuids(store, 'calm')).toEqual(['c0']);
    await s.ack([{ sid: 'calm', guid: 'c0' }]);
    // Bodies nothing refers to go; those still pending stay, however old.
    await s.prune({ maxPending: 3, before: 1_000 });
    expect(await s.pending({ sid: 'busy', limit: 10 })).toEqual(
      ['n2', 'n3', 'n4'].map((guid) => ({ guid, channel: 'news', body: body(guid), deliveredTo: 'conn-busy' })),
    );
  });

  it('PUB-9: sessions and their pending messages survive a reopen', async () => {
    const { store, reopen } = await fresh();
    await store.pubsubSessions.subscribe({ session: session('kept'), channels: ['news'], presence: true });
    await store.pubsubSessions.addPending({ appkey: 'app', channel: 'news', guid: 'g1', time: 1, body: body('g1') });
    const again = await reopen();
    defer(() => again.close());
    expect((await again.pubsubSessions.load('kept'))?.channels).toEqual([{ channel: 'news', presence: true }]);
    expect(await again.pubsubSessions.pending({ sid: 'kept', limit: 10 })).toEqual([
      { guid: 'g1', channel: 'news', body: body('g1'), deliveredTo: 'conn-kept' },
    ]);
  });
}
