/**
 * The store contract for live rooms, their chat and bans; registered by `describeStoreContract` so that it runs on
 * SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import { LIVE_STATUS, type NewLiveRoom, type Store } from '../src/store/index.js';

const member = (id: string, phone: string) => ({
  id,
  phone,
  username: `name ${id}`,
  img: `https://cdn.test/${id}.png`,
  notifyBadge: 0,
  createdAt: 0,
  usernameChangedAt: null,
});

/** Members `ids`, each with a passed real-name certification unless listed in `uncertified`. */
async function members(store: Store, ids: readonly string[], uncertified: readonly string[] = []) {
  for (const [i, id] of ids.entries()) {
    await store.members.insert(member(id, `1370013${String(i).padStart(4, '0')}`));
    if (uncertified.includes(id)) continue;
    const submission = {
      memberId: id,
      type: 'personal' as const,
      name: 'Wang',
      number: 'x',
      images: [],
      submittedAt: 1,
    };
    await store.certifications.submit(submission);
    await store.certifications.review(id, { submittedAt: 1, pass: true, reason: '', now: 2 });
  }
}

const room = (id: string, anchorId: string, createdAt: number): NewLiveRoom => ({
  id,
  anchorId,
  title: `Room ${id}`,
  cover: `https://cdn.test/${id}.png`,
  stream: `stream${id}`.padEnd(16, '0'),
  pushKey: `key${id}`.padEnd(32, '0'),
  createdAt,
});

