import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { publishImSchema, readPublishIm } from '../../src/protocol/index.js';

const FIELDS = ['mt', 'to', 'd', 'p', 't', 'tid', 'guid', 'nt', 'at', 'retried'] as const;

/** Values of every kind the schema tells apart: right and wrong types, blanks, edge numbers and lengths. */
const anyValue = fc.oneof(
  fc.constantFrom('private', 'group', 'cs', 'other', '', '  ', ' u1 ', 'u1', 'text', ' text ', '{"text":"hi"}'),
  fc.string(),
  fc.constantFrom('x'.repeat(64), 'x'.repeat(65), 'x'.repeat(3072), 'x'.repeat(3073)),
  fc.constantFrom(0, -0, 1, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.boolean(),
  fc.constantFrom(null, undefined),
  fc.constant([]),
  fc.record({ title: fc.oneof(fc.string(), fc.constant(null)), body: fc.string() }, { requiredKeys: [] }),
);

/** A request as the SDK sends it. */
const validRequest = { t: 'group', to: 'g1', mt: 'text', p: '{"text":"hi"}', guid: '0193a1b2c3d4e5f60718293a4b5c6d7e' };
const mutatedRequest = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 5 }),
    fc.subarray([...FIELDS], { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.anything(), { maxKeys: 2 }),
  )
  .map(([changes, removed, extra]) => {
    const request: Record<string, unknown> = { ...extra, ...validRequest, ...changes };
    for (const key of removed) delete request[key];
    return request;
  });

/** What the reader leaves to the schema although it may be valid: a notification, or an object of another kind. */
function leftToSchema(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return true;
  const { nt } = input as { nt?: unknown };
  return (nt !== undefined && nt !== null) || Object.hasOwn(input, '__proto__');
}

describe('readPublishIm', () => {
  it('IM-2: reads a request as publishImSchema does, and every usual valid request', () => {
    fc.assert(
      fc.property(fc.oneof(mutatedRequest, anyValue), (input) => {
        const read = readPublishIm(input);
        const parsed = publishImSchema.safeParse(input);
        if (read !== undefined) {
          expect(parsed.success).toBe(true);
          expect(read).toStrictEqual(parsed.data);
        } else if (parsed.success) {
          expect(leftToSchema(input)).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('IM-2: trims the type and the target, turns numeric ids into strings and keeps unknown fields', () => {
    expect(readPublishIm({ ...validRequest, mt: ' text ', to: ' g1 ', tid: 7, x: 1 })).toStrictEqual({
      ...validRequest,
      mt: 'text',
      to: 'g1',
      tid: '7',
      x: 1,
    });
    expect(readPublishIm({ ...validRequest, to: 42 })?.to).toBe('42');
  });

  it('IM-2: leaves what it does not read to the schema, which words the error', () => {
    for (const input of [
      { ...validRequest, mt: '  ' },
      { ...validRequest, to: '' },
      { ...validRequest, p: '' },
      { ...validRequest, guid: 'x'.repeat(65) },
      { ...validRequest, t: 'other' },
      { ...validRequest, nt: { title: 'hi' } },
      [validRequest],
      null,
    ]) {
      expect(readPublishIm(input)).toBeUndefined();
    }
  });
});
