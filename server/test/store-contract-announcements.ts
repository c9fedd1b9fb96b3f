/**
 * The store contract for the operator's announcements to sellers; registered by `describeStoreContract` so that it
 * runs on SQLite and on PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { AnnouncementRecord, Store } from '../src/store/index.js';

const announcement = (id: string, createdAt: number, pinned = false): AnnouncementRecord => ({
  id,
  title: `Title ${id}`,
  content: `Content of ${id}\nsecond line`,
  pinned,
  createdAt,
  updatedAt: createdAt,
});

/** Registers the announcements part of the contract; `fresh` opens a fresh store that is closed after the test. */
export function describeAnnouncementStoreContract(fresh: () => Promise<{ store: Store }>): void {
  it('announcements: listed pinned first, then the newest, then by id, a page after another', async () => {
    const { store } = await fresh();
    const { announcements } = store;
    for (const record of [
      announcement('a', 100),
      announcement('b', 300),
      announcement('c', 200, true),
      announcement('d', 300),
      announcement('e', 50, true),
    ]) {
      await announcements.add(record);
    }
    const ids = async (after?: string, limit = 10) => (await announcements.list({ after, limit }))?.map((a) => a.id);
    expect(await ids()).toEqual(['c', 'e', 'd', 'b', 'a']);
    expect(await ids(undefined, 2)).toEqual(['c', 'e']);
    expect(await ids('e', 2)).toEqual(['d', 'b']);
    expect(await ids('b')).toEqual(['a']);
    expect(await ids('a')).toEqual([]);
    expect(await announcements.list({ after: 'nope', limit: 10 })).toBeUndefined();
    expect(await announcements.byId('c')).toEqual(announcement('c', 200, true));
    expect(await announcements.byId('nope')).toBeUndefined();
  });

  it('announcements: changed in part, removed with their reads; each member reads their own', async () => {
    const { store } = await fresh();
    const { announcements } = store;
    await announcements.add(announcement('a', 100));
    await announcements.add(announcement('b', 200));
    expect(await announcements.update('a', { pinned: true, title: 'Fees', now: 500 })).toEqual({
      ...announcement('a', 100, true),
      title: 'Fees',
      updatedAt: 500,
    });
    expect(await announcements.update('a', { content: 'New\n\ntext', pinned: false, now: 600 })).toMatchObject({
      title: 'Fees',
      content: 'New\n\ntext',
      pinned: false,
      updatedAt: 600,
    });
    expect(await announcements.update('nope', { title: 'x', now: 700 })).toBeUndefined();

    expect(await announcements.unread('m1')).toBe(2);
    await announcements.markRead('m1', 'a', 800);
    await announcements.markRead('m1', 'a', 900);
    expect(await announcements.unread('m1')).toBe(1);
    expect(await announcements.unread('m2')).toBe(2);
    const read = async (memberId: string) =>
      (await announcements.listFor(memberId, { limit: 10 }))?.map((a) => [a.id, a.read]);
    expect(await read('m1')).toEqual([
      ['b', false],
      ['a', true],
    ]);
    expect(await read('m2')).toEqual([
      ['b', false],
      ['a', false],
    ]);
    expect((await announcements.listFor('m1', { after: 'b', limit: 10 }))?.[0]).toMatchObject({
      id: 'a',
      content: 'New\n\ntext',
      read: true,
    });
    expect(await announcements.listFor('m1', { after: 'nope', limit: 10 })).toBeUndefined();

    expect(await announcements.remove('a')).toBe(true);
    expect(await announcements.remove('a')).toBe(false);
    expect(await announcements.byId('a')).toBeUndefined();
    expect(await read('m1')).toEqual([['b', false]]);
    expect(await announcements.unread('m1')).toBe(1);
    // An announcement published again under a removed one's id is unread: the reads went with it.
    await announcements.add(announcement('a', 1_000));
    expect(await announcements.unread('m1')).toBe(2);
  });
}