/** Registers the live part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeLiveStoreContract(fresh: () => Promise<{ store: Store }>): void {
  it('live: LIVE-17 a live room’s lost stream, and the rooms left behind', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['s1', 's2', 's3', 's4']);
    for (const [id, anchorId, createdAt] of [
      ['live1', 's1', 100],
      ['idle1', 's2', 100],
      ['idle2', 's3', 900],
      ['live2', 's4', 100],
    ] as const) {
      expect(await live.add(room(id, anchorId, createdAt))).toBe('ok');
    }
    expect(await live.start('live1', 's1', 200)).toBe(true);
    expect(await live.start('live2', 's4', 200)).toBe(true);
    const stale = async (lostBefore: number, createdBefore: number) =>
      (await live.stale({ lostBefore, createdBefore, limit: 10 })).map((r) => r.id).sort();

    // Only a live room's stream is marked, once: the first loss stands until the stream is back.
    await live.streamLost('idle1', 300);
    await live.streamLost('live1', 300);
    await live.streamLost('live1', 400);
    expect(await stale(299, 0)).toEqual([]);
    expect(await stale(300, 0)).toEqual(['live1']);
    await live.streamLost('live1', null);
    expect(await stale(10_000, 0)).toEqual([]);
    await live.streamLost('live1', 500);
    expect(await stale(500, 100)).toEqual(['idle1', 'live1']);
    expect(await stale(500, 900)).toEqual(['idle1', 'idle2', 'live1']);
    expect(await live.stale({ lostBefore: 500, createdBefore: 900, limit: 2 })).toHaveLength(2);
    // An ended room is never stale.
    expect(await live.end('live1', 's1', 600)).toBe(true);
    expect(await stale(10_000, 100)).toEqual(['idle1']);
  });

  it('live: a certified member holds one room not ended, even when adding at once', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'a2'], ['a2']);
    expect(await live.add(room('r0', 'nobody', 1))).toBe('missing');
    expect(await live.add(room('r0', 'a2', 1))).toBe('uncertified');
    const tries = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((id, i) => live.add(room(id, 'a1', 10 + i))));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'open')).toHaveLength(3);
    const open = await live.openOf('a1');
    expect(open).toEqual({
      id: open?.id,
      anchor: { id: 'a1', username: 'name a1', img: 'https://cdn.test/a1.png' },
      title: `Room ${open?.id}`,
      cover: `https://cdn.test/${open?.id}.png`,
      status: LIVE_STATUS.notStarted,
      stream: `stream${open?.id}`.padEnd(16, '0'),
      pushKey: `key${open?.id}`.padEnd(32, '0'),
      goods: [],
      createdAt: expect.any(Number),
      startedAt: null,
      endedAt: null,
    });
    expect(await live.byStream(open?.stream ?? '')).toEqual(open);
    expect(await live.byId('nope')).toBeUndefined();
    // Once it ended, another.
    expect(await live.end(open?.id ?? '', 'a1', 50)).toBe(true);
    expect(await live.openOf('a1')).toBeUndefined();
    expect(await live.add(room('r9', 'a1', 60))).toBe('ok');
    expect((await live.openOf('a1'))?.id).toBe('r9');
  });

  it('live: starts and ends once each, only the anchor’s, never back from the end', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'a2', 'a3']);
    await live.add(room('r1', 'a1', 1));
    expect(await live.start('r1', 'a2', 5)).toBe(false);
    expect(await live.end('r1', 'a2', 5)).toBe(false);
    const starts = await Promise.all([10, 11, 12].map((now) => live.start('r1', 'a1', now)));
    expect(starts.filter(Boolean)).toHaveLength(1);
    expect(await live.byId('r1')).toMatchObject({ status: LIVE_STATUS.live, startedAt: expect.any(Number) });
    expect(await live.setGoods('r1', 'a1', ['p2', 'p1'])).toBe(true);
    expect(await live.setGoods('r1', 'a2', ['p3'])).toBe(false);
    const ends = await Promise.all([20, 21].map((now) => live.end('r1', 'a1', now)));
    expect(ends.filter(Boolean)).toHaveLength(1);
    expect(await live.start('r1', 'a1', 30)).toBe(false);
    expect(await live.setGoods('r1', 'a1', [])).toBe(false);
    expect(await live.byId('r1')).toMatchObject({ status: LIVE_STATUS.ended, goods: ['p2', 'p1'] });

    // A start and an end at once: the end always lands; the start only before it.
    await live.add(room('r2', 'a2', 1));
    const [started, ended] = await Promise.all([live.start('r2', 'a2', 40), live.end('r2', 'a2', 40)]);
    expect(ended).toBe(true);
    expect(typeof started).toBe('boolean');
    expect(await live.byId('r2')).toMatchObject({ status: LIVE_STATUS.ended, endedAt: 40 });

    // The anchor's ended rooms, the latest ended first.
    await live.add(room('r3', 'a1', 100));
    await live.end('r3', 'a1', 200);
    expect((await live.endedOf('a1', 10)).map((r) => r.id)).toEqual(['r3', 'r1']);
    expect((await live.endedOf('a1', 1)).map((r) => r.id)).toEqual(['r3']);
  });

  it('live: lists live rooms by start, then rooms not started by creation; no ended ones, none across a block', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'a2', 'a3', 'a4', 'a5', 'v']);
    await live.add(room('r1', 'a1', 10));
    await live.add(room('r2', 'a2', 20));
    await live.add(room('r3', 'a3', 30));
    await live.add(room('r4', 'a4', 40));
    await live.add(room('r5', 'a5', 50));
    await live.start('r1', 'a1', 100);
    await live.start('r2', 'a2', 90);
    await live.end('r5', 'a5', 110);
    const ids = async (offset = 0, limit = 10, viewerId = 'v') =>
      (await live.list({ viewerId, offset, limit })).map((r) => r.id);
    expect(await ids()).toEqual(['r1', 'r2', 'r4', 'r3']);
    expect(await ids(0, 2)).toEqual(['r1', 'r2']);
    expect(await ids(2, 2)).toEqual(['r4', 'r3']);
    expect(await ids(4, 2)).toEqual([]);
    // Blocked either way: left out.
    await store.blocks.set('v', 'a1', true, { now: 1, max: 10 });
    await store.blocks.set('a4', 'v', true, { now: 1, max: 10 });
    expect(await ids()).toEqual(['r2', 'r3']);
    expect(await ids(0, 10, 'a3')).toEqual(['r1', 'r2', 'r4', 'r3']);
  });

  it('live: chat lands only in a live room from a member neither muted nor kicked', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'v1', 'v2']);
    await live.add(room('r1', 'a1', 1));
    const say = (memberId: string, text: string, createdAt: number) =>
      live.say({ id: `l${createdAt}`, roomId: 'r1', memberId, text, createdAt });
    expect(await say('v1', 'early', 5)).toBe(false);
    await live.start('r1', 'a1', 10);
    expect(await say('v1', 'hello', 11)).toBe(true);
    expect(await say('a1', 'welcome', 12)).toBe(true);
    expect(await live.say({ id: 'x', roomId: 'nope', memberId: 'v1', text: 'lost', createdAt: 13 })).toBe(false);

    expect(await live.ban({ roomId: 'r1', memberId: 'v1', kind: 'mute', now: 20 })).toEqual({
      changed: true,
      linkEnded: false,
    });
    expect(await say('v1', 'muted', 21)).toBe(false);
    expect(await say('v2', 'still here', 22)).toBe(true);
    expect(await live.restore('r1', 'v1')).toBe(true);
    expect(await live.restore('r1', 'v1')).toBe(false);
    expect(await say('v1', 'back', 23)).toBe(true);
    await live.ban({ roomId: 'r1', memberId: 'v2', kind: 'kick', now: 24 });
    expect(await say('v2', 'kicked', 25)).toBe(false);

    expect(await live.lines('r1', 10)).toEqual([
      {
        id: 'l11',
        roomId: 'r1',
        member: { id: 'v1', username: 'name v1', img: 'https://cdn.test/v1.png' },
        text: 'hello',
        createdAt: 11,
      },
      { id: 'l12', roomId: 'r1', member: expect.objectContaining({ id: 'a1' }), text: 'welcome', createdAt: 12 },
      { id: 'l22', roomId: 'r1', member: expect.objectContaining({ id: 'v2' }), text: 'still here', createdAt: 22 },
      { id: 'l23', roomId: 'r1', member: expect.objectContaining({ id: 'v1' }), text: 'back', createdAt: 23 },
    ]);
    // The newest, the oldest of them first.
    expect((await live.lines('r1', 2)).map((l) => l.text)).toEqual(['still here', 'back']);
    await live.end('r1', 'a1', 30);
    expect(await say('a1', 'after the end', 31)).toBe(false);
  });

  it('live: a kick replaces a mute, a mute leaves a kick, a second ban keeps its time; newest first', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'v1', 'v2', 'v3']);
    await live.add(room('r1', 'a1', 1));
    const ban = async (memberId: string, kind: 'mute' | 'kick', now: number) =>
      (await live.ban({ roomId: 'r1', memberId, kind, now })).changed;
    expect(await ban('v1', 'mute', 10)).toBe(true);
    expect(await ban('v1', 'mute', 11)).toBe(false);
    expect(await ban('v1', 'kick', 12)).toBe(true);
    expect(await ban('v1', 'mute', 13)).toBe(false);
    expect(await ban('v1', 'kick', 14)).toBe(false);
    expect(await live.banOf('r1', 'v1')).toBe('kick');
    expect(await ban('v2', 'mute', 20)).toBe(true);
    expect(await ban('v3', 'kick', 5)).toBe(true);
    expect(await live.banOf('r1', 'v2')).toBe('mute');
    expect(await live.banOf('r1', 'nobody')).toBeUndefined();
    expect(await live.banOf('r2', 'v1')).toBeUndefined();
    expect(await live.bans('r1', 10)).toEqual([
      { member: { id: 'v2', username: 'name v2', img: 'https://cdn.test/v2.png' }, kind: 'mute', createdAt: 20 },
      { member: expect.objectContaining({ id: 'v1' }), kind: 'kick', createdAt: 12 },
      { member: expect.objectContaining({ id: 'v3' }), kind: 'kick', createdAt: 5 },
    ]);
    expect((await live.bans('r1', 1)).map((b) => b.member.id)).toEqual(['v2']);
  });

  it('live: cancelling an account ends its room not ended, in the same transaction (MEM-7)', async () => {
    const { store } = await fresh();
    const { live } = store;
    await members(store, ['a1', 'a2']);
    await live.add(room('r1', 'a1', 1));
    await live.end('r1', 'a1', 5);
    await live.add(room('r2', 'a1', 10));
    await live.start('r2', 'a1', 20);
    await live.add(room('r3', 'a2', 30));
    expect(await store.members.cancel('a1', { reason: 'moving', now: 500 })).toBe(true);
    expect(await live.byId('r2')).toMatchObject({ status: LIVE_STATUS.ended, endedAt: 500 });
    expect(await live.byId('r1')).toMatchObject({ status: LIVE_STATUS.ended, endedAt: 5 });
    expect(await live.byId('r3')).toMatchObject({ status: LIVE_STATUS.notStarted });
    expect(await live.add(room('r4', 'a1', 600))).toBe('missing');
  });
}
