import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timeOrderedHexId } from '../../src/core/ids.js';
import { buildMessage } from '../../src/modules/im/message.js';
import { readWireImMessage, utf8ByteLength, wireImMessageSchema } from '../../src/protocol/index.js';

const FIELDS = ['t', 'r', 's', 'i', 'ts', 'mt', 'p', 'd', 'tid', 'accepted', 'sessionId', 'rc', 'recaller'] as const;

/** Values of every kind the schema distinguishes: right and wrong types, blanks, edge numbers. */
const anyValue = fc.oneof(
  fc.constantFrom('private', 'group', 'cs', 'other', '', '  ', ' u1 ', 'u1', '{"a":1}'),
  fc.string(),
  fc.constantFrom(0, -0, 1, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, 1763900000000),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(null, undefined),
  fc.constant([]),
  fc.record({ id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), data: fc.anything() }, { requiredKeys: [] }),
);

/** A push that is valid, with some fields replaced or removed. */
const validPush = {
  t: 'group',
  r: 'g1',
  s: 'u1',
  i: 'a1b2',
  ts: 1763900000000,
  mt: 'text',
  p: '{"text":"hi"}',
  d: '{"n":1}',
};
const mutatedPush = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 5 }),
    fc.subarray([...FIELDS], { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.anything(), { maxKeys: 2 }),
  )
  .map(([changes, removed, extra]) => {
    const push: Record<string, unknown> = { ...extra, ...validPush, ...changes };
    for (const key of removed) delete push[key];
    return push;
  });

/** The schema's output on its own fields (a loose object keeps unknown keys; the guard leaves them out). */
function schemaOutput(input: unknown): Record<string, unknown> | undefined {
  const parsed = wireImMessageSchema.safeParse(input);
  if (!parsed.success) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) if (key in parsed.data) out[key] = parsed.data[key];
  return out;
}

describe('readWireImMessage', () => {
  it('IMC-4: accepts exactly what wireImMessageSchema accepts, with the same output on its fields', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedPush, anyValue), (input) => {
        expect(readWireImMessage(input)).toStrictEqual(schemaOutput(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('IMC-4: trims ids and turns numeric ids into strings, as the schema does', () => {
    expect(readWireImMessage({ ...validPush, r: ' g1 ', s: 42, tid: 7 })).toMatchObject({ r: 'g1', s: '42', tid: '7' });
    expect(readWireImMessage({ ...validPush, s: '   ' })).toBeUndefined();
    expect(readWireImMessage({ ...validPush, ts: -1 })).toBeUndefined();
    expect(readWireImMessage([validPush])).toBeUndefined();
  });
});

describe('utf8ByteLength', () => {
  it('IMC-1: measures text as TextEncoder encodes it, surrogates included', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
      { numRuns: 2000 },
    );
    for (const text of [
      '',
      'a',
      'é',
      '字',
      '😀',
      '\ud83d',
      '\ude00a',
      'a\ud83d\ude00\ud83d',
      '\ude00\ude00',
      '\ud83d\ud83d\ude00',
    ]) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
    }
  });
});

describe('timeOrderedHexId', () => {
  it('IMC-1: 32 lowercase hex characters, different each time', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedHexId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    // Every hex digit shows up in every random position over enough ids: no byte is mapped wrong.
    const seen = Array.from({ length: 20 }, () => new Set<string>());
    for (const id of ids) [...id.slice(12)].forEach((ch, i) => seen[i]?.add(ch));
    expect(seen.every((chars) => chars.size === 16)).toBe(true);
  });

  it('IMC-1: starts with the time in milliseconds, so that ids made later sort later', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    expect(timeOrderedHexId(at).slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    expect(timeOrderedHexId(0).slice(0, 12)).toBe('000000000000');
    const times = [at - 86_400_000, at - 1, at, at + 1, at + 16, at + 4096, at + 86_400_000];
    const ids = times.map((t) => timeOrderedHexId(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('IMC-1: a message built later gets a later id, in every scene', () => {
    const me = { id: 'u1', data: {} };
    for (const to of [
      { type: 'private', id: 'u2', data: {} },
      { type: 'group', id: 'g1', data: {} },
      { type: 'cs', id: 'team', data: {} },
    ] as const) {
      const at = Date.UTC(2026, 10, 25);
      const ids = [at, at + 1, at + 60_000].map(
        (now) => buildMessage({ type: 'text', payload: { text: 'hi' }, to, me, now }).messageId,
      );
      expect([...ids].sort(), to.type).toEqual(ids);
      expect(ids[0]?.slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    }
  });
});
