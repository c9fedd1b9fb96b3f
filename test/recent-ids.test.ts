import { describe, expect, it } from 'vitest';
import { RecentIds, hashId } from '../src/core/recent-ids.js';

describe('RecentIds table', () => {
  it('keeps apart two ids with the same 32-bit hash, while both are recent and after one leaves', () => {
    // The birthday bound finds a full collision among a few hundred thousand short ids.
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const id = i.toString(36);
      const other = seen.get(hashId(id));
      if (other !== undefined) pair = [other, id];
      else seen.set(hashId(id), id);
    }
    expect(hashId(pair[0])).toBe(hashId(pair[1]));
    const recent = new RecentIds(2);
    expect(recent.add(pair[0])).toBe(true);
    expect(recent.add(pair[1])).toBe(true);
    expect(recent.has(pair[0])).toBe(true);
    recent.add('third');
    expect(recent.has(pair[0])).toBe(false);
    expect(recent.has(pair[1])).toBe(true);
  });

  it('keeps an id at its home slot when the id before it, across the end of the table, leaves', () => {
    // Capacity 2 gives a table of 8 slots: `last` lives in slot 7 and `first` in slot 0, its home, across the end.
    const idWithHome = (home: number, not: string[] = []) => {
      for (let i = 0; ; i++) if ((hashId(`k${i}`) & 7) === home && !not.includes(`k${i}`)) return `k${i}`;
    };
    const last = idWithHome(7);
    const first = idWithHome(0);
    const recent = new RecentIds(2);
    recent.add(last);
    recent.add(first);
    recent.add(idWithHome(3));
    expect(recent.has(last)).toBe(false);
    expect(recent.has(first)).toBe(true);
  });
});
