import { describe, expect, it } from 'vitest';
import { PrivateRows, ShownRows } from '../src/store/shown-rows.js';

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

const row = (ownerId: string, targetId: string, data: string | null) => ({ ownerId, targetId, data });

describe('PrivateRows: private conversation rows known to be there and shown, with their data', () => {
  it("answers for both sides' rows, and only with the data they hold", () => {
    const known = new PrivateRows();
    const send = [row('a', 'b', null), row('b', 'a', '{"name":"A"}')];
    expect(known.allShown('app', send)).toBe(false);
    known.add('app', 'a', 'b', null);
    expect(known.allShown('app', send)).toBe(false);
    known.add('app', 'b', 'a', '{"name":"A"}');
    expect(known.allShown('app', send)).toBe(true);
    // The sender's new user data is for the receiver's row: written.
    expect(known.allShown('app', [row('a', 'b', null), row('b', 'a', '{"name":"A2"}')])).toBe(false);
    // A row whose data was kept holds data not known here: a message giving it data writes it.
    expect(known.allShown('app', [row('a', 'b', '{"d":1}'), row('b', 'a', '{"name":"A"}')])).toBe(false);
    expect(known.allShown('other', send)).toBe(false);
  });

  it('keeps the data it knows when a write keeps the data, and forgets a row that may be hidden', () => {
    const known = new PrivateRows();
    known.add('app', 'a', 'b', '{"d":1}');
    known.add('app', 'a', 'b', null);
    expect(known.allShown('app', [row('a', 'b', '{"d":1}')])).toBe(true);
    known.forget('app', 'a', 'b');
    known.forget('app', 'z', 'b');
    expect(known.allShown('app', [row('a', 'b', null)])).toBe(false);
    expect(known.size).toBe(0);
  });

  it('keeps apart ids that would run together, and starts over past its bound', () => {
    const known = new PrivateRows(2);
    known.add('app', 'ab', 'c', null);
    expect(known.allShown('app', [row('a', 'bc', null)])).toBe(false);
    known.add('app', 'ab', 'c', null);
    known.add('app', 'x', 'y', null);
    expect(known.size).toBe(2);
    known.add('app', 'p', 'q', null);
    expect(known.size).toBe(1);
    expect(known.allShown('app', [row('ab', 'c', null)])).toBe(false);
    expect(known.allShown('app', [row('p', 'q', null)])).toBe(true);
  });
});
