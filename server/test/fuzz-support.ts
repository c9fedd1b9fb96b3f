/**
 * Generated input for the server's fuzz tests: valid requests broken a field or a few at a time, and values of every
 * JSON type, with the ids and timestamps that exist on the server under test so that the cases reach past the first
 * checks into the handlers' own logic.
 */
import fc from 'fast-check';

/** What the generated values draw on: ids and timestamps that exist, and the field names requests can have. */
export interface Pools {
  ids: string[];
  times: number[];
  keys: string[];
}

/** Cases per request kind; `FUZZ_RUNS` sets more for a longer hunt. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** Values of every JSON type, with the pools' ids and timestamps and the shapes bugs hide behind. */
export function anyValue(pools: Pools): fc.Arbitrary<unknown> {
  const { keys } = pools;
  const id = fc.constantFrom(...pools.ids);
  const time = fc.constantFrom(...pools.times);
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('', ' ', 'private', 'group', 'cs', 'text', 'image', '{}', '[]', 'null', '{', '{"text":"hi"}'),
    fc.constantFrom('x'.repeat(2501), 'x'.repeat(70_000), '\u0000', '__proto__', 'constructor', 'GET'),
  );
  const number = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.constantFrom(0, -1, 1, 1.5, 10, 30, 31, 200, 300, 301, Number.MAX_SAFE_INTEGER, 1e300),
  );
  // Binary travels as a socket.io attachment and arrives as a Buffer.
  const binary = fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes));
  const scalar = fc.oneof(id, time, text, number, fc.boolean(), fc.constant(null), binary);
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(id, time), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 4 }) },
      fc.constantFrom(
        Array.from({ length: 301 }, (_, i) => `g${i}`),
        Array.from({ length: 21 }, () => pools.times[0]),
        ['bob', 'bob'],
        [''],
        [null],
      ),
    ),
  }));
  return value;
}

/**
 * Values of the same JSON type as `like`, at the edges handlers get wrong: they pass the schema's type check and
 * reach the handler's own logic (bounds, emptiness, duplicates, ids and times that do or do not exist).
 */
export function edgeOf(like: unknown, pools: Pools, value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (typeof like === 'number') {
    return fc.oneof(
      fc.constantFrom(...pools.times, 0, -1, 1, 1.5, 29, 30, 31, 200, 201, 300, 301, 2 ** 31, Number.MAX_SAFE_INTEGER),
      fc.integer(),
    );
  }
  if (typeof like === 'string') {
    return fc.oneof(
      fc.constantFrom(
        ...pools.ids,
        'private',
        'group',
        'cs',
        '',
        ' ',
        '0',
        'x'.repeat(61),
        'x'.repeat(3000),
        '{}',
        '[]',
        '"s"',
        '{',
        'GET',
      ),
      fc.string({ maxLength: 8 }),
    );
  }
  if (typeof like === 'boolean') return fc.boolean();
  if (Array.isArray(like)) {
    return fc.oneof(
      fc.array(edgeOf(like[0], pools, value), { maxLength: 5 }),
      fc.constant([...like, ...like]),
      fc.constant(Array.from({ length: 301 }, (_, i) => (typeof like[0] === 'number' ? i : `x${i}`))),
    );
  }
  if (typeof like === 'object' && like !== null) {
    const fields = Object.entries(like);
    if (fields.length === 0) return value;
    return fc
      .record({ at: fc.nat(fields.length - 1), to: value })
      .map(({ at, to }) => ({ ...like, [(fields[at] as [string, unknown])[0]]: to }));
  }
  return value;
}

/**
 * One of the valid requests `bases` broken in up to four places: a field set to an edge value of its own type, to
 * any value, or dropped; now and then another known field added, or a value that is no request at all.
 */
export function brokenRequest(bases: ReadonlyArray<Record<string, unknown>>, pools: Pools): fc.Arbitrary<unknown> {
  const value = anyValue(pools);
  const other = fc.constantFrom(...pools.keys, '__proto__', 'constructor');
  const broken = fc.constantFrom(...bases).chain((base) => {
    const own = Object.entries(base).filter(([, v]) => v !== undefined);
    const changes: Array<fc.Arbitrary<{ key: string; value?: unknown; drop?: true }>> = [
      fc.record({ key: other, value }),
    ];
    for (const [key, like] of own) {
      changes.push(
        fc.record({ key: fc.constant(key), value: edgeOf(like, pools, value) }),
        fc.record({ key: fc.constant(key), value: edgeOf(like, pools, value) }),
        fc.record({ key: fc.constant(key), value }),
        fc.record({ key: fc.constant(key), drop: fc.constant(true as const) }),
      );
    }
    // One change most of the time, so that the rest of the request stays valid and the change reaches its check.
    const change = fc.oneof(...changes);
    const list = fc.oneof(
      { weight: 3, arbitrary: change.map((c) => [c]) },
      { weight: 1, arbitrary: fc.array(change, { minLength: 2, maxLength: 4 }) },
    );
    return list.map((list) => {
      const params = copyPlain(base) as Record<string, unknown>;
      for (const c of list) {
        if (c.drop) delete params[c.key];
        // defineProperty: a key named __proto__ becomes an own field, as JSON.parse on the server makes it.
        else
          Object.defineProperty(params, c.key, {
            value: c.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return params;
    });
  });
  return fc.oneof({ weight: 9, arbitrary: broken }, { weight: 1, arbitrary: value });
}

/** A copy of plain objects and arrays, all the way down; anything else (functions, instances) is kept as it is. */
function copyPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyPlain);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyPlain(v)]));
  }
  return value;
}
