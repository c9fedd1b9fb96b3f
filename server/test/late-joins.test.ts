import { describe, expect, it } from 'vitest';
import { LATE_JOIN_WINDOW_MS, LateJoins } from '../src/gateway/late-joins.js';
import { lateChannelJoins } from '../src/gateway/pubsub-handlers.js';
import { SERVER_PUSHES } from '../src/protocol.js';

describe('PUB-9: late joins on several nodes', () => {
  it('leaves out of a broadcast the sockets that joined after its message was stored, and only those', () => {
    const joins = new LateJoins(() => 1000);
    joins.joined('ch:app:news', 's1', 50);
    joins.joined('ch:app:news', 's2', 70);
    joins.joined('ch:app:sport', 's3', 90);
    expect(joins.excluded('ch:app:news', 40)).toEqual(['s1', 's2']);
    expect(joins.excluded('ch:app:news', 50)).toEqual(['s1', 's2']);
    expect(joins.excluded('ch:app:news', 60)).toEqual(['s2']);
    expect(joins.excluded('ch:app:news', 71)).toEqual([]);
    expect(joins.excluded('ch:app:other', 1)).toEqual([]);
    joins.left('ch:app:news', 's2');
    expect(joins.excluded('ch:app:news', 60)).toEqual([]);
    expect(joins.size).toBe(2);
  });

  it('forgets a join after its window, on the room it joined and on any later join', () => {
    let now = 0;
    const joins = new LateJoins(() => now);
    joins.joined('a', 's1', 10);
    joins.joined('b', 's2', 10);
    now = LATE_JOIN_WINDOW_MS + 1;
    expect(joins.excluded('a', 5)).toEqual([]);
    expect(joins.size).toBe(1);
    joins.joined('c', 's3', 10);
    expect(joins.size).toBe(1);
  });

  it('the adapter filter reads the time of channel messages only, sent to one channel room', () => {
    const joins = new LateJoins(() => 0);
    joins.joined('ch:app:news', 's1', 50);
    const filter = lateChannelJoins(joins);
    const message = { n: 'news', c: 'old', t: 40, i: 'g', a: false };
    expect(filter(['ch:app:news'], [SERVER_PUSHES.message, message])).toEqual(['s1']);
    expect(filter(['ch:app:news'], [SERVER_PUSHES.message, { ...message, t: 51 }])).toEqual([]);
    expect(filter(['ch:app:news', 'other'], [SERVER_PUSHES.message, message])).toEqual([]);
    expect(filter(['ch:app:news'], ['somethingElse', message])).toEqual([]);
    expect(filter(['ch:app:news'], [SERVER_PUSHES.message, { c: 'no time' }])).toEqual([]);
  });
});
