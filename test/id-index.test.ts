import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex, hashId } from '../src/core/id-index.js';

describe('IdIndex', () => {
  it('answers as a Map would, through growth and through removals inside long probe runs', () => {
    // A small pool of arbitrary ids: many share a home slot, so removals land inside runs and ids come back.
    const op = fc.tuple(fc.constantFrom('set', 'delete', 'get', 'clear'), fc.nat(), fc.integer());
    // Up to four ids keep the table at its first 8 slots, where runs often wrap around its end.
    const pool = fc.oneof(
      fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 80 }),
    );
    fc.assert(
      fc.property(pool, fc.array(op, { maxLength: 500 }), (ids, ops) => {
        const index = new IdIndex<number>();
        const model = new Map<string, number>();
        for (const [kind, pick, value] of ops) {
          const id = ids[pick % ids.length] as string;
          if (kind === 'set') {
            index.set(id, value);
            model.set(id, value);
          } else if (kind === 'delete') {
            expect(index.delete(id)).toBe(model.delete(id));
          } else if (kind === 'clear' && value % 20 === 0) {
            index.clear();
            model.clear();
          }
          expect(index.get(id)).toBe(model.get(id));
          expect(index.size).toBe(model.size);
        }
        for (const id of ids) expect(index.get(id)).toBe(model.get(id));
        for (const id of ids) expect(index.has(id)).toBe(model.has(id));
      }),
      { numRuns: 600 },
    );
  });

  it('keeps apart two ids with the same 32-bit hash', () => {
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
    const index = new IdIndex<string>();
    index.set(pair[0], 'first');
    index.set(pair[1], 'second');
    expect(index.get(pair[0])).toBe('first');
    expect(index.get(pair[1])).toBe('second');
    index.delete(pair[0]);
    expect(index.get(pair[0])).toBeUndefined();
    expect(index.get(pair[1])).toBe('second');
  });

  it('keeps an entry at its home when the entry before it, across the end of the table, leaves', () => {
    // In a table of 8 slots: `last` lives in slot 7 and `first` in slot 0, its home, next to it across the end.
    const idWithHome = (home: number) => {
      for (let i = 0; ; i++) if ((hashId(`k${i}`) & 7) === home) return `k${i}`;
    };
    const last = idWithHome(7);
    const first = idWithHome(0);
    const index = new IdIndex<string>();
    index.set(last, 'last');
    index.set(first, 'first');
    index.delete(last);
    expect(index.get(first)).toBe('first');
  });
});
