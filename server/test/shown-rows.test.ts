import { describe, expect, it } from 'vitest';
import { ShownRows } from '../src/store/shown-rows.js';

const rows = (...owners: string[]) => owners.map((ownerId) => ({ ownerId }));

describe('ShownRows: group conversation rows known to be there and shown', () => {
  it("answers for all of a group message's members at once, in their order, per app and group", () => {
    const shown = new ShownRows();
    expect(shown.missing('app', 'g1', rows('a', 'b', 'c'))).toEqual(rows('a', 'b', 'c'));
    shown.add('app', 'a', 'g1');
    shown.add('app', 'c', 'g1');
    expect(shown.missing('app', 'g1', rows('a', 'b', 'c'))).toEqual(rows('b'));
    expect(shown.missing('app', 'g2', rows('a'))).toEqual(rows('a'));
    expect(shown.missing('other', 'g1', rows('a'))).toEqual(rows('a'));
  });

  it('forgets a row that may be hidden, and only that one', () => {
    const shown = new ShownRows();
    shown.add('app', 'a', 'g1');
    shown.add('app', 'b', 'g1');
    shown.forget('app', 'a', 'g1');
    shown.forget('app', 'z', 'g1');
    expect(shown.missing('app', 'g1', rows('a', 'b'))).toEqual(rows('a'));
    shown.forget('app', 'b', 'g1');
    expect(shown.missing('app', 'g1', rows('a', 'b'))).toEqual(rows('a', 'b'));
  });

  it('starts over past its bound, counting each row once', () => {
    const shown = new ShownRows(2);
    shown.add('app', 'a', 'g1');
    shown.add('app', 'a', 'g1');
    shown.add('app', 'b', 'g1');
    expect(shown.missing('app', 'g1', rows('a', 'b'))).toEqual([]);
    shown.add('app', 'c', 'g1');
    expect(shown.missing('app', 'g1', rows('a', 'b', 'c'))).toEqual(rows('a', 'b'));
  });
});
