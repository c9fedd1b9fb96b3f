import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEX_ID_WORDS, packHexId, sameHexId, unpackHexId } from '../src/core/hex-ids.js';
import { timeOrderedHexId } from '../src/core/ids.js';
import { hashId, RecentIds } from '../src/core/recent-ids.js';

const hexId = fc.stringMatching(/^[0-9a-f]{32}$/);

describe('hex ids as words', () => {
  it('gives back every id of 32 lowercase hexadecimal digits it packed', () => {
    const words = new Int32Array(HEX_ID_WORDS * 2);
    for (let i = 0; i < 100; i++) {
      const id = timeOrderedHexId(Date.now() + i);
      expect(packHexId(id, words, HEX_ID_WORDS)).toBe(true);
      expect(unpackHexId(words, HEX_ID_WORDS)).toBe(id);
    }
    fc.assert(
      fc.property(hexId, hexId, (a, b) => {
        expect(packHexId(a, words, 0)).toBe(true);
        expect(packHexId(b, words, HEX_ID_WORDS)).toBe(true);
        expect(unpackHexId(words, 0)).toBe(a);
        expect(sameHexId(words, 0, words, HEX_ID_WORDS)).toBe(a === b);
      }),
    );
  });

  it('leaves every other id to be kept as a string', () => {
    const words = new Int32Array(HEX_ID_WORDS);
    const id = 'ab'.repeat(16);
    for (const other of [id.slice(1), `${id}0`, id.toUpperCase(), `${id.slice(0, 31)}g`, `${id.slice(0, 31)}é`, ''])
      expect(packHexId(other, words, 0)).toBe(false);
  });
});

describe('RecentIds with hex ids', () => {
  it('answers as a list of the newest ids would, hex ids and others mixed', () => {
    // A small pool: ids coming back after leaving, and hex ids beside their upper-case forms, which are other ids.
    const pool = ['0'.repeat(32), 'f'.repeat(32), `${'0'.repeat(31)}a`, `${'0'.repeat(31)}A`, 'A'.repeat(32), 'm1'];
    const id = fc.oneof(fc.constantFrom(...pool), hexId);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.tuple(id, id), { maxLength: 200 }), (capacity, steps) => {
        const recent = new RecentIds(capacity);
        const newest: string[] = [];
        for (const [added, probed] of steps) {
          const fresh = !newest.includes(added);
          expect(recent.add(added)).toBe(fresh);
          if (fresh) newest.push(added);
          if (newest.length > capacity) newest.shift();
          expect(recent.has(probed)).toBe(newest.includes(probed));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps apart two hex ids with the same 32-bit hash', () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const id = i.toString(16).padStart(32, '0');
      const other = seen.get(hashId(id));
      if (other !== undefined) pair = [other, id];
      else seen.set(hashId(id), id);
    }
    const recent = new RecentIds(2);
    expect(recent.add(pair[0])).toBe(true);
    expect(recent.add(pair[1])).toBe(true);
    expect(recent.has(pair[0])).toBe(true);
    expect(recent.add(pair[1])).toBe(false);
    recent.add('c'.repeat(32));
    expect(recent.has(pair[0])).toBe(false);
    expect(recent.has(pair[1])).toBe(true);
  });
});
