/**
 * The store contract for co-broadcast links of live rooms; registered by `describeStoreContract` so that it runs on
 * SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { Store } from '../src/store/index.js';

/** Members `ids`; the first, certified, opens room `r1` and starts it. */
async function liveRoom(store: Store, ids: readonly string[]) {
  for (const [i, id] of ids.entries()) {
    await store.members.insert({
      id,
      phone: `1370014${String(i).padStart(4, '0')}`,
      username: `name ${id}`,
      img: `https://cdn.test/${id}.png`,
      notifyBadge: 0,
      createdAt: 0,
      usernameChangedAt: null,
    });
  }
  const anchorId = ids[0] as string;
  const submission = {
    memberId: anchorId,
    type: 'personal' as const,
    name: 'W',
    number: 'x',
    images: [],
    submittedAt: 1,
  };
  await store.certifications.submit(submission);
  await store.certifications.review(anchorId, { submittedAt: 1, pass: true, reason: '', now: 2 });
  const room = { anchorId, title: 'Room', cover: 'c', stream: 's'.repeat(16), pushKey: 'k'.repeat(32), createdAt: 3 };
  await store.live.add({ id: 'r1', ...room });
  return { live: store.live, links: store.liveLinks };
}

/** Registers the co-broadcast part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeLiveLinkStoreContract(fresh: () => Promise<{ store: Store }>): void {
  const request = (store: Store, memberId: string, now: number, waitingMax = 50) =>
    store.liveLinks.request({ roomId: 'r1', memberId, now, waitingMax });
  const accept = (store: Store, memberId: string, now: number, guestsMax = 3) =>
    store.liveLinks.accept({
      roomId: 'r1',
      memberId,
      stream: `g${memberId}`.padEnd(16, '0'),
      pushKey: `k${memberId}`.padEnd(32, '0'),
      now,
      guestsMax,
    });

  it('live links: a request needs a live room, a member neither muted nor kicked, none open, room to wait', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
    expect(await request(store, 'v1', 5)).toBe('state');
    await live.start('r1', 'a', 10);
    expect(await request(store, 'nobody', 11)).toBe('missing');
    expect(await links.request({ roomId: 'nope', memberId: 'v1', now: 11, waitingMax: 50 })).toBe('state');
    await live.ban({ roomId: 'r1', memberId: 'v4', kind: 'mute', now: 11 });
    await live.ban({ roomId: 'r1', memberId: 'v5', kind: 'kick', now: 11 });
    expect(await request(store, 'v4', 12)).toBe('removed');
    expect(await request(store, 'v5', 12)).toBe('removed');
    expect(await request(store, 'v1', 20)).toBe('ok');
    expect(await request(store, 'v1', 21)).toBe('open');
    // At once, with room for two more: two land.
    const tries = await Promise.all(['v2', 'v3', 'v6'].map((id) => request(store, id, 30, 3)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(2);
    expect(tries.filter((t) => t === 'full')).toHaveLength(1);
    expect(await links.linkOf('r1', 'v1')).toEqual({
      roomId: 'r1',
      member: { id: 'v1', username: 'name v1', img: 'https://cdn.test/v1.png' },
      status: 'waiting',
      stream: null,
      pushKey: null,
      requestedAt: 20,
      acceptedAt: null,
    });
    // On stage: still open; the waiting bound counts requests only.
    expect(await accept(store, 'v1', 40)).toBe('ok');
    expect(await request(store, 'v1', 41)).toBe('open');
  });

  it('live links: at most the bound on stage, even accepted at once; only a waiting request; new stream each time', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2', 'v3', 'v4', 'v5']);
    await live.start('r1', 'a', 10);
    for (const [i, id] of ['v1', 'v2', 'v3', 'v4', 'v5'].entries()) await request(store, id, 20 + i);
    expect(await accept(store, 'nobody', 30)).toBe('missing');
    const tries = await Promise.all(['v1', 'v2', 'v3', 'v4'].map((id) => accept(store, id, 30)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(3);
    expect(tries.filter((t) => t === 'full')).toHaveLength(1);
    expect(await accept(store, 'v1', 31)).toBe('missing');
    const guest = (await links.openOf('r1')).find((l) => l.status === 'accepted');
    expect(guest).toMatchObject({ stream: expect.stringMatching(/^g/), pushKey: expect.stringMatching(/^k/) });
    expect(await links.byStream(guest?.stream ?? '')).toEqual(guest);
    expect(await links.byStream('nope')).toBeUndefined();

    // The waiting ones, the oldest first, then the guests in accepted order.
    const other = await fresh();
    const two = await liveRoom(other.store, ['a', 'v1', 'v2', 'v3', 'v4']);
    await two.live.start('r1', 'a', 10);
    await request(other.store, 'v3', 20);
    await request(other.store, 'v1', 21);
    await request(other.store, 'v4', 22);
    await request(other.store, 'v2', 23);
    await accept(other.store, 'v4', 30);
    await accept(other.store, 'v3', 31);
    const open = await two.links.openOf('r1');
    expect(open.map((l) => [l.member.id, l.status])).toEqual([
      ['v1', 'waiting'],
      ['v2', 'waiting'],
      ['v4', 'accepted'],
      ['v3', 'accepted'],
    ]);
    expect(open[2]).toMatchObject({ requestedAt: 22, acceptedAt: 30 });

    // Ended, asked again and accepted again: a new stream and key; the old stream is no guest's on stage.
    expect(await two.links.end('r1', 'v4', 40)).toBe(true);
    expect(await two.links.end('r1', 'v4', 41)).toBe(false);
    expect(await two.links.openRoomsOf('v4')).toEqual([]);
    expect(await request(other.store, 'v4', 42)).toBe('ok');
    expect(await two.links.linkOf('r1', 'v4')).toMatchObject({ status: 'waiting', requestedAt: 42, acceptedAt: null });
    expect(await two.links.openRoomsOf('v4')).toEqual(['r1']);
    await two.links.accept({
      roomId: 'r1',
      memberId: 'v4',
      stream: 'n'.repeat(16),
      pushKey: 'p'.repeat(32),
      now: 50,
      guestsMax: 3,
    });
    expect(await two.links.linkOf('r1', 'v4')).toMatchObject({
      status: 'accepted',
      stream: 'n'.repeat(16),
      acceptedAt: 50,
    });
    expect(await two.links.byStream(open[2]?.stream ?? '')).toBeUndefined();
  });

  it('live links: cancel, reject and end move only from the status they need; an accept and a cancel at once', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8']);
    await live.start('r1', 'a', 10);
    await request(store, 'v1', 20);
    await request(store, 'v2', 21);
    expect(await links.end('r1', 'v1', 22)).toBe(false);
    expect(await links.reject('r1', 'v1', 23)).toBe(true);
    expect(await links.reject('r1', 'v1', 24)).toBe(false);
    expect(await links.cancel('r1', 'v1', 25)).toBeUndefined();
    expect(await accept(store, 'v1', 26)).toBe('missing');
    expect(await links.linkOf('r1', 'v1')).toMatchObject({ status: 'rejected' });

    expect(await links.cancel('r1', 'v2', 30)).toBe('cancelled');
    expect(await request(store, 'v2', 31)).toBe('ok');
    await accept(store, 'v2', 32);
    expect(await links.reject('r1', 'v2', 33)).toBe(false);
    // Leaving the stage.
    expect(await links.cancel('r1', 'v2', 34)).toBe('ended');
    expect(await links.linkOf('r1', 'v2')).toMatchObject({ status: 'ended' });

    // Accepts and cancels at once: never on stage after both, whichever came first.
    const racers = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8'];
    for (const id of racers) await request(store, id, 40);
    const raced = await Promise.all(
      racers.map((id) => Promise.all([accept(store, id, 41, racers.length), links.cancel('r1', id, 41)])),
    );
    for (const [accepted, cancelled] of raced) {
      expect([accepted, cancelled]).toEqual(accepted === 'ok' ? ['ok', 'ended'] : ['missing', 'cancelled']);
    }
    expect(await links.openOf('r1')).toEqual([]);
  });

  it('live links: the room’s end and a kick end links, a mute does not; a cancelled account’s links end (MEM-7)', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2', 'v3', 'v4']);
    await live.start('r1', 'a', 10);
    for (const id of ['v1', 'v2', 'v3', 'v4']) await request(store, id, 20);
    await accept(store, 'v1', 21);
    await accept(store, 'v3', 21);

    expect(await live.ban({ roomId: 'r1', memberId: 'v1', kind: 'mute', now: 30 })).toEqual({
      changed: true,
      linkEnded: false,
    });
    expect(await links.linkOf('r1', 'v1')).toMatchObject({ status: 'accepted' });
    expect(await live.ban({ roomId: 'r1', memberId: 'v1', kind: 'kick', now: 31 })).toEqual({
      changed: true,
      linkEnded: true,
    });
    expect(await live.ban({ roomId: 'r1', memberId: 'v2', kind: 'kick', now: 32 })).toEqual({
      changed: true,
      linkEnded: true,
    });
    expect(await live.ban({ roomId: 'r1', memberId: 'v2', kind: 'kick', now: 33 })).toEqual({
      changed: false,
      linkEnded: false,
    });
    expect(await links.linkOf('r1', 'v1')).toMatchObject({ status: 'ended' });
    expect(await links.linkOf('r1', 'v2')).toMatchObject({ status: 'ended' });

    // A guest cancelling their account: their link ends with it.
    expect(await links.openRoomsOf('v3')).toEqual(['r1']);
    expect(await store.members.cancel('v3', { reason: 'moving', now: 40 })).toBe(true);
    expect(await links.linkOf('r1', 'v3')).toMatchObject({ status: 'ended' });
    expect(await links.openRoomsOf('v3')).toEqual([]);

    // The room's end ends what is open; no request after it.
    expect(await live.end('r1', 'a', 50)).toBe(true);
    expect(await links.openOf('r1')).toEqual([]);
    expect(await links.linkOf('r1', 'v4')).toMatchObject({ status: 'ended' });
    expect(await request(store, 'v4', 51)).toBe('state');
  });

  it('live links: an anchor cancelling their account ends the links of their room', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2']);
    await live.start('r1', 'a', 10);
    await request(store, 'v1', 20);
    await request(store, 'v2', 20);
    await accept(store, 'v2', 21);
    expect(await store.members.cancel('a', { reason: 'moving', now: 30 })).toBe(true);
    expect(await links.openOf('r1')).toEqual([]);
    expect((await links.linkOf('r1', 'v2'))?.status).toBe('ended');
  });

  it('live links: a guest’s stream lost and back; those lost long enough end in one write, only guests on stage', async () => {
    const { store } = await fresh();
    const { live, links } = await liveRoom(store, ['a', 'v1', 'v2', 'v3']);
    await live.start('r1', 'a', 10);
    for (const id of ['v1', 'v2', 'v3']) await request(store, id, 20);
    await accept(store, 'v1', 30);
    await accept(store, 'v2', 30);
    const stream = (id: string) => `g${id}`.padEnd(16, '0');
    // A waiting request has no stream; a stream nobody holds marks nothing.
    expect(await links.streamLost('nope', 40)).toBe(false);
    expect(await links.streamLost(stream('v1'), 40)).toBe(true);
    // Lost already: the first time stays.
    expect(await links.streamLost(stream('v1'), 45)).toBe(false);
    expect(await links.streamLost(stream('v2'), 50)).toBe(true);
    expect(await links.streamLost(stream('v2'), null)).toBe(true);
    expect(await links.streamLost(stream('v2'), null)).toBe(false);

    expect(await links.endLost(39, 60)).toEqual([]);
    expect(await links.endLost(40, 60)).toEqual([{ roomId: 'r1', memberId: 'v1' }]);
    expect(await links.linkOf('r1', 'v1')).toMatchObject({ status: 'ended' });
    expect(await links.endLost(100, 61)).toEqual([]);
    expect((await links.openOf('r1')).map((l) => [l.member.id, l.status])).toEqual([
      ['v3', 'waiting'],
      ['v2', 'accepted'],
    ]);
    // Ended, the old stream is no guest's: nothing to mark. A new acceptance starts with its stream not lost.
    expect(await links.streamLost(stream('v1'), 70)).toBe(false);
    expect(await links.streamLost(stream('v2'), 70)).toBe(true);
    expect(await links.end('r1', 'v2', 71)).toBe(true);
    expect(await request(store, 'v2', 72)).toBe('ok');
    await links.accept({
      roomId: 'r1',
      memberId: 'v2',
      stream: 'n'.repeat(16),
      pushKey: 'p'.repeat(32),
      now: 73,
      guestsMax: 3,
    });
    expect(await links.endLost(1_000, 74)).toEqual([]);
  });
}
