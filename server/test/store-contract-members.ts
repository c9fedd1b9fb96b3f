/**
 * The store contract for product members' SMS codes; registered by `describeStoreContract` so that it runs on SQLite
 * and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import { createMemberService } from '../src/members/service.js';
import { createDevSmsProvider } from '../src/members/sms.js';
import { NO_DETAILS, type AdRecord, type MemberCodeQuota, type MemberDetails, type Store } from '../src/store/index.js';
import { market, place } from './store-contract-orders.js';

/** Registers the members part of the contract; `fresh` opens a fresh store that is closed after the test. */
/** A member as sign-up makes them, with `changes`. */
/** Members m1 and m2, and m1's article a1, which the report tests report. */
async function reportedArticle(store: Store): Promise<void> {
  await store.members.insert(newMember('m1', '13300133000'));
  await store.members.insert(newMember('m2', '13300133001'));
  await store.articles.add(
    { id: 'a1', memberId: 'm1', title: 'Title', content: 'text', images: [], channelId: null, createdAt: 10 },
    { since: 0, max: 10 },
  );
}

const newMember = (id: string, phone: string, changes: { createdAt?: number } = {}) => ({
  id,
  phone,
  username: `user${phone.slice(-4)}`,
  img: '',
  notifyBadge: 0,
  createdAt: 0,
  usernameChangedAt: null,
  ...changes,
});

/** Members m1, m2 and m3, as sign-up makes them. */
async function threeMembers(store: Store): Promise<void> {
  for (const [i, id] of ['m1', 'm2', 'm3'].entries()) await store.members.insert(newMember(id, `1330013300${i}`));
}

