/**
 * The store contract for IM, groups, users and presence subscriptions; registered by `describeStoreContract` so
 * that it runs on SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { NewMessage, Store } from '../src/store/index.js';

/** Registers the IM part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeImStoreContract(fresh: () => Promise<{ store: Store }>): void {
  const message = (overrides: Partial<NewMessage> = {}): NewMessage => ({
    appkey: 'app',
    convKey: 'c1',
    scene: 'private',
    messageId: 'm1',
    senderId: 'alice',
    targetId: 'bob',
    type: 'text',
    payload: '{"text":"hi"}',
    senderData: '{"name":"Alice"}',
    ...overrides,
  });

  it('IM-5: appends with increasing timestamps per conversation, and de-duplicates by sender and id', async () => {
    const { store } = await fresh();
    const first = await store.messages.append(message(), 1_700_000_000_000);
    expect(first).toEqual({
      duplicate: false,
      message: {
        convKey: 'c1',
        scene: 'private',
        messageId: 'm1',
        senderId: 'alice',
        targetId: 'bob',
        type: 'text',
        payload: '{"text":"hi"}',
        senderData: '{"name":"Alice"}',
        ts: 1_700_000_000_000,
        recalled: false,
        recaller: null,
      },
    });
    // A clock that stands still or goes back still moves the conversation forward.
    expect((await store.messages.append(message({ messageId: 'm2' }), 1_700_000_000_000)).message.ts).toBe(
      1_700_000_000_001,
    );
    expect((await store.messages.append(message({ messageId: 'm3' }), 5)).message.ts).toBe(1_700_000_000_002);
    // Another conversation has its own clock.
    expect((await store.messages.append(message({ messageId: 'm4', convKey: 'c2' }), 7)).message.ts).toBe(7);
    const again = await store.messages.append(message({ payload: '{"text":"changed"}' }), 1_800_000_000_000);
    expect(again).toEqual({ duplicate: true, message: first.message });
    // The same id from another sender or app is another message.
    expect((await store.messages.append(message({ senderId: 'bob' }), 9)).duplicate).toBe(false);
    expect((await store.messages.append(message({ appkey: 'other' }), 9)).duplicate).toBe(false);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, n) => store.messages.append(message({ messageId: `b${n}`, convKey: 'c3' }), 100)),
    );
    expect(new Set(burst.map((r) => r.message.ts)).size).toBe(20);
  });

  it('IM-5..IM-7: send stores the message, brings the rows forward and raises the reader, unless a duplicate', async () => {
    const { store } = await fresh();
    const c = store.conversations;
    await c.touch({
      appkey: 'app',
      scene: 'private',
      convKey: 'c1',
      lastTs: 5,
      rows: [{ ownerId: 'bob', targetId: 'alice', data: '{"n":"old"}' }],
    });
    await c.remove({ appkey: 'app', ownerId: 'bob', scene: 'private', targetId: 'alice' });
    const stored: number[] = [];
    const send = (messageId: string, now: number, data: string | null) =>
      store.messages.send({
        message: message({ messageId }),
        now,
        rows: [
          { ownerId: 'alice', targetId: 'bob', data },
          { ownerId: 'bob', targetId: 'alice', data: null },
        ],
        readerId: 'alice',
        stored: (m) => stored.push(m.ts),
      });
    const first = await send('m1', 100, '{"n":"Bob"}');
    expect(first.duplicate).toBe(false);
    expect(first.message).toMatchObject({ messageId: 'm1', ts: 100, recalled: false });
    expect(stored).toEqual([100]);
    expect(
      await store.messages.page({ appkey: 'app', convKey: 'c1', viewerId: 'bob', before: undefined, limit: 5 }),
    ).toHaveLength(1);
    const alice = { appkey: 'app', ownerId: 'alice', scene: 'private', targetId: 'bob' };
    const bob = { appkey: 'app', ownerId: 'bob', scene: 'private', targetId: 'alice' };
    expect(await c.find(alice)).toMatchObject({ convKey: 'c1', lastTs: 100, data: '{"n":"Bob"}', removed: false });
    // A removed row shows again, keeping its data when none is given.
    expect(await c.find(bob)).toMatchObject({ lastTs: 100, data: '{"n":"old"}', removed: false });
    expect(await store.messages.readOffsets('app', 'c1', ['alice'])).toEqual([{ userId: 'alice', offset: 100 }]);

    // A duplicate: the first message back, nothing stored, pushed or moved.
    const again = await send('m1', 500, '{"n":"changed"}');
    expect(again).toEqual({ duplicate: true, message: first.message });
    expect(stored).toEqual([100]);
    expect(await c.find(alice)).toMatchObject({ lastTs: 100, data: '{"n":"Bob"}' });
    expect(await store.messages.readOffsets('app', 'c1', ['alice'])).toEqual([{ userId: 'alice', offset: 100 }]);

    // Sent together (one commit on SQLite): the re-send of one of them is still a duplicate, pushed once.
    const [t1, t2, t1again] = await Promise.all([send('t1', 150, null), send('t2', 150, null), send('t1', 150, null)]);
    expect([t1, t1again].filter((r) => r?.duplicate)).toHaveLength(1);
    expect(t1?.message.ts).toBe(t1again?.message.ts);
    expect(t2?.duplicate).toBe(false);
    expect([...stored].sort()).toEqual([100, 150, 151]);
    // A clock gone back still moves the conversation forward; null data keeps the row's data.
    expect((await send('m2', 50, null)).message.ts).toBe(152);
    expect(await c.find(alice)).toMatchObject({ lastTs: 152, data: '{"n":"Bob"}' });
    expect(await store.messages.readOffsets('app', 'c1', ['alice'])).toEqual([{ userId: 'alice', offset: 152 }]);
    expect(stored).toHaveLength(4);
  });

  it('IM-6: a group message moves the group head; members get a row once, shown again after a remove', async () => {
    const { store } = await fresh();
    const c = store.conversations;
    // Groups are listed to their members (IM-9).
    await store.groups.join({ appkey: 'app', userId: 'alice', groupIds: ['g1'], now: 1 });
    await store.groups.join({ appkey: 'app', userId: 'bob', groupIds: ['g1'], now: 1 });
    await store.groups.join({ appkey: 'app', userId: 'carol', groupIds: ['g1'], now: 1 });
    const send = (messageId: string, now: number, owners: string[], data: string | null) =>
      store.messages.send({
        message: message({ messageId, convKey: 'g1', scene: 'group', targetId: 'g1' }),
        now,
        rows: owners.map((ownerId) => ({ ownerId, targetId: 'g1', data })),
        readerId: 'alice',
        stored: () => undefined,
      });
    await send('m1', 100, ['alice', 'bob'], '{"name":"Team"}');
    const ref = (ownerId: string) => ({ appkey: 'app', ownerId, scene: 'group', targetId: 'g1' });
    expect(await c.find(ref('bob'))).toMatchObject({ convKey: 'g1', lastTs: 100, data: '{"name":"Team"}' });
    await c.setTop({ ...ref('bob'), top: true });
    await c.remove(ref('alice'));
    // Carol joined; no data this time: the head keeps the last data given.
    await send('m2', 200, ['alice', 'bob', 'carol'], null);
    for (const owner of ['alice', 'bob', 'carol']) {
      expect(await c.find(ref(owner))).toMatchObject({ lastTs: 200, data: '{"name":"Team"}', removed: false });
    }
    expect(await c.find(ref('bob'))).toMatchObject({ top: true });
    expect((await c.list('app', 'alice', 10)).map((r) => [r.targetId, r.lastTs])).toEqual([['g1', 200]]);
    await send('m3', 300, ['alice'], '{"name":"Renamed"}');
    expect(await c.find(ref('carol'))).toMatchObject({ lastTs: 300, data: '{"name":"Renamed"}' });
    // The list orders by the head's time: a private conversation at 250 sorts below the group at 300.
    await c.touch({
      appkey: 'app',
      scene: 'private',
      convKey: 'p1',
      lastTs: 250,
      rows: [{ ownerId: 'carol', targetId: 'dave', data: null }],
    });
    expect((await c.list('app', 'carol', 10)).map((r) => r.targetId)).toEqual(['g1', 'dave']);
    // The same through touch (the path of stores without a synchronous send).
    await c.touch({
      appkey: 'app',
      scene: 'group',
      convKey: 'g1',
      lastTs: 400,
      rows: [{ ownerId: 'erin', targetId: 'g1', data: null }],
    });
    expect(await c.find(ref('erin'))).toMatchObject({ lastTs: 400, data: '{"name":"Renamed"}' });
    expect((await c.list('app', 'carol', 10)).map((r) => [r.targetId, r.lastTs])).toEqual([
      ['g1', 400],
      ['dave', 250],
    ]);
  });

  it('IM-20: a new member gets a row for the joined groups that have messages, once', async () => {
    const { store } = await fresh();
    const c = store.conversations;
    await store.groups.join({ appkey: 'app', userId: 'alice', groupIds: ['g1', 'g2'], now: 1 });
    await store.messages.send({
      message: message({ convKey: 'g:g1', scene: 'group', targetId: 'g1' }),
      now: 100,
      rows: [{ ownerId: 'alice', targetId: 'g1', data: '{"name":"Team"}' }],
      readerId: 'alice',
      stored: () => undefined,
    });
    await store.groups.join({ appkey: 'app', userId: 'zed', groupIds: ['g1', 'g2'], now: 2 });
    const groups = [
      { groupId: 'g1', convKey: 'g:g1' },
      { groupId: 'g2', convKey: 'g:g2' },
    ];
    // g2 has no message: nothing to list yet.
    expect(await c.joined({ appkey: 'app', ownerId: 'zed', groups })).toEqual([
      { groupId: 'g1', convKey: 'g:g1', lastTs: 100 },
    ]);
    expect((await c.list('app', 'zed', 10)).map((r) => [r.targetId, r.lastTs, r.data])).toEqual([
      ['g1', 100, '{"name":"Team"}'],
    ]);
    // A row already there (alice's, or zed's now) is left as it is.
    expect(await c.joined({ appkey: 'app', ownerId: 'zed', groups })).toEqual([]);
    expect(await c.joined({ appkey: 'app', ownerId: 'alice', groups })).toEqual([]);
    expect(await c.joined({ appkey: 'app', ownerId: 'zed', groups: [] })).toEqual([]);
  });

  it('IM-15: send calls `stored` once the rows and the reader offset are written too', async () => {
    const { store } = await fresh();
    let seen: Promise<unknown[]> | undefined;
    await store.messages.send({
      message: message(),
      now: 100,
      rows: [{ ownerId: 'bob', targetId: 'alice', data: null }],
      readerId: 'alice',
      // What a client that hears of the message and asks at once would find.
      stored: () => {
        seen = Promise.all([
          store.conversations.list('app', 'bob', 10),
          store.messages.readOffsets('app', 'c1', ['alice']),
        ]);
      },
    });
    const [listed, offsets] = (await seen) as [Array<{ lastTs: number }>, unknown[]];
    expect(listed.map((r) => r.lastTs)).toEqual([100]);
    expect(offsets).toEqual([{ userId: 'alice', offset: 100 }]);
  });

  it('IM-8: pages newest-limited, oldest first, exclusive, without what the viewer deleted', async () => {
    const { store } = await fresh();
    for (let n = 1; n <= 6; n += 1) await store.messages.append(message({ messageId: `m${n}` }), n * 10);
    const page = (before: number | undefined, limit: number, viewerId = 'bob') =>
      store.messages.page({ appkey: 'app', convKey: 'c1', viewerId, before, limit }).then((l) => l.map((m) => m.ts));
    expect(await page(undefined, 3)).toEqual([40, 50, 60]);
    expect(await page(40, 2)).toEqual([20, 30]);
    expect(await page(10, 5)).toEqual([]);
    await store.messages.deleteFor({ appkey: 'app', userId: 'bob', convKey: 'c1', times: [50, 50, 20] });
    await store.messages.deleteFor({ appkey: 'app', userId: 'bob', convKey: 'c1', times: [50] });
    expect(await page(undefined, 3)).toEqual([30, 40, 60]);
    expect(await page(undefined, 3, 'alice')).toEqual([40, 50, 60]);
    expect(await store.messages.deletedTimes({ appkey: 'app', userId: 'bob', convKey: 'c1', min: 30 })).toEqual([50]);
    expect((await store.messages.findByTimes('app', 'c1', [60, 10, 999])).map((m) => m.messageId)).toEqual([
      'm1',
      'm6',
    ]);
  });

  it('IM-13: recalls once, and lists recalled messages', async () => {
    const { store } = await fresh();
    for (let n = 1; n <= 3; n += 1) await store.messages.append(message({ messageId: `m${n}` }), n);
    const recaller = '{"id":"alice","data":{}}';
    expect(await store.messages.recall({ appkey: 'app', convKey: 'c1', times: [3, 1], recaller })).toEqual([1, 3]);
    expect(await store.messages.recall({ appkey: 'app', convKey: 'c1', times: [1, 2], recaller })).toEqual([2]);
    const recalled = await store.messages.recalledSince('app', 'c1', 2);
    expect(recalled.map((m) => [m.ts, m.recalled, m.recaller])).toEqual([
      [2, true, recaller],
      [3, true, recaller],
    ]);
  });

  it('IM-11: read offsets only move forward, and unread counts others, unrecalled, undeleted messages', async () => {
    const { store } = await fresh();
    await store.messages.append(message({ messageId: 'a', senderId: 'bob' }), 10);
    await store.messages.append(message({ messageId: 'b', senderId: 'bob' }), 20);
    await store.messages.append(message({ messageId: 'c', senderId: 'alice' }), 30);
    await store.messages.append(message({ messageId: 'd', senderId: 'bob' }), 40);
    await store.messages.append(message({ messageId: 'e', senderId: 'bob' }), 50);
    const raise = (ts: number) => store.messages.raiseReadOffset({ appkey: 'app', convKey: 'c1', userId: 'alice', ts });
    expect(await raise(15)).toBe(15);
    expect(await raise(5)).toBe(15);
    expect(await store.messages.readOffsets('app', 'c1', ['bob', 'alice'])).toEqual([{ userId: 'alice', offset: 15 }]);
    const unread = () => store.messages.countUnread({ appkey: 'app', convKey: 'c1', userId: 'alice', after: 15 });
    expect(await unread()).toBe(3);
    await store.messages.recall({ appkey: 'app', convKey: 'c1', times: [40], recaller: '{}' });
    await store.messages.deleteFor({ appkey: 'app', userId: 'alice', convKey: 'c1', times: [20] });
    expect(await unread()).toBe(1);
    // Up to a given message only (the list's last one): e at 50 is left out.
    const through = (ts: number) =>
      store.messages.countUnread({ appkey: 'app', convKey: 'c1', userId: 'alice', after: 0, through: ts });
    expect([await through(40), await through(49), await through(50)]).toEqual([1, 1, 2]);
  });

  it('IM-16: conversation rows: touch, list order, top, remove, kept data', async () => {
    const { store } = await fresh();
    const c = store.conversations;
    await store.groups.join({ appkey: 'app', userId: 'alice', groupIds: ['g1'], now: 1 });
    await c.touch({
      appkey: 'app',
      scene: 'private',
      convKey: 'p1',
      lastTs: 100,
      rows: [
        { ownerId: 'alice', targetId: 'bob', data: '{"n":"Bob"}' },
        { ownerId: 'bob', targetId: 'alice', data: null },
      ],
    });
    await c.touch({
      appkey: 'app',
      scene: 'group',
      convKey: 'g1',
      lastTs: 200,
      rows: [{ ownerId: 'alice', targetId: 'g1', data: null }],
    });
    expect((await c.list('app', 'alice', 10)).map((r) => r.targetId)).toEqual(['g1', 'bob']);
    expect(await c.find({ appkey: 'app', ownerId: 'bob', scene: 'private', targetId: 'alice' })).toEqual({
      ownerId: 'bob',
      scene: 'private',
      targetId: 'alice',
      convKey: 'p1',
      top: false,
      removed: false,
      data: '{}',
      lastTs: 100,
    });
    const ref = { appkey: 'app', ownerId: 'alice', scene: 'private', targetId: 'bob' };
    expect(await c.setTop({ ...ref, top: true })).toBe(true);
    expect(await c.setTop({ ...ref, targetId: 'nobody', top: true })).toBe(false);
    expect((await c.list('app', 'alice', 10)).map((r) => [r.targetId, r.top])).toEqual([
      ['bob', true],
      ['g1', false],
    ]);
    expect(await c.remove(ref)).toBe(true);
    expect(await c.remove({ ...ref, targetId: 'nobody' })).toBe(false);
    expect((await c.list('app', 'alice', 10)).map((r) => r.targetId)).toEqual(['g1']);
    // A later message shows it again, unpinned (IM-18); an older one does not move lastTs back; null data keeps the
    // data.
    await c.touch({
      appkey: 'app',
      scene: 'private',
      convKey: 'p1',
      lastTs: 50,
      rows: [{ ownerId: 'alice', targetId: 'bob', data: null }],
    });
    expect(await c.find(ref)).toMatchObject({ removed: false, lastTs: 100, data: '{"n":"Bob"}', top: false });
    expect(await c.list('app', 'alice', 1)).toHaveLength(1);
    // IM-9: a group's row is listed to members only; it stays, for when its owner joins again.
    expect(await store.groups.leave({ appkey: 'app', userId: 'alice', groupId: 'g1' })).toBe(true);
    expect((await c.list('app', 'alice', 10)).map((r) => r.targetId)).toEqual(['bob']);
    await store.groups.join({ appkey: 'app', userId: 'alice', groupIds: ['g1'], now: 2 });
    expect((await c.list('app', 'alice', 10)).map((r) => r.targetId)).toEqual(['g1', 'bob']);
  });

  it('IM-20: group membership', async () => {
    const { store } = await fresh();
    const g = store.groups;
    expect(await g.join({ appkey: 'app', userId: 'alice', groupIds: ['g1', 'g2'], now: 1 })).toEqual(['g1', 'g2']);
    expect(await g.join({ appkey: 'app', userId: 'alice', groupIds: ['g2', 'g3'], now: 2 })).toEqual(['g3']);
    // Read before a join and after it: the newcomer is there (a store that keeps members in memory forgets them).
    expect(await g.members('app', 'g1')).toEqual(['alice']);
    expect(await g.join({ appkey: 'app', userId: 'bob', groupIds: ['g1'], now: 3 })).toEqual(['g1']);
    expect(await g.join({ appkey: 'app', userId: 'bob', groupIds: [], now: 3 })).toEqual([]);
    expect(await g.members('app', 'g1')).toEqual(['alice', 'bob']);
    expect(await g.groupsOf('app', 'alice')).toEqual(['g1', 'g2', 'g3']);
    expect(await g.isMember('app', 'g1', 'bob')).toBe(true);
    expect(await g.isMember('other', 'g1', 'bob')).toBe(false);
    expect(await g.leave({ appkey: 'app', userId: 'bob', groupId: 'g1' })).toBe(true);
    expect(await g.leave({ appkey: 'app', userId: 'bob', groupId: 'g1' })).toBe(false);
    expect(await g.members('app', 'g1')).toEqual(['alice']);
  });

  it('IM-1, PRES-2: users and presence subscriptions', async () => {
    const { store } = await fresh();
    await store.users.upsert({ appkey: 'app', userId: 'alice', data: '{"v":1}', now: 1 });
    await store.users.upsert({ appkey: 'app', userId: 'alice', data: '{"v":2}', now: 2 });
    expect(await store.users.find('app', ['alice', 'ghost'])).toEqual([{ userId: 'alice', data: '{"v":2}' }]);
    expect(await store.users.find('other', ['alice'])).toEqual([]);
    const p = store.presenceSubscriptions;
    await p.subscribeUsers({ appkey: 'app', subscriberId: 'carol', userIds: ['alice', 'bob'] });
    await p.subscribeUsers({ appkey: 'app', subscriberId: 'dave', userIds: ['alice'] });
    await p.subscribeUsers({ appkey: 'app', subscriberId: 'dave', userIds: ['alice'] });
    expect((await p.userSubscribers('app', 'alice')).sort()).toEqual(['carol', 'dave']);
    await p.unsubscribeUser({ appkey: 'app', subscriberId: 'carol', userId: 'alice' });
    expect(await p.userSubscribers('app', 'alice')).toEqual(['dave']);
    // PRES-7: what one subscriber watches, per app.
    expect(await p.watchedUsers('app', 'carol')).toEqual(['bob']);
    expect(await p.watchedUsers('other', 'carol')).toEqual([]);
    await p.subscribeGroups({ appkey: 'app', subscriberId: 'carol', groupIds: ['g1'] });
    expect(await p.groupSubscribers('app', 'g1')).toEqual(['carol']);
    await p.subscribeGroups({ appkey: 'app', subscriberId: 'carol', groupIds: ['g2', 'g1'] });
    expect((await p.watchedGroups('app', 'carol')).sort()).toEqual(['g1', 'g2']);
    expect(await p.watchedGroups('app', 'dave')).toEqual([]);
    await p.unsubscribeGroup({ appkey: 'app', subscriberId: 'carol', groupId: 'g2' });
    await p.unsubscribeGroup({ appkey: 'app', subscriberId: 'carol', groupId: 'g1' });
    await p.unsubscribeGroup({ appkey: 'app', subscriberId: 'carol', groupId: 'g1' });
    expect(await p.groupSubscribers('app', 'g1')).toEqual([]);
  });
}