export function describeMemberStoreContract(fresh: () => Promise<{ store: Store }>): void {
  const quota: MemberCodeQuota = { resendMs: 60, windowMs: 1_000, maxSends: 3 };

  it('MEM-2: putCode keeps the resend gap and the quota per window, in one statement', async () => {
    const { store } = await fresh();
    const put = (code: string, now: number, phone = 'p1') => store.members.putCode({ phone, code, now, quota });
    expect(await put('111111', 100)).toBe(true);
    expect(await put('222222', 159)).toBe(false);
    expect(await store.members.attemptCode('p1', 5)).toEqual({ code: '111111', sentAt: 100 });
    expect(await put('333333', 160)).toBe(true);
    expect(await put('444444', 220)).toBe(true);
    // The window began at 100 and has had its three sends.
    expect(await put('555555', 1_099)).toBe(false);
    expect(await put('555555', 1_099, 'p2')).toBe(true);
    expect(await store.members.attemptCode('p1', 5)).toEqual({ code: '444444', sentAt: 220 });
    expect(await put('666666', 1_100)).toBe(true);
    expect(await store.members.attemptCode('p1', 5)).toEqual({ code: '666666', sentAt: 1_100 });
    // Parallel sends after the gap: one of them is stored.
    const parallel = await Promise.all(['7', '8', '9', '0'].map((d) => put(d.repeat(6), 1_200)));
    expect(parallel.filter(Boolean)).toHaveLength(1);
  });

  it('MEM-1: attemptCode hands out a code as many times as allowed, even to parallel callers', async () => {
    const { store } = await fresh();
    expect(await store.members.attemptCode('p1', 5)).toBeUndefined();
    await store.members.putCode({ phone: 'p1', code: '123456', now: 100, quota });
    const attempts = await Promise.all(Array.from({ length: 12 }, () => store.members.attemptCode('p1', 5)));
    expect(attempts.filter((a) => a !== undefined)).toHaveLength(5);
    expect(await store.members.attemptCode('p1', 5)).toBeUndefined();
    // A new code brings new attempts.
    await store.members.putCode({ phone: 'p1', code: '654321', now: 200, quota });
    expect(await store.members.attemptCode('p1', 5)).toEqual({ code: '654321', sentAt: 200 });
  });

  it('MEM-1: consumeCode uses a code up once', async () => {
    const { store } = await fresh();
    await store.members.putCode({ phone: 'p1', code: '123456', now: 100, quota });
    expect(await store.members.consumeCode('p1', '000000')).toBe(false);
    const both = await Promise.all([1, 2].map(() => store.members.consumeCode('p1', '123456')));
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await store.members.attemptCode('p1', 5)).toEqual({ code: '', sentAt: 100 });
  });

  it('MEM-5: updateProfile renames only when the last rename is old enough, even for parallel callers', async () => {
    const { store } = await fresh();
    const member = { id: 'm1', phone: '13800138000', username: 'user8000', img: '', notifyBadge: 0, createdAt: 0 };
    await store.members.insert({ ...member, usernameChangedAt: null });
    // The sign-up nickname counts as no rename.
    expect(await store.members.updateProfile('m1', { username: 'first', now: 1_000, renamedBefore: 0 })).toBe(true);
    const tries = await Promise.all(
      ['a', 'b', 'c', 'd'].map((username) =>
        store.members.updateProfile('m1', { username, now: 5_000, renamedBefore: 1_000 }),
      ),
    );
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect((await store.members.byId('m1'))?.usernameChangedAt).toBe(5_000);
    // Too soon: nothing changes, not even the avatar sent with it.
    expect(
      await store.members.updateProfile('m1', { username: 'late', img: 'x.png', now: 6_000, renamedBefore: 4_999 }),
    ).toBe(false);
    expect(await store.members.byId('m1')).toMatchObject({ img: '', usernameChangedAt: 5_000 });
    // An avatar alone is not a rename.
    expect(await store.members.updateProfile('m1', { img: 'y.png', now: 6_000, renamedBefore: 4_999 })).toBe(true);
    expect(await store.members.byId('m1')).toMatchObject({ img: 'y.png' });
  });

  it('MEM-5: the member service answers nickname_too_soon to the parallel renames its store refused', async () => {
    const { store } = await fresh();
    const members = createMemberService({
      members: store.members,
      sms: createDevSmsProvider(silentLogger()),
      now: () => 0,
    });
    await store.members.insert(newMember('m1', '13800138000'));
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((username) => members.updateProfile('m1', { username })),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok && answer.failure === 'nickname_too_soon')).toHaveLength(3);
  });

  it('MEM-6: feedback is counted per member in its window, even sent in parallel, and listed newest first', async () => {
    const { store } = await fresh();
    for (const id of ['m1', 'm2']) {
      await store.members.insert(newMember(id, `1380013800${id.slice(1)}`));
    }
    const feedback = (id: string, memberId: string, createdAt: number) => ({
      id,
      memberId,
      phone: '13800138000',
      content: `about ${id}`,
      images: [`https://files.test/${id}.png`],
      createdAt,
    });
    const quota = { since: 0, max: 3 };
    const parallel = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.feedback.add(feedback(`f${i}`, 'm1', 100 + i), quota)),
    );
    expect(parallel.filter(Boolean)).toHaveLength(3);
    // Another member has a quota of their own; an older window does not count.
    expect(await store.feedback.add(feedback('g1', 'm2', 200), quota)).toBe(true);
    expect(await store.feedback.add(feedback('late', 'm1', 1_000), { since: 500, max: 3 })).toBe(true);

    const mine = (await store.feedback.list('m1', { limit: 10 })) ?? [];
    expect(mine.map((f) => f.id)[0]).toBe('late');
    expect(mine).toHaveLength(4);
    expect(mine[0]).toEqual(feedback('late', 'm1', 1_000));
    expect(mine.map((f) => f.createdAt)).toEqual([...mine.map((f) => f.createdAt)].sort((a, b) => b - a));
    const second = mine[1]?.id ?? '';
    expect((await store.feedback.list('m1', { before: second, limit: 10 }))?.map((f) => f.id)).toEqual(
      mine.slice(2).map((f) => f.id),
    );
    expect(await store.feedback.list('m1', { before: 'g1', limit: 10 })).toBeUndefined();
    expect((await store.feedback.list('m2', { limit: 10 }))?.map((f) => f.id)).toEqual(['g1']);
  });

  it('MEM-7: cancel keeps the id and drops the phone, profile, tokens, feedback and code, once', async () => {
    const { store } = await fresh();
    const phone = '13800138000';
    await store.members.insert({
      id: 'm1',
      phone,
      username: 'Alice',
      img: 'https://files.test/a.png',
      notifyBadge: 0,
      createdAt: 0,
      usernameChangedAt: null,
    });
    const details = { gender: 'female', birthday: '1990-05-01', region: 'Hangzhou', intro: 'hi', background: 'b.png' };
    expect(await store.members.updateProfile('m1', { details: details as MemberDetails, now: 50 })).toBe(true);
    expect(await store.members.byId('m1')).toMatchObject(details);
    await store.members.addToken({ token: 't1', memberId: 'm1', expiresAt: 10_000 });
    await store.members.addToken({ token: 't2', memberId: 'm1', expiresAt: 10_000 });
    await store.members.putCode({ phone, code: '123456', now: 100, quota });
    const feedback = { id: 'f1', memberId: 'm1', phone, content: 'hi', images: [], createdAt: 100 };
    expect(await store.feedback.add(feedback, { since: 0, max: 10 })).toBe(true);
    await store.hidden.set('m1', 'article', 'a1', true, 100, 10);

    const tries = await Promise.all([1, 2, 3].map(() => store.members.cancel('m1', { reason: 'moving', now: 500 })));
    expect(await store.hidden.hidden('m1', 'article', ['a1'])).toEqual(new Set());
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect(await store.members.cancel('m1', { reason: 'again', now: 600 })).toBe(false);
    expect(await store.members.cancel('nobody', { reason: 'x', now: 600 })).toBe(false);

    expect(await store.members.byId('m1')).toEqual({
      id: 'm1',
      phone: 'cancelled:m1',
      username: '',
      img: '',
      notifyBadge: 0,
      createdAt: 0,
      usernameChangedAt: null,
      ...NO_DETAILS,
      cancelledAt: 500,
    });
    expect(await store.members.byPhone(phone)).toBeUndefined();
    expect(await store.members.byToken('t1', 0)).toBeUndefined();
    expect(await store.members.byToken('t2', 0)).toBeUndefined();
    expect(await store.members.attemptCode(phone, 5)).toBeUndefined();
    expect(await store.feedback.list('m1', { limit: 10 })).toEqual([]);
    // A login that found the member before the cancel and adds its token after it gets no session.
    await store.members.addToken({ token: 't3', memberId: 'm1', expiresAt: 10_000 });
    expect(await store.members.byToken('t3', 0)).toBeUndefined();
    // The phone can sign up again, as a new member.
    await store.members.insert(newMember('m2', phone, { createdAt: 700 }));
    expect((await store.members.byPhone(phone))?.id).toBe('m2');
  });

  it('MEM-7: cancel leaves the texts that named the member’s files to delete, with those kept, until done', async () => {
    const { store } = await fresh();
    await store.members.insert({ ...newMember('m1', '13800138001'), img: 'https://f.test/avatar.png' });
    await store.members.insert(newMember('m2', '13800138002'));
    await store.members.insert(newMember('m3', '13800138003'));
    const details = { ...NO_DETAILS, background: 'https://f.test/bg.png' };
    await store.members.updateProfile('m1', { details, now: 10 });
    const shots = ['https://f.test/s1.png', 'https://f.test/s2.png'];
    await store.feedback.add(
      { id: 'f1', memberId: 'm1', phone: 'p', content: 'c', images: shots, createdAt: 20 },
      {
        since: 0,
        max: 10,
      },
    );
    const ids = ['https://f.test/id1.png', 'https://f.test/id2.png'];
    await store.certifications.submit({
      memberId: 'm1',
      type: 'personal',
      name: 'W',
      number: 'x',
      images: ids,
      submittedAt: 30,
    });
    const rules = { daily: 150, streakDays: 7, streakBonus: 0 };
    await store.tasks.signIn('m1', { day: '2026-01-01', yesterday: '2025-12-31', now: 40, rules });
    await store.withdrawals.bind('m1', { wechatCode: 'https://f.test/code.png' }, 50);
    const paidTo = { method: 'wechat' as const, accountName: 'W', account: 'https://f.test/code.png' };
    await store.withdrawals.request({ id: 'w1', memberId: 'm1', amount: 1, coins: 100, ...paidTo, createdAt: 60 });
    // Another member's file names nothing of theirs.
    await store.members.updateProfile('m2', { img: 'https://f.test/other.png', now: 70 });

    expect(await store.uploadDeletions.pending(10)).toEqual([]);
    expect(await store.members.cancel('m1', { reason: 'privacy', now: 100 })).toBe(true);
    // Nothing of theirs names a file: nothing waits.
    expect(await store.members.cancel('m3', { reason: 'privacy', now: 110 })).toBe(true);
    const [waiting, ...more] = await store.uploadDeletions.pending(10);
    expect(more).toEqual([]);
    expect(waiting).toMatchObject({ memberId: 'm1', kept: ['https://f.test/code.png'], createdAt: 100 });
    const named = waiting?.refs.join('\n') ?? '';
    for (const url of ['avatar.png', 'bg.png', 's1.png', 's2.png', 'id1.png', 'id2.png', 'code.png']) {
      expect(named, url).toContain(`https://f.test/${url}`);
    }
    expect(named).not.toContain('other.png');
    await store.uploadDeletions.done('m1');
    expect(await store.uploadDeletions.pending(10)).toEqual([]);
  });

  it('MEM-8: block lists: set, has, between, paged newest first, bounded even for blocks sent at once', async () => {
    const { store } = await fresh();
    for (const id of ['m1', 'm2']) {
      await store.members.insert(newMember(id, `1380013800${id.slice(1)}`));
    }
    const set = (blocked: string, on: boolean, now = 100, max = 3) => store.blocks.set('m1', blocked, on, { now, max });
    const tries = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => set(id, true, 100 + i)));
    expect(tries.filter(Boolean)).toHaveLength(3);
    const listed = (await store.blocks.list('m1', { limit: 10 })) ?? [];
    expect(listed).toHaveLength(3);
    expect(listed.map((b) => b.createdAt)).toEqual([...listed.map((b) => b.createdAt)].sort((x, y) => y - x));
    const [first, second] = listed;
    // Blocking again keeps the first time and counts once; the list is full for anyone new.
    expect(await set(first?.blockedId ?? '', true, 900)).toBe(true);
    expect((await store.blocks.list('m1', { limit: 1 }))?.[0]).toEqual(first);
    expect(await set('g', true)).toBe(false);
    expect(await store.blocks.list('m1', { before: first?.blockedId, limit: 10 })).toEqual(listed.slice(1));
    expect(await store.blocks.list('m1', { before: 'nobody', limit: 10 })).toBeUndefined();

    expect(await store.blocks.has('m1', second?.blockedId ?? '')).toBe(true);
    expect(await store.blocks.between(second?.blockedId ?? '', 'm1')).toBe(true);
    expect(await store.blocks.between('m1', 'm2')).toBe(false);
    expect(await set(second?.blockedId ?? '', false)).toBe(true);
    expect(await store.blocks.has('m1', second?.blockedId ?? '')).toBe(false);
    expect(await store.blocks.between('m1', second?.blockedId ?? '')).toBe(false);

    // A cancelled member's list goes with the account.
    expect(await store.members.cancel('m1', { reason: 'x', now: 1_000 })).toBe(true);
    expect(await store.blocks.list('m1', { limit: 10 })).toEqual([]);
  });

  it('MEM-9: addresses keep one default through adds, changes and removals, and a bound even for adds at once', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13800138000'));
    const fields = { name: 'Li Lei', phone: '13800138000', region: 'Zhejiang Hangzhou', detail: 'West Lake Road 1' };
    const add = (id: string, at: number, makeDefault = false, max = 3) =>
      store.addresses.add({ ...fields, id, memberId: 'm1', updatedAt: at }, { makeDefault, max });
    const defaults = async () => (await store.addresses.list('m1')).filter((a) => a.isDefault).map((a) => a.id);

    // The first is the default; later ones are not, unless asked.
    expect(await add('a', 1)).toBe(true);
    expect(await add('b', 2)).toBe(true);
    expect(await defaults()).toEqual(['a']);
    expect((await store.addresses.list('m1')).map((a) => a.id)).toEqual(['a', 'b']);
    expect(await add('c', 3, true)).toBe(true);
    expect(await defaults()).toEqual(['c']);
    expect(await add('d', 4)).toBe(false);

    expect(await store.addresses.update('m1', 'b', { makeDefault: true, now: 5 })).toBe(true);
    expect(await defaults()).toEqual(['b']);
    const changed = { ...fields, detail: 'West Lake Road 2' };
    expect(await store.addresses.update('m1', 'a', { fields: changed, makeDefault: false, now: 6 })).toBe(true);
    expect((await store.addresses.list('m1')).map((a) => [a.id, a.detail])).toEqual([
      ['b', 'West Lake Road 1'],
      ['a', 'West Lake Road 2'],
      ['c', 'West Lake Road 1'],
    ]);
    expect(await store.addresses.update('m2', 'a', { makeDefault: true, now: 7 })).toBe(false);
    expect(await store.addresses.remove('m2', 'a')).toBe(false);

    // Removing the default hands it to the most recently changed.
    expect(await store.addresses.remove('m1', 'b')).toBe(true);
    expect(await defaults()).toEqual(['a']);
    expect(await store.addresses.remove('m1', 'b')).toBe(false);

    // Adds sent at once stay within the bound.
    const tries = await Promise.all(['e', 'f', 'g', 'h'].map((id, i) => add(id, 10 + i, false, 4)));
    expect(tries.filter(Boolean)).toHaveLength(2);
    expect(await defaults()).toHaveLength(1);

    expect(await store.members.cancel('m1', { reason: 'x', now: 100 })).toBe(true);
    expect(await store.addresses.list('m1')).toEqual([]);
  });

  it('MEM-10: follows: both sides paged newest first, bounded even for follows sent at once, ended by blocks', async () => {
    const { store } = await fresh();
    const ids = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
    for (const [i, id] of ids.entries()) await store.members.insert(newMember(id, `1380013800${i}`));
    const set = (from: string, to: string, on: boolean, now = 100, max = 3) =>
      store.follows.set(from, to, on, { now, max });

    // Follows sent at once stay within the bound; following again keeps the first time and counts once.
    const tries = await Promise.all(['m2', 'm3', 'm4', 'm5', 'm6'].map((to, i) => set('m1', to, true, 100 + i)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(3);
    expect(tries.filter((t) => t === 'limit')).toHaveLength(2);
    const follows = (await store.follows.list('m1', { side: 'follows', limit: 10 })) ?? [];
    expect(follows).toHaveLength(3);
    expect(follows.map((f) => f.createdAt)).toEqual([...follows.map((f) => f.createdAt)].sort((x, y) => y - x));
    const [first] = follows;
    expect(await set('m1', first?.memberId ?? '', true, 900)).toBe('ok');
    expect((await store.follows.list('m1', { side: 'follows', limit: 1 }))?.[0]).toEqual(first);
    expect(await store.follows.list('m1', { side: 'follows', before: first?.memberId, limit: 10 })).toEqual(
      follows.slice(1),
    );
    expect(await store.follows.list('m1', { side: 'follows', before: 'nobody', limit: 10 })).toBeUndefined();
    expect(await store.follows.counts('m1')).toEqual({ follows: 3, fans: 0 });

    // The other side: fans, newest first, with the same paging.
    expect(await set('m3', 'm2', true, 200)).toBe('ok');
    expect(await set('m7', 'm2', true, 200)).toBe('ok');
    const fans = await store.follows.list('m2', { side: 'fans', limit: 10 });
    expect(fans?.slice(0, 2)).toEqual([
      { memberId: 'm7', createdAt: 200 },
      { memberId: 'm3', createdAt: 200 },
    ]);
    expect(await store.follows.list('m2', { side: 'fans', before: 'm7', limit: 1 })).toEqual([
      { memberId: 'm3', createdAt: 200 },
    ]);
    expect(await store.follows.following('m3', ['m2', 'm1', 'm9'])).toEqual(new Set(['m2']));
    expect(await store.follows.following('m3', [])).toEqual(new Set());

    // No following oneself past a block, either way, nor anyone who does not exist or has cancelled.
    expect(await store.blocks.set('m2', 'm3', true, { now: 300, max: 10 })).toBe(true);
    expect(await store.follows.list('m3', { side: 'follows', limit: 10 })).toEqual([]);
    expect(await set('m3', 'm2', true)).toBe('unavailable');
    expect(await set('m2', 'm3', true)).toBe('unavailable');
    expect(await set('m5', 'nobody', true)).toBe('unavailable');
    expect(await store.members.cancel('m7', { reason: 'x', now: 400 })).toBe(true);
    expect(await set('m5', 'm7', true)).toBe('unavailable');
    expect(await store.follows.list('m2', { side: 'fans', limit: 10 })).toEqual(
      (fans ?? []).filter((f) => f.memberId !== 'm3' && f.memberId !== 'm7'),
    );
    // Unfollowing always goes through.
    expect(await set('m1', first?.memberId ?? '', false)).toBe('ok');
    expect((await store.follows.counts('m1')).follows).toBe(2);
  });

  it('MEM-10: a follow and a block between the same two, at once, leave no follow behind', async () => {
    const { store } = await fresh();
    for (const [i, id] of ['m1', 'm2'].entries()) await store.members.insert(newMember(id, `1390013900${i}`));
    for (let round = 0; round < 50; round += 1) {
      await store.blocks.set('m2', 'm1', false, { now: round, max: 10 });
      const [followed] = await Promise.all([
        store.follows.set('m1', 'm2', true, { now: round, max: 10 }),
        store.blocks.set('m2', 'm1', true, { now: round, max: 10 }),
      ]);
      expect(['ok', 'unavailable']).toContain(followed);
      expect(await store.follows.counts('m2')).toEqual({ follows: 0, fans: 0 });
    }
  });

  it('real-name certification: one submission at a time, replaced once failed, reviewed only as submitted', async () => {
    const { store } = await fresh();
    for (const [i, id] of ['m1', 'm2', 'm3'].entries()) await store.members.insert(newMember(id, `1370013700${i}`));
    const submission = (memberId: string, submittedAt: number) => ({
      memberId,
      type: 'personal' as const,
      name: 'Wang',
      number: '11010519491231002X',
      images: ['a.png', 'b.png'],
      submittedAt,
    });
    // Submissions at once store one; the others find it under review.
    const tries = await Promise.all([1, 2, 3, 4, 5].map(() => store.certifications.submit(submission('m1', 100))));
    expect(tries.sort()).toEqual(['ok', 'pending', 'pending', 'pending', 'pending']);
    expect(await store.certifications.byMember('m1')).toEqual({
      ...submission('m1', 100),
      status: 'pending',
      reason: '',
    });
    expect(await store.certifications.submit(submission('nobody', 100))).toBe('missing');

    // A review lands only on the submission it names, while under review.
    const fail = { pass: false, reason: 'blurred', now: 200 };
    expect(await store.certifications.review('m1', { ...fail, submittedAt: 99 })).toBeUndefined();
    expect(await store.certifications.review('m1', { ...fail, submittedAt: 100 })).toMatchObject({
      status: 'failed',
      reason: 'blurred',
      reviewedAt: 200,
    });
    expect(await store.certifications.review('m1', { ...fail, submittedAt: 100 })).toBeUndefined();
    // Once failed, a new submission replaces it; once passed, none does.
    expect(await store.certifications.submit(submission('m1', 300))).toBe('ok');
    expect(await store.certifications.byMember('m1')).toEqual({
      ...submission('m1', 300),
      status: 'pending',
      reason: '',
    });
    expect(
      await store.certifications.review('m1', { pass: true, reason: '', submittedAt: 300, now: 400 }),
    ).toMatchObject({
      status: 'passed',
    });
    expect(await store.certifications.submit(submission('m1', 500))).toBe('passed');

    // The queue: oldest first, paged after a member id.
    await store.certifications.submit(submission('m3', 600));
    await store.certifications.submit(submission('m2', 600));
    const queue = await store.certifications.list({ status: 'pending', limit: 10 });
    expect(queue?.map((c) => c.memberId)).toEqual(['m2', 'm3']);
    expect(await store.certifications.list({ status: 'pending', after: 'm2', limit: 10 })).toEqual(queue?.slice(1));
    expect(await store.certifications.list({ status: 'pending', after: 'm1', limit: 10 })).toBeUndefined();
    expect((await store.certifications.list({ status: 'passed', limit: 10 }))?.map((c) => c.memberId)).toEqual(['m1']);

    expect(await store.members.cancel('m2', { reason: 'x', now: 700 })).toBe(true);
    expect(await store.certifications.byMember('m2')).toBeUndefined();
  });

  it('notifications: raised again by their key, paged newest first, read one or all, settings kept', async () => {
    const { store } = await fresh();
    for (const [i, id] of ['m1', 'm2', 'm3'].entries()) await store.members.insert(newMember(id, `1360013600${i}`));
    const put = (id: string, key: string, actorId: string, createdAt: number) =>
      store.notices.put({
        id,
        memberId: 'm1',
        kind: 'follow',
        dedupeKey: key,
        actorId,
        data: { n: createdAt },
        createdAt,
      });
    await put('a', 'follow:m2', 'm2', 100);
    await put('b', 'follow:m3', 'm3', 200);
    expect(await store.notices.unread('m1')).toBe(2);
    await store.notices.markRead('m1', { id: 'a', now: 300 });
    expect(await store.notices.unread('m1')).toBe(1);
    await store.notices.markRead('m1', { now: 300 });
    expect(await store.notices.unread('m1')).toBe(0);
    // The same key raises the one it raised before: new time and data, unread, the first id kept.
    await put('c', 'follow:m2', 'm2', 400);
    const listed = await store.notices.list('m1', { limit: 10 });
    expect(listed).toEqual([
      { id: 'a', memberId: 'm1', kind: 'follow', actorId: 'm2', data: { n: 400 }, createdAt: 400 },
      { id: 'b', memberId: 'm1', kind: 'follow', actorId: 'm3', data: { n: 200 }, createdAt: 200, readAt: 300 },
    ]);
    expect(await store.notices.list('m1', { before: 'a', limit: 10 })).toEqual(listed?.slice(1));
    expect(await store.notices.list('m1', { before: 'zzz', limit: 10 })).toBeUndefined();
    expect(await store.notices.list('m2', { limit: 10 })).toEqual([]);
    // Marking another member's notification read changes nothing.
    await store.notices.markRead('m2', { id: 'a', now: 500 });
    expect(await store.notices.unread('m1')).toBe(1);
    // Removing by key: only the member's own, once.
    expect(await store.notices.remove('m2', 'follow:m3')).toBe(false);
    expect(await store.notices.remove('m1', 'follow:m3')).toBe(true);
    expect(await store.notices.remove('m1', 'follow:m3')).toBe(false);
    expect((await store.notices.list('m1', { limit: 10 }))?.map((n) => n.id)).toEqual(['a']);

    expect(await store.notices.off('m1')).toEqual([]);
    await store.notices.setOff('m1', ['follow', 'follow']);
    expect(await store.notices.off('m1')).toEqual(['follow']);
    await store.notices.setOff('m1', []);
    expect(await store.notices.off('m1')).toEqual([]);

    // A cancelled member's notifications go, and so do those they caused.
    await store.notices.setOff('m3', ['follow']);
    expect(await store.members.cancel('m3', { reason: 'x', now: 600 })).toBe(true);
    expect((await store.notices.list('m1', { limit: 10 }))?.map((n) => n.id)).toEqual(['a']);
    expect(await store.notices.off('m3')).toEqual([]);
  });

  it('search: by nickname in any case or by id, newest first, without cancelled or blocked members', async () => {
    const { store } = await fresh();
    const named = [
      ['m1', 'Viewer'],
      ['m2', 'Alice Wang'],
      ['m3', 'alice_li'],
      ['m4', '100% Alice'],
      ['m5', 'Bob'],
      ['m6', 'ALICE'],
    ] as const;
    for (const [i, [id, username]] of named.entries()) {
      await store.members.insert({ ...newMember(id, `1350013500${i}`, { createdAt: i * 10 }), username });
    }
    const ids = async (keyword?: string, before?: string) =>
      (await store.members.search('m1', { keyword, before, limit: 10 }))?.map((m) => m.id);
    expect(await ids('alice')).toEqual(['m6', 'm4', 'm3', 'm2']);
    expect(await ids('ALICE', 'm4')).toEqual(['m3', 'm2']);
    // LIKE's wildcards are the characters themselves.
    expect(await ids('%')).toEqual(['m4']);
    expect(await ids('_')).toEqual(['m3']);
    expect(await ids('m5')).toEqual(['m5']);
    expect(await ids()).toEqual(['m6', 'm5', 'm4', 'm3', 'm2', 'm1']);
    expect(await store.members.search('m1', { before: 'nobody', limit: 10 })).toBeUndefined();

    // Neither side of a block finds the other; cancelled members are found by no one.
    await store.blocks.set('m1', 'm2', true, { now: 1, max: 10 });
    await store.blocks.set('m3', 'm1', true, { now: 1, max: 10 });
    expect(await ids('alice')).toEqual(['m6', 'm4']);
    expect((await store.members.search('m5', { keyword: 'alice', limit: 10 }))?.map((m) => m.id)).toEqual([
      'm6',
      'm4',
      'm3',
      'm2',
    ]);
    expect(await store.members.cancel('m6', { reason: 'x', now: 100 })).toBe(true);
    expect(await ids('alice')).toEqual(['m4']);
  });

  it('task centre: sign-ins at once pay once; streaks count consecutive days; the ledger pages newest first', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    const rules = { daily: 10, streakDays: 3, streakBonus: 50 };
    const sign = (day: string, yesterday: string, now: number) =>
      store.tasks.signIn('m1', { day, yesterday, now, rules });
    const tries = await Promise.all([1, 2, 3, 4].map(() => sign('2026-01-01', '2025-12-31', 100)));
    expect(tries.filter((t) => t !== undefined)).toEqual([
      { day: '2026-01-01', streak: 1, coins: 10, bonus: 0, createdAt: 100 },
    ]);
    expect(await store.tasks.balance('m1')).toBe(10);
    expect(await sign('2026-01-02', '2026-01-01', 200)).toMatchObject({ streak: 2, bonus: 0 });
    expect(await sign('2026-01-03', '2026-01-02', 300)).toMatchObject({ streak: 3, bonus: 50 });
    expect(await sign('2026-01-05', '2026-01-04', 500)).toMatchObject({ streak: 1, bonus: 0 });
    expect(await store.tasks.lastSignIn('m1')).toMatchObject({ day: '2026-01-05', streak: 1 });
    expect(await store.tasks.balance('m1')).toBe(90);
    const ledger = (await store.tasks.coins('m1', { limit: 10 })) ?? [];
    expect(ledger.map((line) => [line.kind, line.amount])).toEqual([
      ['signin', 10],
      ['streak', 50],
      ['signin', 10],
      ['signin', 10],
      ['signin', 10],
    ]);
    expect(await store.tasks.coins('m1', { before: ledger[1]?.id, limit: 2 })).toEqual(ledger.slice(2, 4));
    expect(await store.tasks.coins('m1', { before: 'nope', limit: 2 })).toBeUndefined();
    expect(await store.tasks.balance('m2')).toBe(0);
    expect(await store.members.cancel('m1', { reason: 'x', now: 600 })).toBe(true);
    expect(await store.tasks.balance('m1')).toBe(0);
    expect(await store.tasks.lastSignIn('m1')).toBeUndefined();
  });

  it('withdrawals: one under review at a time, never past the coins, even asked at once; a rejection returns them once', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const rules = { daily: 150, streakDays: 7, streakBonus: 0 };
    await store.tasks.signIn('m1', { day: '2026-01-01', yesterday: '2025-12-31', now: 100, rules });
    expect(await store.withdrawals.accounts('m1')).toBeUndefined();
    expect(await store.withdrawals.bind('m1', { alipayName: '王小明', alipayAccount: 'a@b.cn' }, 110)).toEqual({
      alipayName: '王小明',
      alipayAccount: 'a@b.cn',
      wechatCode: '',
      updatedAt: 110,
    });
    // Binding the other keeps the first.
    expect(await store.withdrawals.bind('m1', { wechatCode: 'https://x/code.png' }, 120)).toMatchObject({
      alipayAccount: 'a@b.cn',
      wechatCode: 'https://x/code.png',
    });
    const ask = (id: string, memberId: string, coins: number, at: number) =>
      store.withdrawals.request({
        id,
        memberId,
        amount: coins / 100,
        coins,
        method: 'alipay',
        accountName: '王小明',
        account: 'a@b.cn',
        createdAt: at,
      });
    expect(await ask('w0', 'm1', 200, 150)).toBe('coins');
    const tries = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((id) => ask(id, 'm1', 100, 200)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'pending')).toHaveLength(3);
    expect(await store.tasks.balance('m1')).toBe(50);
    expect(await ask('w5', 'nobody', 100, 200)).toBe('missing');
    const [first] = (await store.withdrawals.byMember('m1', { limit: 10 })) ?? [];
    expect(first).toMatchObject({ memberId: 'm1', amount: 1, coins: 100, status: 'pending', createdAt: 200 });
    const firstId = first?.id ?? '';
    expect(await store.withdrawals.list({ status: 'pending', limit: 10 })).toEqual([first]);

    // A payment and a rejection at once: one of them lands, and the coins come back at most once.
    const reviews = await Promise.all([
      store.withdrawals.review(firstId, { paid: true, reason: '', now: 300 }),
      store.withdrawals.review(firstId, { paid: false, reason: 'wrong account', now: 300 }),
      store.withdrawals.review(firstId, { paid: false, reason: 'wrong account', now: 300 }),
    ]);
    const landed = reviews.filter((r) => r !== undefined);
    expect(landed).toHaveLength(1);
    expect(await store.tasks.balance('m1')).toBe(landed[0]?.status === 'paid' ? 50 : 150);
    expect(await store.withdrawals.list({ status: 'pending', limit: 10 })).toEqual([]);
    expect(await store.withdrawals.review('nope', { paid: true, reason: '', now: 300 })).toBeUndefined();

    // Pages: newest first for the member, oldest first for the operator.
    await store.tasks.signIn('m1', { day: '2026-01-02', yesterday: '2026-01-01', now: 400, rules });
    expect(await ask('w6', 'm1', 100, 500)).toBe('ok');
    expect(await store.withdrawals.review('w6', { paid: false, reason: 'closed', now: 600 })).toMatchObject({
      status: 'rejected',
      reason: 'closed',
      reviewedAt: 600,
    });
    expect(await ask('w7', 'm1', 100, 700)).toBe('ok');
    await store.withdrawals.review('w7', { paid: false, reason: 'closed', now: 800 });
    const mine = (await store.withdrawals.byMember('m1', { limit: 10 })) ?? [];
    expect(mine.map((w) => w.id)).toEqual(['w7', 'w6', firstId]);
    expect((await store.withdrawals.byMember('m1', { before: 'w7', limit: 1 }))?.map((w) => w.id)).toEqual(['w6']);
    expect(await store.withdrawals.byMember('m2', { before: 'w7', limit: 1 })).toBeUndefined();
    const rejected = (await store.withdrawals.list({ status: 'rejected', limit: 10 })) ?? [];
    expect(rejected.map((w) => w.id).slice(-2)).toEqual(['w6', 'w7']);
    expect((await store.withdrawals.list({ status: 'rejected', after: 'w6', limit: 10 }))?.map((w) => w.id)).toEqual([
      'w7',
    ]);
    expect(await store.withdrawals.list({ status: 'paid', after: 'w6', limit: 10 })).toBeUndefined();
    const kinds = ((await store.tasks.coins('m1', { limit: 3 })) ?? []).map((line) => [line.kind, line.amount]);
    expect(kinds).toEqual([
      ['withdraw_return', 100],
      ['withdraw', -100],
      ['withdraw_return', 100],
    ]);

    // Cancelling drops the bound accounts; the withdrawals stay for the operator's books.
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await store.withdrawals.accounts('m1')).toBeUndefined();
    expect((await store.withdrawals.list({ status: 'rejected', limit: 10 }))?.length).toBe(
      2 + (landed[0]?.status === 'rejected' ? 1 : 0),
    );
  });

  it('wallet: unpaid recharges bounded even asked at once; a payment credits once; cancelled ones can still be paid', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const ask = (id: string, memberId: string, amount: number, at: number) =>
      store.wallet.recharge({ id, memberId, amount, method: 'alipay', createdAt: at }, 2);
    expect(await store.wallet.balance('m1')).toEqual({ balance: 0, unpaid: 0 });
    const tries = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((id, i) => ask(id, 'm1', 1_000, 100 + i)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(2);
    expect(tries.filter((t) => t === 'pending')).toHaveLength(2);
    expect(await ask('r5', 'nobody', 1_000, 100)).toBe('missing');
    expect(await store.wallet.balance('m1')).toEqual({ balance: 0, unpaid: 2_000 });
    const [newer, older] = (await store.wallet.recharges('m1', { limit: 10 })) ?? [];
    expect(older).toMatchObject({ memberId: 'm1', amount: 1_000, method: 'alipay', status: 'unpaid', reason: '' });
    const olderId = older?.id ?? '';
    const newerId = newer?.id ?? '';

    // A payment reported three times at once, with a failure among them: one lands, the money once at most.
    const settled = await Promise.all([
      store.wallet.settle(olderId, { paid: true, reason: '', reference: 'T1', now: 200 }),
      store.wallet.settle(olderId, { paid: true, reason: '', reference: 'T1', now: 200 }),
      store.wallet.settle(olderId, { paid: false, reason: 'expired', reference: '', now: 200 }),
    ]);
    const landed = settled.filter((r) => r !== undefined);
    expect(landed).toHaveLength(1);
    const paid = landed[0]?.status === 'success';
    expect(await store.wallet.balance('m1')).toEqual({ balance: paid ? 1_000 : 0, unpaid: 1_000 });
    expect(await store.wallet.settle('nope', { paid: true, reason: '', reference: '', now: 200 })).toBeUndefined();

    // The member cancels only their own unpaid one; money that arrives after is still theirs, but it cannot fail.
    expect(await store.wallet.cancel('m2', newerId, 300)).toBeUndefined();
    expect(await store.wallet.cancel('m1', newerId, 300)).toMatchObject({ status: 'cancelled', closedAt: 300 });
    expect(await store.wallet.cancel('m1', newerId, 300)).toBeUndefined();
    expect(await store.wallet.settle(newerId, { paid: false, reason: 'x', reference: '', now: 350 })).toBeUndefined();
    expect(await store.wallet.settle(newerId, { paid: true, reason: '', reference: 'T2', now: 400 })).toMatchObject({
      status: 'success',
      reference: 'T2',
      closedAt: 400,
    });
    expect(await store.wallet.balance('m1')).toEqual({ balance: paid ? 2_000 : 1_000, unpaid: 0 });
    const lines = (await store.wallet.lines('m1', { limit: 10 })) ?? [];
    expect(lines[0]).toMatchObject({ amount: 1_000, kind: 'recharge', ref: newerId, createdAt: 400 });
    expect(lines).toHaveLength(paid ? 2 : 1);

    // Pages: newest first for the member, oldest first for the operator, a cursor of someone else's refused.
    expect(await ask('r6', 'm1', 500, 500)).toBe('ok');
    expect(await ask('r7', 'm2', 700, 600)).toBe('ok');
    expect((await store.wallet.recharges('m1', { limit: 10 }))?.map((r) => r.id)).toEqual(['r6', newerId, olderId]);
    expect((await store.wallet.recharges('m1', { before: 'r6', limit: 1 }))?.map((r) => r.id)).toEqual([newerId]);
    expect(await store.wallet.recharges('m2', { before: 'r6', limit: 1 })).toBeUndefined();
    expect(await store.wallet.lines('m2', { before: lines[0]?.id, limit: 1 })).toBeUndefined();
    expect((await store.wallet.list({ status: 'unpaid', limit: 10 }))?.map((r) => r.id)).toEqual(['r6', 'r7']);
    expect((await store.wallet.list({ status: 'unpaid', after: 'r6', limit: 10 }))?.map((r) => r.id)).toEqual(['r7']);
    expect(await store.wallet.list({ status: 'failed', after: 'r6', limit: 10 })).toBeUndefined();

    // Cancelling the account keeps the wallet's books for the operator, and a late payment still lands.
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await ask('r8', 'm1', 500, 950)).toBe('missing');
    expect(await store.wallet.settle('r6', { paid: true, reason: '', reference: '', now: 1_000 })).toMatchObject({
      status: 'success',
    });
    expect((await store.wallet.balance('m1')).balance).toBe(paid ? 2_500 : 1_500);
  });

  it('wallet, PAY-8: a payment that cannot be credited makes a recharge abnormal once; the operator settles it', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    const ask = (id: string, at: number) =>
      store.wallet.recharge({ id, memberId: 'm1', amount: 1_000, method: 'wechat', createdAt: at }, 5);
    for (const [i, id] of ['r1', 'r2', 'r3', 'r4'].entries()) expect(await ask(id, 100 + i)).toBe('ok');
    await store.wallet.cancel('m1', 'r2', 150);
    await store.wallet.settle('r3', { paid: false, reason: 'closed', reference: '', now: 160 });
    await store.wallet.settle('r4', { paid: true, reason: '', reference: 'T4', now: 170 });
    const flag = (id: string, now: number) => store.wallet.flag(id, { reason: 'paid 0.01', reference: `X${id}`, now });
    // Unpaid, cancelled and failed ones become abnormal, at once only once; a paid one never.
    const flagged = await Promise.all([flag('r1', 200), flag('r1', 200)]);
    expect(flagged.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await flag('r2', 210)).toMatchObject({ status: 'abnormal', reason: 'paid 0.01', reference: 'Xr2' });
    expect(await flag('r3', 220)).toMatchObject({ status: 'abnormal', closedAt: 220 });
    expect(await flag('r4', 230)).toBeUndefined();
    expect(await flag('nope', 230)).toBeUndefined();
    expect((await store.wallet.list({ status: 'abnormal', limit: 10 }))?.map((r) => r.id)).toEqual(['r1', 'r2', 'r3']);
    expect(await store.wallet.balance('m1')).toEqual({ balance: 1_000, unpaid: 0 });
    // The operator credits one and fails another; either lands once.
    expect(await store.wallet.settle('r1', { paid: true, reason: '', reference: 'T1', now: 300 })).toMatchObject({
      status: 'success',
    });
    expect(await store.wallet.settle('r1', { paid: true, reason: '', reference: 'T1', now: 300 })).toBeUndefined();
    expect(await store.wallet.settle('r2', { paid: false, reason: 'refunded', reference: '', now: 310 })).toMatchObject(
      { status: 'failed', reason: 'refunded' },
    );
    expect(await store.wallet.balance('m1')).toEqual({ balance: 2_000, unpaid: 0 });
  });

  it('wallet: a recharge that pays a checkout names its code, and the newest of a code is found by it', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const ask = (id: string, memberId: string, orderCode: string | undefined, at: number) =>
      store.wallet.recharge({ id, memberId, amount: 2_500, method: 'alipay', createdAt: at, orderCode }, 5);
    expect(await ask('r1', 'm1', 'c1', 100)).toBe('ok');
    expect(await ask('r2', 'm1', 'c1', 200)).toBe('ok');
    expect(await ask('r3', 'm1', undefined, 300)).toBe('ok');
    expect(await ask('r4', 'm2', 'c2', 400)).toBe('ok');
    expect(await store.wallet.forOrder('m1', 'c1')).toMatchObject({ id: 'r2', orderCode: 'c1', status: 'unpaid' });
    expect(await store.wallet.find('r3')).toMatchObject({ orderCode: '' });
    expect(await store.wallet.forOrder('m1', 'c2')).toBeUndefined();
    expect(await store.wallet.forOrder('m1', '')).toMatchObject({ id: 'r3' });
    expect(await store.wallet.settle('r2', { paid: true, reason: '', reference: 'T', now: 500 })).toMatchObject({
      orderCode: 'c1',
      status: 'success',
    });
    expect(await store.wallet.forOrder('m1', 'c1')).toMatchObject({ id: 'r2', status: 'success' });
  });

  it('orders: a checkout is found by its buyer and code; a provider’s payment is spent on it as that provider’s', async () => {
    const { store } = await fresh();
    await market(store);
    const placed = await place(
      store,
      [
        { productId: 'tea', quantity: 2 },
        { productId: 'pot', quantity: 1 },
      ],
      { code: 'k1' },
    );
    if (!placed.ok) throw new Error(placed.failure);
    const ids = placed.value.map((o) => o.id).sort();
    expect((await store.orders.byCode('m3', 'k1')).map((o) => [o.id, o.status])).toEqual(
      ids.map((id) => [id, 'unpaid']),
    );
    expect(await store.orders.byCode('m1', 'k1')).toEqual([]);
    expect(await store.orders.byCode('m3', 'nope')).toEqual([]);
    const total = placed.value.reduce((sum, o) => sum + o.total, 0);
    expect(await store.orders.pay('m3', 'k1', 200, 'alipay')).toEqual({ ok: false, failure: 'insufficient' });
    await store.wallet.recharge(
      { id: 'rk', memberId: 'm3', amount: total, method: 'alipay', createdAt: 210, orderCode: 'k1' },
      3,
    );
    await store.wallet.settle('rk', { paid: true, reason: '', reference: 'T', now: 220 });
    const paid = await store.orders.pay('m3', 'k1', 230, 'alipay');
    expect(paid.ok && paid.value.map((o) => [o.status, o.payMethod, o.paidAt])).toEqual([
      ['paid', 'alipay', 230],
      ['paid', 'alipay', 230],
    ]);
    expect((await store.orders.byCode('m3', 'k1')).map((o) => o.payMethod)).toEqual(['alipay', 'alipay']);
    expect(await store.wallet.balance('m3')).toEqual({ balance: 0, unpaid: 0 });
  });

  it('shops: certified members only, one application at a time, a name once among live shops even asked at once', async () => {
    const { store } = await fresh();
    for (const [i, id] of ['m1', 'm2', 'm3'].entries()) await store.members.insert(newMember(id, `1370013700${i}`));
    const certify = async (memberId: string) => {
      const submittedAt = 50;
      await store.certifications.submit({
        memberId,
        type: 'personal',
        name: 'Wang',
        number: '11010519491231002X',
        images: ['a.png', 'b.png'],
        submittedAt,
      });
      await store.certifications.review(memberId, { submittedAt, pass: true, reason: '', now: 60 });
    };
    const apply = (id: string, memberId: string, name: string, submittedAt: number) =>
      store.shops.apply({ id, memberId, name, icon: 'https://x/icon.png', intro: 'Fresh tea', submittedAt });
    expect(await apply('s0', 'm1', 'Tea House', 100)).toBe('uncertified');
    expect(await apply('s0', 'nobody', 'Tea House', 100)).toBe('missing');
    await certify('m1');
    await certify('m2');
    await certify('m3');

    // Two members asking for one name at once: one gets it.
    const race = await Promise.all([apply('s1', 'm1', 'Tea House', 100), apply('s2', 'm2', 'Tea House', 100)]);
    expect([...race].sort()).toEqual(['name_taken', 'ok']);
    const winner = race[0] === 'ok' ? 'm1' : 'm2';
    const loser = winner === 'm1' ? 'm2' : 'm1';
    expect(await store.shops.byMember(loser)).toBeUndefined();
    const shop = await store.shops.byMember(winner);
    expect(shop).toMatchObject({
      memberId: winner,
      name: 'Tea House',
      status: 'pending',
      reason: '',
      submittedAt: 100,
    });
    const shopId = shop?.id ?? '';
    expect(await apply('s9', winner, 'Other name', 110)).toBe('pending');

    // A review of another submission lands nowhere; a rejection frees the name.
    const reject = { pass: false, reason: 'icon unclear', now: 200 };
    expect(await store.shops.review(shopId, { ...reject, submittedAt: 99 })).toBeUndefined();
    expect(await store.shops.review(shopId, { ...reject, submittedAt: 100 })).toMatchObject({
      status: 'rejected',
      reason: 'icon unclear',
      reviewedAt: 200,
    });
    expect(await store.shops.review(shopId, { ...reject, submittedAt: 100 })).toBeUndefined();
    expect(await apply('s3', loser, 'Tea House', 300)).toBe('ok');
    expect(await apply('s4', winner, 'Tea House', 310)).toBe('name_taken');
    // Resubmitted under another name, the shop keeps its id.
    expect(await apply('s5', winner, 'Tea Garden', 320)).toBe('ok');
    expect(await store.shops.byMember(winner)).toMatchObject({ id: shopId, name: 'Tea Garden', status: 'pending' });
    expect(await store.shops.review(shopId, { submittedAt: 320, pass: true, reason: 'x', now: 400 })).toMatchObject({
      status: 'approved',
      reason: '',
    });
    expect(await apply('s6', winner, 'Tea Garden 2', 500)).toBe('approved');

    // The queue: oldest first, paged by id, in one status.
    expect(await apply('s7', 'm3', 'Noodles', 600)).toBe('ok');
    const pending = (await store.shops.list({ status: 'pending', limit: 10 })) ?? [];
    expect(pending.map((r) => r.name)).toEqual(['Tea House', 'Noodles']);
    expect(
      (await store.shops.list({ status: 'pending', after: pending[0]?.id, limit: 10 }))?.map((r) => r.name),
    ).toEqual(['Noodles']);
    expect(await store.shops.list({ status: 'approved', after: pending[0]?.id, limit: 10 })).toBeUndefined();
    expect((await store.shops.list({ status: 'approved', limit: 10 }))?.map((r) => r.id)).toEqual([shopId]);

    // Cancelling the account closes the shop and frees its name.
    expect(await store.members.cancel(winner, { reason: 'x', now: 700 })).toBe(true);
    expect(await store.shops.byMember(winner)).toBeUndefined();
    expect(await store.shops.list({ status: 'approved', limit: 10 })).toEqual([]);
  });

  it('products: open shops only, into a live classification, counted even sent at once; reviewed, shelved, listed', async () => {
    const { store } = await fresh();
    for (const [i, id] of ['m1', 'm2'].entries()) await store.members.insert(newMember(id, `1370013700${i}`));
    // Classifications: unique names, bounded, in order; a removed one takes no products.
    const category = (id: string, name: string, position: number) =>
      store.products.addCategory({ id, name, position, fresh: false, createdAt: position }, 3);
    const added = await Promise.all([category('c1', 'Tea', 2), category('cX', 'Tea', 2)]);
    expect([...added].sort()).toEqual(['name_taken', 'ok']);
    const teaId = added[0] === 'ok' ? 'c1' : 'cX';
    expect(await category('c2', 'Cups', 1)).toBe('ok');
    expect(await category('c3', 'Pots', 3)).toBe('ok');
    expect(await category('c4', 'Books', 4)).toBe('limit');
    expect((await store.products.categories()).map((c) => c.name)).toEqual(['Cups', 'Tea', 'Pots']);
    expect(await store.products.updateCategory('c3', { name: 'Cups' })).toBe('name_taken');
    expect(await store.products.updateCategory('c3', { position: 0 })).toBe('ok');
    expect(await store.products.updateCategory('nope', { position: 0 })).toBeUndefined();
    expect(await store.products.removeCategory('c3', 10)).toBe(true);
    expect(await store.products.removeCategory('c3', 10)).toBe(false);
    expect(await store.products.category('c3')).toBeUndefined();

    const product = (id: string, memberId: string, categoryId: string, createdAt: number) => ({
      id,
      memberId,
      categoryId,
      title: `Product ${id}`,
      price: 1_250,
      stock: 3,
      content: 'Details',
      images: ['https://x/a.png'],
      createdAt,
    });
    const window = { since: 0, max: 2 };
    expect(await store.products.add(product('p0', 'm1', teaId, 100), window)).toBe('no_shop');
    await store.certifications.submit({
      memberId: 'm1',
      type: 'personal',
      name: 'Wang',
      number: '11010519491231002X',
      images: ['a.png', 'b.png'],
      submittedAt: 50,
    });
    await store.certifications.review('m1', { submittedAt: 50, pass: true, reason: '', now: 60 });
    expect(
      await store.shops.apply({ id: 's1', memberId: 'm1', name: 'Tea', icon: 'i', intro: 'x', submittedAt: 100 }),
    ).toBe('ok');
    expect(await store.products.add(product('p0', 'm1', teaId, 100), window)).toBe('no_shop');
    await store.shops.review('s1', { submittedAt: 100, pass: true, reason: '', now: 150 });
    expect(await store.products.add(product('p0', 'm1', 'c3', 100), window)).toBe('no_category');
    expect(await store.products.add(product('p0', 'nobody', teaId, 100), window)).toBe('missing');
    const tries = await Promise.all(
      ['p1', 'p2', 'p3'].map((id, i) => store.products.add(product(id, 'm1', teaId, 200 + i), window)),
    );
    expect([...tries].sort()).toEqual(['limit', 'ok', 'ok']);
    const mine = (await store.products.bySeller('m1', { limit: 10 })) ?? [];
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      shopId: 's1',
      categoryId: teaId,
      price: 1_250,
      status: 'pending',
      images: ['https://x/a.png'],
    });
    const [newer, older] = mine.map((p) => p.id);

    // Reviews: only one to be reviewed is passed or rejected; only one on sale or off the shelf is banned.
    expect(await store.products.review(newer ?? '', { decision: 'ban', reason: 'x', now: 300 })).toBeUndefined();
    expect(await store.products.review(newer ?? '', { decision: 'pass', reason: '', now: 300 })).toMatchObject({
      status: 'on_sale',
      reviewedAt: 300,
    });
    expect(await store.products.review(older ?? '', { decision: 'reject', reason: 'blurred', now: 300 })).toMatchObject(
      { status: 'rejected', reason: 'blurred' },
    );
    expect(await store.products.review(older ?? '', { decision: 'pass', reason: '', now: 300 })).toBeUndefined();
    expect(await store.products.list({ status: 'pending', limit: 10 })).toEqual([]);
    expect((await store.products.bySeller('m1', { status: 'rejected', limit: 10 }))?.map((p) => p.id)).toEqual([older]);

    // On sale: listed for everyone, by classification; a block hides it both ways; the shelf is the seller's.
    expect((await store.products.onSale({ limit: 10 }))?.map((p) => p.id)).toEqual([newer]);
    expect((await store.products.onSale({ categoryId: teaId, shopId: 's1', limit: 10 }))?.length).toBe(1);
    expect(await store.products.onSale({ categoryId: 'c2', limit: 10 })).toEqual([]);
    await store.blocks.set('m2', 'm1', true, { now: 400, max: 100 });
    expect(await store.products.onSale({ viewerId: 'm2', limit: 10 })).toEqual([]);
    expect(await store.products.shelve('m2', newer ?? '', false)).toBeUndefined();
    expect(await store.products.shelve('m1', newer ?? '', true)).toBeUndefined();
    expect(await store.products.shelve('m1', newer ?? '', false)).toMatchObject({ status: 'off_shelf' });
    expect(await store.products.onSale({ limit: 10 })).toEqual([]);
    expect(await store.products.review(newer ?? '', { decision: 'ban', reason: 'fake', now: 500 })).toMatchObject({
      status: 'banned',
      reason: 'fake',
    });
    expect(await store.products.shelve('m1', newer ?? '', true)).toBeUndefined();
    expect(await store.products.onSale({ before: 'nope', limit: 10 })).toBeUndefined();
    expect(await store.products.bySeller('m2', { before: newer, limit: 10 })).toBeUndefined();

    // Edits: the seller's, not of a banned one; what is reviewed goes back to review, price and stock alone do not.
    const title = (await store.products.byId(older ?? ''))?.title ?? '';
    const fields = {
      categoryId: teaId,
      title,
      price: 1_250,
      stock: 3,
      content: 'Details',
      images: ['https://x/a.png'],
    };
    const edit = (id: string, changes: Record<string, unknown>, memberId = 'm1') =>
      store.products.edit(memberId, id, { ...fields, ...changes });
    expect(await edit(newer ?? '', {})).toBeUndefined();
    expect(await edit(older ?? '', {}, 'm2')).toBeUndefined();
    expect(await edit(older ?? '', { categoryId: 'c3' })).toBe('no_category');
    expect(await edit(older ?? '', { stock: 4 })).toMatchObject({ status: 'pending', reason: '', stock: 4 });
    await store.products.review(older ?? '', { decision: 'pass', reason: '', now: 600 });
    expect(await edit(older ?? '', { price: 990, stock: 8 })).toMatchObject({
      status: 'on_sale',
      price: 990,
      stock: 8,
    });
    expect(await edit(older ?? '', { price: 990, stock: 8, images: ['https://x/b.png'] })).toMatchObject({
      status: 'pending',
      images: ['https://x/b.png'],
    });

    // Cancelling the account takes its shop and products with it.
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await store.products.byId(newer ?? '')).toBeUndefined();
  });

  it('invitations: once per invitee and per phone, paid at most the daily times even recorded at once', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('gone', '13300133009'));
    expect(await store.members.cancel('gone', { reason: 'x', now: 50 })).toBe(true);
    const rules = { coins: 100, dailyMax: 2 };
    const invite = (inviteeId: string, now: number, inviterId = 'm1', phoneHash = `h-${inviteeId}`) =>
      store.invitations.record({ inviterId, inviteeId, phoneHash, now, rules });
    expect(await invite('m1', 100)).toBeUndefined();
    expect(await invite('i0', 100, 'gone')).toBeUndefined();
    expect(await invite('i0', 100, 'nobody')).toBeUndefined();
    const first = await Promise.all(['i1', 'i2', 'i3', 'i4'].map((id) => invite(id, 100)));
    expect(first.map((r) => r?.coins).sort()).toEqual([0, 0, 100, 100]);
    expect(await store.tasks.balance('m1')).toBe(200);
    // The same invitee, or the same phone under a new account, is invited once.
    expect(await invite('i1', 200)).toBeUndefined();
    expect(await invite('i5', 200, 'm1', 'h-i1')).toBeUndefined();
    // A day later, paid again.
    expect(await invite('i6', 100 + 86_400_000)).toMatchObject({ coins: 100, inviteeId: 'i6', inviterId: 'm1' });
    expect(await store.invitations.summary('m1')).toEqual({ invited: 5, coins: 300 });
    expect(await store.invitations.summary('m2')).toEqual({ invited: 0, coins: 0 });
    const page = (await store.invitations.list('m1', { limit: 10 })) ?? [];
    expect(page.map((r) => r.inviteeId)[0]).toBe('i6');
    expect(page).toHaveLength(5);
    expect(await store.invitations.list('m1', { before: page[1]?.inviteeId, limit: 10 })).toEqual(page.slice(2));
    expect(await store.invitations.list('m2', { before: 'i6', limit: 10 })).toBeUndefined();
    const ledger = (await store.tasks.coins('m1', { limit: 1 })) ?? [];
    expect(ledger.map((line) => [line.kind, line.amount])).toEqual([['invite', 100]]);
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await store.invitations.summary('m1')).toEqual({ invited: 0, coins: 0 });
  });

  it('articles: counted per author even sent at once, paged newest first, hidden across blocks, deleted by their author', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    await store.members.insert(newMember('m3', '13300133002'));
    const article = (id: string, memberId: string, at: number) => ({
      id,
      memberId,
      title: `Title ${id}`,
      content: 'text',
      images: ['https://x/1.png'],
      channelId: null,
      createdAt: at,
    });
    const quota = { since: 0, max: 3 };
    const tries = await Promise.all(
      ['a1', 'a2', 'a3', 'a4', 'a5'].map((id, i) => store.articles.add(article(id, 'm1', 100 + i), quota)),
    );
    expect(tries.filter((t) => t === 'ok')).toHaveLength(3);
    expect(tries.filter((t) => t === 'limit')).toHaveLength(2);
    // Older ones fall out of the window.
    expect(await store.articles.add(article('b1', 'm1', 500), { since: 200, max: 3 })).toBe('ok');
    expect(await store.articles.add(article('c1', 'm2', 600), quota)).toBe('ok');
    expect(await store.articles.add(article('x', 'nobody', 600), quota)).toBe('missing');

    const all = (await store.articles.list({ limit: 10 })) ?? [];
    expect(all.map((a) => a.id).slice(0, 2)).toEqual(['c1', 'b1']);
    expect(all).toHaveLength(5);
    expect(all[0]).toEqual(article('c1', 'm2', 600));
    expect(await store.articles.list({ before: all[1]?.id, limit: 10 })).toEqual(all.slice(2));
    expect(await store.articles.list({ before: 'nope', limit: 10 })).toBeUndefined();
    expect((await store.articles.list({ authorId: 'm2', limit: 10 }))?.map((a) => a.id)).toEqual(['c1']);

    // A block hides each one's articles from the other, either way.
    await store.blocks.set('m3', 'm2', true, { now: 700, max: 10 });
    expect((await store.articles.list({ viewerId: 'm3', limit: 10 }))?.map((a) => a.memberId)).not.toContain('m2');
    expect((await store.articles.list({ viewerId: 'm2', limit: 10 }))?.map((a) => a.memberId)).toEqual([
      'm2',
      'm1',
      'm1',
      'm1',
      'm1',
    ]);
    expect((await store.articles.list({ viewerId: 'm1', limit: 10 }))?.length).toBe(5);

    expect(await store.articles.byId('c1')).toEqual(article('c1', 'm2', 600));
    expect(await store.articles.remove('m1', 'c1', 800)).toBe(false);
    expect(await store.articles.remove('m2', 'c1', 800)).toBe(true);
    expect(await store.articles.remove('m2', 'c1', 800)).toBe(false);
    expect(await store.articles.byId('c1')).toBeUndefined();
    expect((await store.articles.list({ limit: 10 }))?.length).toBe(4);
    // A cancelled author's articles go.
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await store.articles.list({ limit: 10 })).toEqual([]);
    expect(await store.articles.byId('b1')).toBeUndefined();
  });

  it('videos: articles with a video and a cover, listed apart from plain ones, counted with them, collected like them', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const item = (id: string, at: number, video?: { url: string; cover: string }) => ({
      id,
      memberId: 'm1',
      title: `Title ${id}`,
      content: 'text',
      images: [],
      channelId: video ? 'ch1' : null,
      createdAt: at,
      ...(video && { video }),
    });
    const quota = { since: 0, max: 3 };
    const v1 = item('v1', 100, { url: 'https://x/1.mp4', cover: 'https://x/1.png' });
    const v2 = item('v2', 300, { url: 'https://x/2.mp4', cover: 'https://x/2.png' });
    expect(await store.articles.add(v1, quota)).toBe('ok');
    expect(await store.articles.add(item('a1', 200), quota)).toBe('ok');
    expect(await store.articles.add(v2, quota)).toBe('ok');
    expect(await store.articles.add(item('a2', 400), quota)).toBe('limit');
    expect(await store.articles.byId('v1')).toEqual(v1);
    expect(await store.articles.byId('a1')).toEqual(item('a1', 200));
    expect(await store.articles.list({ videos: true, limit: 10 })).toEqual([v2, v1]);
    expect(await store.articles.list({ videos: true, before: 'v2', limit: 10 })).toEqual([v1]);
    expect(await store.articles.list({ videos: true, channelId: 'ch1', authorId: 'm1', limit: 1 })).toEqual([v2]);
    expect(await store.articles.list({ limit: 10 })).toEqual([item('a1', 200)]);
    expect(await store.articles.collect('m2', 'v1', true, 500)).toBe(true);
    expect(await store.articles.collect('m2', 'a1', true, 600)).toBe(true);
    expect((await store.articles.collection('m2', { limit: 10 }))?.map((a) => a.id)).toEqual(['a1', 'v1']);
    expect(await store.articles.remove('m1', 'v2', 700)).toBe(true);
    expect(await store.articles.list({ videos: true, limit: 10 })).toEqual([v1]);
    expect(await store.members.cancel('m1', { reason: 'x', now: 900 })).toBe(true);
    expect(await store.articles.list({ videos: true, limit: 10 })).toEqual([]);
  });

  it.each([
    ['article', 'reactions'],
    ['circle post', 'circleReactions'],
  ] as const)(
    '%s reactions: comments counted even sent at once, likes once each, counts and pages, hidden across blocks',
    async (_kind, key) => {
      const { store } = await fresh();
      const reactions = store[key];
      await threeMembers(store);
      const comment = (id: string, memberId: string, at: number, replyTo?: { id: string; memberId: string }) =>
        reactions.comment(
          { id, subjectId: 'a1', memberId, content: `said ${id}`, createdAt: at, ...(replyTo && { replyTo }) },
          { since: 0, max: 2 },
        );
      const tries = await Promise.all(['c1', 'c2', 'c3', 'c4'].map((id, i) => comment(id, 'm1', 100 + i)));
      expect(tries.filter(Boolean)).toHaveLength(2);
      // c5 answers a comment of m1's: the answer keeps what it answers.
      expect(await comment('c5', 'm2', 200, { id: 'c1', memberId: 'm1' })).toBe(true);
      const page = (await reactions.comments('a1', { limit: 10 })) ?? [];
      expect(page.map((c) => c.id)[0]).toBe('c5');
      expect(page).toHaveLength(3);
      expect(await reactions.comments('a1', { before: page[0]?.id, limit: 10 })).toEqual(page.slice(1));
      expect(await reactions.comments('a2', { before: 'c5', limit: 10 })).toBeUndefined();
      expect(await reactions.commentById('c5')).toMatchObject({
        memberId: 'm2',
        content: 'said c5',
        replyTo: { id: 'c1', memberId: 'm1' },
      });
      expect(page[0]?.replyTo).toEqual({ id: 'c1', memberId: 'm1' });
      expect(page[1]?.replyTo).toBeUndefined();

      const likes = await Promise.all([1, 2, 3].map(() => reactions.like('m2', 'a1', true, 300)));
      expect(likes.filter(Boolean)).toHaveLength(1);
      expect(await reactions.like('m3', 'a1', true, 400)).toBe(true);
      expect(await reactions.counts(['a1', 'a2'], 'm2')).toEqual(
        new Map([
          ['a1', { likes: 2, comments: 3, liked: true }],
          ['a2', { likes: 0, comments: 0, liked: false }],
        ]),
      );
      expect((await reactions.likers('a1', { limit: 10 }))?.map((l) => l.memberId)).toEqual(['m3', 'm2']);
      expect((await reactions.likers('a1', { before: 'm3', limit: 10 }))?.map((l) => l.memberId)).toEqual(['m2']);
      expect(await reactions.likers('a1', { before: 'm1', limit: 10 })).toBeUndefined();

      // m1 blocks m2: m1 sees neither m2's comment nor m2's like.
      await store.blocks.set('m1', 'm2', true, { now: 500, max: 10 });
      expect((await reactions.comments('a1', { viewerId: 'm1', limit: 10 }))?.map((c) => c.memberId)).toEqual([
        'm1',
        'm1',
      ]);
      expect((await reactions.likers('a1', { viewerId: 'm1', limit: 10 }))?.map((l) => l.memberId)).toEqual(['m3']);
      expect(await reactions.like('m2', 'a1', false, 600)).toBe(true);
      expect(await reactions.like('m2', 'a1', false, 600)).toBe(false);
      expect(await reactions.removeComment('c5', 700)).toBe(true);
      expect(await reactions.removeComment('c5', 700)).toBe(false);
      expect(await reactions.commentById('c5')).toBeUndefined();
      expect(await store.members.cancel('m1', { reason: 'x', now: 800 })).toBe(true);
      expect(await reactions.counts(['a1'], undefined)).toEqual(
        new Map([['a1', { likes: 1, comments: 0, liked: false }]]),
      );
      // The other kind's tables hold none of it, though the ids are the same.
      const other = key === 'reactions' ? store.circleReactions : store.reactions;
      expect(await other.counts(['a1'], 'm3')).toEqual(new Map([['a1', { likes: 0, comments: 0, liked: false }]]));
      expect(await other.comments('a1', { limit: 10 })).toEqual([]);
    },
  );

  it('likes received: those of open members on an author’s articles and posts not deleted, each kind its own', async () => {
    const { store } = await fresh();
    await threeMembers(store);
    const quota = { since: 0, max: 10 };
    const article = (id: string, memberId: string) =>
      store.articles.add(
        { id, memberId, title: `Title ${id}`, content: 'text', images: [], channelId: null, createdAt: 100 },
        quota,
      );
    const post = (id: string, memberId: string) =>
      store.circle.add(
        {
          id,
          memberId,
          title: '',
          content: 'text',
          images: [],
          vote: null,
          video: null,
          topicId: null,
          createdAt: 100,
        },
        quota,
      );
    await article('a1', 'm1');
    await article('a2', 'm1');
    await article('a3', 'm2');
    await post('p1', 'm1');
    for (const [memberId, id] of [
      ['m2', 'a1'],
      ['m3', 'a1'],
      ['m2', 'a2'],
      ['m1', 'a3'],
    ] as const) {
      await store.reactions.like(memberId, id, true, 200);
    }
    await store.circleReactions.like('m3', 'p1', true, 200);
    expect(await store.reactions.received('m1')).toBe(3);
    expect(await store.circleReactions.received('m1')).toBe(1);
    expect(await store.reactions.received('m2')).toBe(1);
    expect(await store.circleReactions.received('m2')).toBe(0);
    // A deleted article's likes go with it; a cancelled member's likes are not counted.
    expect(await store.articles.remove('m1', 'a2', 300)).toBe(true);
    expect(await store.reactions.received('m1')).toBe(2);
    expect(await store.members.cancel('m3', { reason: 'x', now: 400 })).toBe(true);
    expect(await store.reactions.received('m1')).toBe(1);
    expect(await store.circleReactions.received('m1')).toBe(0);
  });

  it('reports: one under review per member and content even sent at once; upholding closes all and removes it once', async () => {
    const { store } = await fresh();
    await reportedArticle(store);
    const report = (id: string, memberId: string, at: number, quota = { since: 0, max: 10 }) =>
      store.reports.add(
        { id, memberId, type: 'article', targetId: 'a1', title: 'Title', content: 'spam', createdAt: at },
        quota,
      );
    const tries = await Promise.all(['r1', 'r2', 'r3'].map((id) => report(id, 'm2', 100)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'pending')).toHaveLength(2);
    expect(await report('r4', 'm1', 200)).toBe('ok');
    expect(await report('r5', 'm1', 300, { since: 0, max: 1 })).toBe('limit');
    const queue = (await store.reports.list({ status: 'pending', limit: 10 })) ?? [];
    expect(queue.map((r) => r.memberId)).toEqual(['m2', 'm1']);
    expect((await store.reports.list({ status: 'pending', after: queue[0]?.id, limit: 10 }))?.map((r) => r.id)).toEqual(
      ['r4'],
    );
    expect(await store.reports.list({ status: 'upheld', after: 'r4', limit: 10 })).toBeUndefined();

    // An uphold and a dismissal at once: one of them lands.
    const decisions = await Promise.all([
      store.reports.review('r4', { uphold: true, reason: 'Spam', now: 400 }),
      store.reports.review('r4', { uphold: false, reason: 'Fine', now: 400 }),
    ]);
    const landed = decisions.filter((d) => d !== undefined);
    expect(landed).toHaveLength(1);
    if (landed[0]?.closed[0]?.status === 'upheld') {
      expect(landed[0].closed.map((r) => r.memberId).sort()).toEqual(['m1', 'm2']);
      expect(landed[0].authorId).toBe('m1');
      expect(await store.articles.byId('a1')).toBeUndefined();
      expect(await store.reports.list({ status: 'pending', limit: 10 })).toEqual([]);
    } else {
      expect(landed[0]).toEqual({ closed: [expect.objectContaining({ id: 'r4', status: 'dismissed' })] });
      expect(await store.articles.byId('a1')).toBeDefined();
      // The uphold that lost closed nothing: the other member's report is still under review.
      expect((await store.reports.list({ status: 'pending', limit: 10 }))?.map((r) => r.id)).toEqual([queue[0]?.id]);
    }
    expect(await store.reports.review('r4', { uphold: true, reason: 'Spam', now: 500 })).toBeUndefined();
    const mine = (await store.reports.byMember('m2', { limit: 10 })) ?? [];
    expect(mine).toHaveLength(1);
    expect(await store.reports.byMember('m1', { before: mine[0]?.id, limit: 10 })).toBeUndefined();
    expect(await store.members.cancel('m2', { reason: 'x', now: 600 })).toBe(true);
    expect(await store.reports.byMember('m2', { limit: 10 })).toEqual([]);
  });

  it('reports of a member: upholding resets the profile and closes their reports only; a cancelled one stays so', async () => {
    const { store } = await fresh();
    await threeMembers(store);
    await store.members.updateProfile('m1', {
      username: 'Cheap Watches',
      img: 'https://files.test/a.png',
      details: { intro: 'Buy now', background: 'https://files.test/b.png', region: 'Shanghai' },
      now: 50,
    });
    const report = (id: string, memberId: string, targetId: string) =>
      store.reports.add(
        { id, memberId, type: 'user', targetId, title: 'name', content: 'spam', createdAt: 100 },
        { since: 0, max: 10 },
      );
    expect(await report('r1', 'm2', 'm1')).toBe('ok');
    expect(await report('r2', 'm3', 'm1')).toBe('ok');
    expect(await report('r3', 'm2', 'm3')).toBe('ok');
    const decided = await store.reports.review('r1', { uphold: true, reason: 'Spam', now: 200 });
    expect(decided?.closed.map((r) => r.id).sort()).toEqual(['r1', 'r2']);
    expect(decided?.authorId).toBe('m1');
    expect(await store.members.byId('m1')).toMatchObject({
      username: 'user3000',
      img: '',
      intro: '',
      background: '',
      region: 'Shanghai',
      usernameChangedAt: null,
    });
    expect((await store.reports.list({ status: 'pending', limit: 10 }))?.map((r) => r.id)).toEqual(['r3']);
    // Upheld after the account was cancelled: it stays cancelled, with nothing brought back.
    expect(await store.members.cancel('m3', { reason: 'x', now: 300 })).toBe(true);
    const before = await store.members.byId('m3');
    const late = await store.reports.review('r3', { uphold: true, reason: 'Spam', now: 400 });
    expect(late?.closed).toHaveLength(1);
    expect(late?.authorId).toBeUndefined();
    expect(await store.members.byId('m3')).toEqual(before);
  });

  it('reports of a circle post: upholding deletes the post and closes its reports only', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const post = {
      memberId: 'm1',
      title: 'Watches for sale',
      content: 'Buy now',
      images: [],
      vote: null,
      video: null,
      topicId: null,
    };
    await store.circle.add({ ...post, id: 'p1', createdAt: 10 }, { since: 0, max: 10 });
    await store.articles.add(
      { id: 'p1', memberId: 'm1', title: 'Title', content: 'text', images: [], channelId: null, createdAt: 10 },
      { since: 0, max: 10 },
    );
    const report = (id: string, type: 'article' | 'quanzi') =>
      store.reports.add(
        { id, memberId: 'm2', type, targetId: 'p1', title: 'Buy now', content: 'spam', createdAt: 100 },
        { since: 0, max: 10 },
      );
    // The same id in two kinds is two contents: both may be under review at once.
    expect(await report('r1', 'quanzi')).toBe('ok');
    expect(await report('r2', 'article')).toBe('ok');
    expect(await store.reports.review('r1', { uphold: true, reason: 'Spam', now: 200 })).toEqual({
      closed: [expect.objectContaining({ id: 'r1', status: 'upheld' })],
      authorId: 'm1',
    });
    expect(await store.circle.byId('p1')).toBeUndefined();
    expect(await store.articles.byId('p1')).toBeDefined();
    expect((await store.reports.list({ status: 'pending', limit: 10 }))?.map((r) => r.id)).toEqual(['r2']);
  });

  it('reports of comments: upholding deletes the comment of its kind only, and closes its reports only', async () => {
    const { store } = await fresh();
    await reportedArticle(store);
    const quota = { since: 0, max: 10 };
    // The same comment id on an article and on a post: two contents.
    expect(
      await store.reactions.comment(
        { id: 'c1', subjectId: 'a1', memberId: 'm1', content: 'rude', createdAt: 20 },
        quota,
      ),
    ).toBe(true);
    expect(
      await store.reactions.comment(
        { id: 'c2', subjectId: 'a1', memberId: 'm1', content: 'kind', createdAt: 21 },
        quota,
      ),
    ).toBe(true);
    const report = (id: string, type: 'ping' | 'quanzi_ping', targetId: string) =>
      store.reports.add({ id, memberId: 'm2', type, targetId, title: 'rude', content: 'abuse', createdAt: 100 }, quota);
    expect(await report('r1', 'ping', 'c1')).toBe('ok');
    expect(await report('r2', 'quanzi_ping', 'c1')).toBe('ok');
    expect(await report('r3', 'ping', 'c2')).toBe('ok');
    expect(await store.reports.review('r1', { uphold: true, reason: 'Abuse', now: 200 })).toEqual({
      closed: [expect.objectContaining({ id: 'r1', status: 'upheld' })],
      authorId: 'm1',
    });
    expect(await store.reactions.commentById('c1')).toBeUndefined();
    expect(await store.reactions.commentById('c2')).toBeDefined();
    expect(await store.articles.byId('a1')).toBeDefined();
    expect((await store.reports.list({ status: 'pending', limit: 10 }))?.map((r) => r.id)).toEqual(['r2', 'r3']);
    // Content its author deleted while it was under review: the uphold closes the report and reaches no one.
    expect(await store.reactions.removeComment('c2', 250)).toBe(true);
    expect(await store.reports.review('r3', { uphold: true, reason: 'Abuse', now: 300 })).toEqual({
      closed: [expect.objectContaining({ id: 'r3', status: 'upheld' })],
    });
  });

  it('collections: once per member and article, the latest collected first, without deleted or blocked articles', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    for (const [id, at] of [
      ['a1', 10],
      ['a2', 20],
    ] as const) {
      await store.articles.add(
        { id, memberId: 'm1', title: 'Title', content: 'text', images: [], channelId: null, createdAt: at },
        { since: 0, max: 10 },
      );
    }
    const tries = await Promise.all([1, 2, 3].map(() => store.articles.collect('m2', 'a1', true, 100)));
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect(await store.articles.collect('m2', 'a2', true, 200)).toBe(true);
    expect((await store.articles.collection('m2', { limit: 10 }))?.map((a) => a.id)).toEqual(['a2', 'a1']);
    expect((await store.articles.collection('m2', { before: 'a2', limit: 10 }))?.map((a) => a.id)).toEqual(['a1']);
    expect(await store.articles.collection('m2', { before: 'nope', limit: 10 })).toBeUndefined();
    expect(await store.articles.collected('m2', ['a1', 'a2', 'a3'])).toEqual(new Set(['a1', 'a2']));
    await store.articles.remove('m1', 'a2', 300);
    expect((await store.articles.collection('m2', { limit: 10 }))?.map((a) => a.id)).toEqual(['a1']);
    await store.blocks.set('m1', 'm2', true, { now: 400, max: 10 });
    expect(await store.articles.collection('m2', { limit: 10 })).toEqual([]);
    expect(await store.articles.collect('m2', 'a1', false, 500)).toBe(true);
    expect(await store.articles.collect('m2', 'a1', false, 500)).toBe(false);
    expect(await store.members.cancel('m2', { reason: 'x', now: 600 })).toBe(true);
    expect(await store.articles.collected('m2', ['a2'])).toEqual(new Set());
  });

  it('channels: the operator order, unique names, at most max even at once, choices in order, articles by channel', async () => {
    const { store } = await fresh();
    const channel = (id: string, name: string, position: number, createdAt = 10) => ({
      id,
      name,
      position,
      isDefault: id !== 'c3',
      createdAt,
    });
    expect(await store.channels.add(channel('c1', 'Tech', 1), 3)).toBe('ok');
    expect(await store.channels.add(channel('c2', 'Travel', 0), 3)).toBe('ok');
    expect(await store.channels.add(channel('cx', 'Tech', 2), 3)).toBe('name_taken');
    const tries = await Promise.all(
      ['c3', 'c4', 'c5'].map((id, i) => store.channels.add(channel(id, `Name ${id}`, 5, 20 + i), 3)),
    );
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'limit')).toHaveLength(2);
    const all = await store.channels.all();
    expect(all.map((c) => c.name).slice(0, 2)).toEqual(['Travel', 'Tech']);
    expect(all[0]).toEqual(channel('c2', 'Travel', 0));
    const third = all[2]?.id as string;

    expect(await store.channels.update('c1', { name: 'Travel' })).toBe('name_taken');
    expect(await store.channels.update('c1', { name: 'Tech', position: 9, isDefault: false })).toBe('ok');
    expect(await store.channels.update('nope', { name: 'X' })).toBeUndefined();
    expect((await store.channels.all()).map((c) => [c.id, c.position, c.isDefault])).toEqual([
      ['c2', 0, true],
      [third, 5, third !== 'c3'],
      ['c1', 9, false],
    ]);

    await store.members.insert(newMember('m1', '13300133000'));
    expect(await store.channels.chosen('m1')).toEqual([]);
    await store.channels.choose('m1', ['c1', third, 'c2']);
    expect(await store.channels.chosen('m1')).toEqual(['c1', third, 'c2']);
    await store.channels.choose('m1', ['c2', 'c1']);
    expect(await store.channels.chosen('m1')).toEqual(['c2', 'c1']);

    const article = (id: string, channelId: string | null, at: number) =>
      store.articles.add(
        { id, memberId: 'm1', title: 'Title', content: 'text', images: [], channelId, createdAt: at },
        { since: 0, max: 10 },
      );
    await article('a1', 'c1', 10);
    await article('a2', 'c2', 20);
    await article('a3', 'c1', 30);
    await article('a4', null, 40);
    const ofChannel = async (channelId: string, before?: string) =>
      (await store.articles.list({ channelId, before, limit: 10 }))?.map((a) => a.id);
    expect(await ofChannel('c1')).toEqual(['a3', 'a1']);
    expect(await ofChannel('c1', 'a3')).toEqual(['a1']);
    expect(await ofChannel('c2')).toEqual(['a2']);
    expect((await store.articles.byId('a4'))?.channelId).toBeNull();

    // Removing a channel drops the members' choice of it; its articles stay.
    expect(await store.channels.remove('c1')).toBe(true);
    expect(await store.channels.remove('c1')).toBe(false);
    expect(await store.channels.chosen('m1')).toEqual(['c2']);
    expect((await store.articles.byId('a1'))?.channelId).toBe('c1');
    expect(await store.members.cancel('m1', { reason: 'x', now: 600 })).toBe(true);
    expect(await store.channels.chosen('m1')).toEqual([]);
  });

  it('circle posts: newest first, titled, at most max a window even at once, one vote per member until it ends', async () => {
    const { store } = await fresh();
    await store.members.insert(newMember('m1', '13300133000'));
    await store.members.insert(newMember('m2', '13300133001'));
    const post = (
      id: string,
      memberId: string,
      at: number,
      vote: { options: string[]; endsAt: number } | null = null,
    ) => ({
      id,
      memberId,
      title: `Title of ${id}`,
      content: `Post ${id}`,
      images: vote ? [] : ['https://x/1.png'],
      vote,
      video: null,
      topicId: null,
      createdAt: at,
    });
    const quota = { since: 0, max: 3 };
    const tries = await Promise.all(
      ['p1', 'p2', 'p3', 'p4'].map((id, i) => store.circle.add(post(id, 'm1', 10 + i), quota)),
    );
    expect(tries.filter((t) => t === 'ok')).toHaveLength(3);
    expect(tries.filter((t) => t === 'limit')).toHaveLength(1);
    expect(await store.circle.add(post('x', 'nobody', 10), quota)).toBe('missing');
    const vote = { options: ['A', 'B', 'C'], endsAt: 1_000 };
    expect(await store.circle.add(post('v1', 'm2', 100, vote), quota)).toBe('ok');
    expect(await store.circle.byId('v1')).toEqual(post('v1', 'm2', 100, vote));
    // A post with a video keeps the video and its cover; one without has none.
    const filmed = { ...post('f1', 'm2', 5), images: [], video: { url: 'https://x/f.mp4', cover: 'https://x/f.png' } };
    expect(await store.circle.add(filmed, quota)).toBe('ok');
    expect(await store.circle.byId('f1')).toEqual(filmed);
    expect((await store.circle.byId('p1'))?.video).toBeNull();
    // A post written before posts had titles has the empty one, and reads and lists as any other.
    const untitled = { ...post('u1', 'm2', 4), title: '' };
    expect(await store.circle.add(untitled, { since: 0, max: 10 })).toBe('ok');
    expect(await store.circle.byId('u1')).toEqual(untitled);

    const all = (await store.circle.list({ limit: 10 })) ?? [];
    expect(all).toHaveLength(6);
    expect(all[0]).toEqual(post('v1', 'm2', 100, vote));
    expect(all.at(-1)?.id).toBe('u1');
    expect(all.map((x) => x.title)).toEqual(all.map((x) => (x.id === 'u1' ? '' : `Title of ${x.id}`)));
    expect((await store.circle.list({ authorId: 'm2', limit: 10 }))?.map((x) => x.id)).toEqual(['v1', 'f1', 'u1']);
    expect((await store.circle.list({ before: 'v1', limit: 10 }))?.map((x) => x.memberId)).toEqual([
      'm1',
      'm1',
      'm1',
      'm2',
      'm2',
    ]);
    expect(await store.circle.list({ before: 'nope', limit: 10 })).toBeUndefined();

    const votes = await Promise.all(
      [0, 1, 2].map((option) => store.circle.vote('v1', 'm1', option, { now: 200, endsAt: 1_000 })),
    );
    expect(votes.filter((v) => v === 'ok')).toHaveLength(1);
    expect(votes.filter((v) => v === 'voted')).toHaveLength(2);
    expect(await store.circle.vote('v1', 'm2', 2, { now: 1_000, endsAt: 1_000 })).toBe('ended');
    expect(await store.circle.vote('v1', 'm2', 2, { now: 999, endsAt: 1_000 })).toBe('ok');
    const tallies = await store.circle.tallies([{ id: 'v1', optionCount: 3 }], 'm2');
    const tally = tallies.get('v1');
    expect(tally?.mine).toBe(2);
    expect(tally?.counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(tally?.counts[2]).toBeGreaterThanOrEqual(1);
    expect((await store.circle.tallies([{ id: 'v1', optionCount: 3 }], undefined)).get('v1')?.mine).toBeNull();
    expect(await store.circle.tallies([], 'm2')).toEqual(new Map());

    await store.blocks.set('m1', 'm2', true, { now: 300, max: 10 });
    expect((await store.circle.list({ viewerId: 'm2', limit: 10 }))?.map((x) => x.id)).toEqual(['v1', 'f1', 'u1']);
    expect(await store.circle.remove('m1', 'v1', 400)).toBe(false);
    expect(await store.circle.remove('m2', 'v1', 400)).toBe(true);
    expect(await store.circle.byId('v1')).toBeUndefined();
    // A cancelled account's posts and votes go with it.
    expect(await store.members.cancel('m1', { reason: 'x', now: 500 })).toBe(true);
    expect((await store.circle.list({ limit: 10 }))?.map((x) => x.id)).toEqual(['f1', 'u1']);
    expect((await store.circle.tallies([{ id: 'v1', optionCount: 3 }], 'm1')).get('v1')).toEqual({
      counts: [0, 0, 1],
      mine: null,
    });
  });

  it('topics: unique titles among those not removed, at most max even at once, the most posts first', async () => {
    const { store } = await fresh();
    const topic = (id: string, title: string, createdAt: number) => ({ id, title, intro: '', img: '', createdAt });
    expect(await store.topics.add(topic('t1', 'Walks', 10), 3)).toBe('ok');
    expect(await store.topics.add(topic('t2', 'Food', 20), 3)).toBe('ok');
    expect(await store.topics.add(topic('tx', 'Walks', 30), 3)).toBe('title_taken');
    const tries = await Promise.all(['t3', 't4'].map((id) => store.topics.add(topic(id, `T ${id}`, 40), 3)));
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t === 'limit')).toHaveLength(1);
    expect(await store.topics.update('t2', { title: 'Walks' })).toBe('title_taken');
    expect(await store.topics.update('t2', { title: 'Eating', intro: 'Eat well', img: 'https://x/e.png' })).toBe('ok');
    expect(await store.topics.update('nope', { title: 'X' })).toBeUndefined();
    expect(await store.topics.titles(['t1', 't2', 'nope', 't1'])).toEqual(
      new Map([
        ['t1', 'Walks'],
        ['t2', 'Eating'],
      ]),
    );
    expect(await store.topics.titles([])).toEqual(new Map());
    expect(await store.topics.byId('t2')).toEqual({
      id: 't2',
      title: 'Eating',
      intro: 'Eat well',
      img: 'https://x/e.png',
      createdAt: 20,
    });

    await store.members.insert(newMember('m1', '13300133000'));
    const post = (id: string, topicId: string | null, at: number) =>
      store.circle.add(
        {
          id,
          memberId: 'm1',
          title: 'A title',
          content: 'text',
          images: [],
          vote: null,
          video: null,
          topicId,
          createdAt: at,
        },
        { since: 0, max: 10 },
      );
    await post('p1', 't1', 10);
    await post('p2', 't2', 20);
    await post('p3', 't2', 30);
    await post('p4', null, 40);
    expect((await store.topics.all()).map((t) => [t.id, t.posts]).slice(0, 2)).toEqual([
      ['t2', 2],
      ['t1', 1],
    ]);
    expect((await store.circle.list({ topicId: 't2', limit: 10 }))?.map((x) => x.id)).toEqual(['p3', 'p2']);
    expect((await store.circle.list({ topicId: 't2', before: 'p3', limit: 10 }))?.map((x) => x.id)).toEqual(['p2']);
    expect((await store.circle.byId('p4'))?.topicId).toBeNull();
    await store.circle.remove('m1', 'p3', 50);
    expect((await store.topics.all()).find((t) => t.id === 't2')?.posts).toBe(1);

    // Removed: gone from the list and from byId, its title free again, its posts kept.
    expect(await store.topics.remove('t1', 60)).toBe(true);
    expect(await store.topics.remove('t1', 60)).toBe(false);
    expect(await store.topics.byId('t1')).toBeUndefined();
    expect(await store.topics.update('t1', { intro: 'x' })).toBeUndefined();
    expect((await store.topics.all()).map((t) => t.id)).not.toContain('t1');
    expect(await store.topics.add(topic('t5', 'Walks', 70), 3)).toBe('ok');
    expect((await store.circle.byId('p1'))?.topicId).toBe('t1');
    expect(await store.members.cancel('m1', { reason: 'x', now: 80 })).toBe(true);
    expect((await store.topics.all()).every((t) => t.posts === 0)).toBe(true);
  });

  it('MEM-11: of two members scanning one QR code at once one gets it, and of two polls one takes it', async () => {
    const { store } = await fresh();
    const tickets = store.loginTickets;
    const ticket = { ticket: 't1', keyHash: 'h', device: 'Chrome on Linux', address: '127.0.0.1', createdAt: 0 };
    await tickets.add({ ...ticket, expiresAt: 100 }, 0);
    const scans = await Promise.all(['m1', 'm2', 'm3'].map((m) => tickets.scan('t1', m, 10, 200)));
    const winners = scans.filter((scan) => scan !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'scanned', expiresAt: 200, device: 'Chrome on Linux' });
    const winner = winners[0]?.memberId as string;
    // Only the winner settles it, once.
    expect(await tickets.settle('t1', winner === 'm1' ? 'm2' : 'm1', 'confirmed', 20)).toBe(false);
    const settles = await Promise.all([
      tickets.settle('t1', winner, 'confirmed', 20),
      tickets.settle('t1', winner, 'cancelled', 20),
    ]);
    expect(settles.filter(Boolean)).toHaveLength(1);
    const status = (await tickets.get('t1', 20))?.status;
    if (status === 'confirmed') {
      const takes = await Promise.all([tickets.take('t1', 30), tickets.take('t1', 30), tickets.take('t1', 30)]);
      expect(takes.filter((t) => t !== undefined)).toEqual([winner]);
      expect(await tickets.get('t1', 30)).toBeUndefined();
    } else {
      expect(status).toBe('cancelled');
      expect(await tickets.take('t1', 30)).toBeUndefined();
    }
  });

  it('MEM-11: tickets expire, and a new ticket removes the expired ones', async () => {
    const { store } = await fresh();
    const tickets = store.loginTickets;
    const ticket = (id: string, expiresAt: number) => ({
      ticket: id,
      keyHash: 'h',
      device: '',
      address: '',
      createdAt: 0,
      expiresAt,
    });
    await tickets.add(ticket('old', 100), 0);
    await tickets.add(ticket('live', 300), 0);
    expect(await tickets.scan('old', 'm1', 100, 400)).toBeUndefined();
    expect(await tickets.get('old', 100)).toBeUndefined();
    expect(await tickets.get('old', 99)).toMatchObject({ status: 'waiting' });
    await tickets.add(ticket('new', 500), 200);
    // Asked as of before its expiry, the old ticket is gone: the add removed it. The live one stays.
    expect(await tickets.get('old', 50)).toBeUndefined();
    expect(await tickets.get('live', 50)).toMatchObject({ ticket: 'live', status: 'waiting', memberId: null });
  });

  it('ads: a banner holds the running ads in order, and counts add up even when sent at once', async () => {
    const { store } = await fresh();
    const ad = (id: string, changes: Partial<AdRecord> = {}): AdRecord => ({
      id,
      title: id,
      img: 'https://cdn.test/a.png',
      url: 'shop/index',
      position: 'shop',
      sort: 0,
      startsAt: null,
      endsAt: null,
      impressions: 0,
      clicks: 0,
      createdAt: 0,
      ...changes,
    });
    expect(await store.ads.add(ad('a', { sort: 2 }), 3)).toBe(true);
    expect(await store.ads.add(ad('b', { sort: 1, createdAt: 1 }), 3)).toBe(true);
    expect(await store.ads.add(ad('c', { startsAt: 100, endsAt: 200 }), 3)).toBe(true);
    expect(await store.ads.add(ad('d'), 3)).toBe(false);
    expect((await store.ads.showing('shop', 50, 10)).map((a) => a.id)).toEqual(['b', 'a']);
    expect((await store.ads.showing('shop', 150, 10)).map((a) => a.id)).toEqual(['c', 'b', 'a']);
    expect((await store.ads.showing('shop', 150, 2)).map((a) => a.id)).toEqual(['c', 'b']);
    expect(await store.ads.showing('video', 150, 10)).toEqual([]);
    expect(await store.ads.count('c', 'clicks', 50)).toBe(false);
    await Promise.all(Array.from({ length: 8 }, () => store.ads.count('a', 'impressions', 50)));
    expect(await store.ads.count('a', 'clicks', 50)).toBe(true);
    expect(await store.ads.byId('a')).toMatchObject({ impressions: 8, clicks: 1 });
    expect(await store.ads.update('a', { endsAt: 60, title: 'A' })).toBe(true);
    expect((await store.ads.showing('shop', 60, 10)).map((a) => a.id)).toEqual(['b']);
    expect(await store.ads.remove('b', 70)).toBe(true);
    expect(await store.ads.remove('b', 70)).toBe(false);
    expect(await store.ads.update('b', { title: 'B' })).toBe(false);
    expect((await store.ads.all()).map((a) => [a.id, a.title])).toEqual([
      ['c', 'c'],
      ['a', 'A'],
    ]);
  });

  it('hidden: a member keeps their latest hidden items, each once; another member’s are theirs', async () => {
    const { store } = await fresh();
    const { hidden } = store;
    await hidden.set('m1', 'article', 'a1', true, 10, 2);
    await hidden.set('m1', 'article', 'a1', true, 11, 2);
    await hidden.set('m1', 'quanzi', 'p1', true, 20, 2);
    await hidden.set('m2', 'article', 'a9', true, 5, 2);
    expect(await hidden.hidden('m1', 'article', ['a1', 'a2'])).toEqual(new Set(['a1']));
    expect(await hidden.hidden('m1', 'quanzi', ['p1', 'a1'])).toEqual(new Set(['p1']));
    // A third: the oldest (a1, hidden at 10) is forgotten; m2's stays.
    await hidden.set('m1', 'article', 'a2', true, 30, 2);
    expect(await hidden.hidden('m1', 'article', ['a1', 'a2'])).toEqual(new Set(['a2']));
    expect(await hidden.hidden('m1', 'quanzi', ['p1'])).toEqual(new Set(['p1']));
    expect(await hidden.hidden('m2', 'article', ['a9'])).toEqual(new Set(['a9']));
    // Two at the same time: the one ordered last by kind and id goes first.
    await hidden.set('m3', 'article', 'x', true, 40, 1);
    await hidden.set('m3', 'article', 'y', true, 40, 1);
    expect(await hidden.hidden('m3', 'article', ['x', 'y'])).toEqual(new Set(['y']));
    await hidden.set('m1', 'quanzi', 'p1', false, 50, 2);
    expect(await hidden.hidden('m1', 'quanzi', ['p1'])).toEqual(new Set());
    expect(await hidden.hidden('m1', 'quanzi', [])).toEqual(new Set());
  });
}
