import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compare, ConversationStore, newConversation, refOf } from '../../src/modules/im/conversations.js';
import { HistoryCache } from '../../src/modules/im/history-cache.js';
import { RecentIds } from '../../src/core/recent-ids.js';
import { copyMessage } from '../../src/modules/im/message.js';
import {
  keyOf,
  type Conversation,
  type GroupMessage,
  type Message,
  type PrivateMessage,
} from '../../src/modules/im/types.js';
import { LIMITS } from '../../src/protocol/index.js';

function message(id: string, timestamp: number, status: Message['status'] = 'success'): PrivateMessage {
  return {
    scene: 'private',
    messageId: id,
    type: 'text',
    timestamp,
    senderId: 'a',
    receiverId: 'b',
    payload: { text: id },
    status,
    recalled: false,
    read: false,
  };
}

/** Ids as this SDK makes them (32 hexadecimal digits, which the cache keeps as words) and as other clients may. */
function idOf(n: number): string {
  return n % 3 === 0 ? `m${n}` : n.toString(16).padStart(32, '0');
}

/** The message with this id among those the cache holds. */
function held(cache: HistoryCache, messageId: string): Message | undefined {
  return cache.all().find((m) => m.messageId === messageId);
}

describe('history cache', () => {
  it('IMC-10: lets go of a message as soon as it is trimmed, not when the array is next compacted', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const cache = new HistoryCache(2);
    const trimmed = new WeakRef(message('old', 1));
    cache.add(trimmed.deref() as Message);
    cache.add(message('m2', 2));
    cache.add(message('m3', 3));
    // A WeakRef's target lives until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(trimmed.deref()).toBeUndefined();
    expect(cache.all().map((m) => m.messageId)).toEqual(['m2', 'm3']);
  });

  it('IMC-10: keeps the newest 200 messages of a conversation, oldest first', () => {
    const cache = new HistoryCache(LIMITS.conversationCacheMessages);
    for (let i = 1; i <= 250; i++) cache.put(message(`m${i}`, i));
    expect(cache.size).toBe(200);
    expect(cache.all()[0]?.messageId).toBe('m51');
    expect(cache.all().at(-1)?.messageId).toBe('m250');
    expect(cache.complete).toBe(false);
  });

  it('IMC-10: sorts by server time; unsent messages stay last in send order', () => {
    const cache = new HistoryCache(10);
    cache.put(message('late', 30));
    cache.put(message('sending', 5, 'sending'));
    cache.put(message('early', 10));
    cache.put(message('failed', 1, 'fail'));
    expect(cache.all().map((m) => m.messageId)).toEqual(['early', 'late', 'failed', 'sending']);
    cache.put({ ...message('sending', 40) });
    expect(cache.all().map((m) => m.messageId)).toEqual(['early', 'late', 'sending', 'failed']);
  });

  it('IMC-5: a page prepends without duplicates; read offsets only move forward', () => {
    const cache = new HistoryCache(10);
    cache.put(message('m3', 3));
    cache.prepend([message('m1', 1), message('m2', 2), message('m3', 3)], true);
    expect(cache.all().map((m) => m.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect(cache.complete).toBe(true);
    expect(cache.advanceOffset('b', 5)).toBe(true);
    expect(cache.advanceOffset('b', 4)).toBe(false);
    expect(cache.offsets.get('b')).toBe(5);
  });
});

describe('history cache deletions', () => {
  it('IMC-7: remembers the times of deleted messages through a reset, the latest 1 000', () => {
    const cache = new HistoryCache(LIMITS.conversationCacheMessages);
    expect(cache.wasDeleted(5)).toBe(false);
    cache.deleted([5, 7]);
    cache.reset();
    expect([5, 6, 7].map((ts) => cache.wasDeleted(ts))).toEqual([true, false, true]);
    // Deleting 5 again makes it the latest: 7 is the first to go once a thousand more are deleted.
    cache.deleted([5]);
    cache.deleted(Array.from({ length: 999 }, (_, i) => 100 + i));
    expect([5, 7, 100, 1098].map((ts) => cache.wasDeleted(ts))).toEqual([true, false, true, true]);
  });
});

describe('history cache lookups', () => {
  it('IMC-10: finds by id exactly what it holds, through trims, replacements, updates and removals', () => {
    const cache = new HistoryCache(3);
    for (let i = 1; i <= 4; i++) cache.put(message(`m${i}`, i));
    // m1 was trimmed away: not found, and putting it again is a new message, not a duplicate.
    expect(held(cache, 'm1')).toBeUndefined();
    expect(held(cache, 'm4')?.timestamp).toBe(4);
    // A replacement (the ack of a sending message) is found in its new form and held once.
    cache.put(message('m5', 0, 'sending'));
    expect(held(cache, 'm5')?.status).toBe('sending');
    cache.put(message('m5', 9));
    expect(held(cache, 'm5')).toMatchObject({ status: 'success', timestamp: 9 });
    expect(cache.all().map((m) => m.messageId)).toEqual(['m3', 'm4', 'm5']);
    expect(cache.put(message('m5', 9), false)).toBe(false);
    cache.update((m) => (m.messageId === 'm4' ? { ...m, recalled: true } : undefined));
    expect(held(cache, 'm4')?.recalled).toBe(true);
    cache.remove(['m3']);
    expect(held(cache, 'm3')).toBeUndefined();
    expect(cache.put(message('m3', 3), false)).toBe(true);
    cache.reset();
    expect(held(cache, 'm5')).toBeUndefined();
    cache.prepend([message('p1', 1), message('p2', 2)], true);
    expect(held(cache, 'p2')?.timestamp).toBe(2);
  });
});

describe('history cache against a plain model', () => {
  /** What the cache must behave like: a sorted list, trimmed from the front to its capacity at once. */
  class Model {
    messages: Message[] = [];
    constructor(readonly capacity: number) {}
    put(m: Message) {
      this.messages = this.messages.filter((x) => x.messageId !== m.messageId);
      this.messages.push(m);
      this.messages = [...this.messages].sort(
        (a, b) => (a.status === 'success' ? 0 : 1) - (b.status === 'success' ? 0 : 1) || a.timestamp - b.timestamp,
      );
      this.messages = this.messages.slice(-this.capacity);
    }
    remove(ids: string[]) {
      this.messages = this.messages.filter((m) => !ids.includes(m.messageId));
    }
  }
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('put' as const),
      id: fc.integer({ min: 0, max: 400 }),
      ts: fc.integer({ min: 1, max: 1e6 }),
      sent: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 400 }) }),
    fc.record({ kind: fc.constant('read' as const) }),
  );

  it('IMC-10: puts, removals and reads agree with the model through many trims', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 600 }), fc.integer({ min: 1, max: 90 }), (ops, capacity) => {
        const cache = new HistoryCache(capacity);
        const model = new Model(capacity);
        for (const o of ops) {
          if (o.kind === 'put') {
            const m = message(`m${o.id}`, o.ts, o.sent ? 'success' : 'sending');
            cache.put(m);
            model.put(m);
          } else if (o.kind === 'remove') {
            cache.remove([`m${o.id}`]);
            model.remove([`m${o.id}`]);
          }
          // Reads that do not go through all() must see the same window as all().
          expect(cache.size).toBe(model.messages.length);
          expect(cache.last()?.messageId).toBe(model.messages.at(-1)?.messageId);
          expect(cache.oldestSuccessTime()).toBe(model.messages.find((m) => m.status === 'success')?.timestamp ?? 0);
          expect(cache.newestSuccessTime()).toBe(
            model.messages.filter((m) => m.status === 'success').at(-1)?.timestamp ?? 0,
          );
          const probe = `m${o.kind === 'read' ? 0 : o.id}`;
          expect(held(cache, probe)?.messageId).toBe(model.messages.find((m) => m.messageId === probe)?.messageId);
          if (o.kind === 'read')
            expect(cache.all().map((m) => m.messageId)).toEqual(model.messages.map((m) => m.messageId));
        }
        expect(cache.all().map((m) => m.messageId)).toEqual(model.messages.map((m) => m.messageId));
      }),
      { numRuns: 300 },
    );
  });

  it('IMC-10: holds() finds a message by id as a scan would, where every acknowledged id keeps one server time', () => {
    // As on the wire: a message's server time never changes, and no two of a conversation share one; unsent
    // messages carry a local time that may be anything.
    const serverTime = (id: number) => 1_000 + id * 7;
    const step = fc.record({
      kind: fc.constantFrom('put', 'add', 'remove', 'ack'),
      id: fc.integer({ min: 0, max: 120 }),
      local: fc.integer({ min: 1, max: 2_000 }),
      probe: fc.integer({ min: 0, max: 120 }),
      sent: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 20, maxLength: 400 }),
        fc.integer({ min: 1, max: 60 }),
        (steps, capacity) => {
          const cache = new HistoryCache(capacity);
          const model = new Model(capacity);
          const heldIds = () => new Set(model.messages.map((m) => m.messageId));
          for (const s of steps) {
            const id = idOf(s.id);
            if (s.kind === 'remove') {
              cache.remove([id]);
              model.remove([id]);
            } else if (s.kind === 'ack') {
              // An unsent message is acknowledged: replaced by its acknowledged form.
              const m = message(id, serverTime(s.id));
              cache.put(m);
              model.put(m);
            } else {
              // add() takes a pushed (acknowledged) message that holds() said is not held, as deliveries do.
              const m = s.sent || s.kind === 'add' ? message(id, serverTime(s.id)) : message(id, s.local, 'sending');
              if (s.kind === 'put') cache.put(m);
              else if (!cache.holds(m)) cache.add(m);
              if (s.kind === 'put' || !heldIds().has(id)) model.put(m);
            }
            expect(cache.all().map((m) => m.messageId)).toEqual(model.messages.map((m) => m.messageId));
            const ids = heldIds();
            for (const probe of [
              message(idOf(s.probe), serverTime(s.probe)),
              message(idOf(s.probe), s.local, 'sending'),
            ])
              expect(cache.holds(probe)).toBe(
                ids.has(probe.messageId) &&
                  (probe.status === 'success' ||
                    model.messages.some((m) => m.messageId === probe.messageId && m.status !== 'success')),
              );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** A message without its id and time, of any scene. */
type Unplaced = Message extends infer M ? (M extends Message ? Omit<M, 'messageId' | 'timestamp'> : never) : never;

describe('history cache packing', () => {
  /** A message of any layout the cache may hold: group, private or customer service, recalled or read or not. */
  const anyMessage = fc
    .record({
      scene: fc.constantFrom('group', 'private', 'cs'),
      sender: fc.constantFrom('me', 'a', 'b'),
      type: fc.constantFrom('text', 'image', 'vote'),
      text: fc.string({ maxLength: 8 }),
      payload: fc.constantFrom('text', 'more', 'string', 'number', 'bare'),
      recalled: fc.boolean(),
      recaller: fc.boolean(),
      read: fc.boolean(),
      status: fc.constantFrom<Message['status']>('success', 'success', 'success', 'sending', 'fail'),
    })
    .map((f): Unplaced => {
      const base = {
        type: f.type,
        senderId: f.sender,
        payload: {
          text: { text: f.text },
          more: { text: f.text, size: 1 },
          string: f.text,
          number: 7,
          bare: Object.assign(Object.create(null) as object, { text: f.text }),
        }[f.payload],
        status: f.status,
        recalled: f.recalled,
        ...(f.recalled && f.recaller ? { recaller: { id: 'admin', data: { role: 'owner' } } } : {}),
      };
      if (f.scene === 'group') return { ...base, scene: 'group', groupId: 'g1', senderData: { name: f.sender } };
      if (f.scene === 'private')
        return { ...base, scene: 'private', receiverId: f.sender === 'me' ? 'a' : 'me', read: f.read };
      return { ...base, scene: 'cs', to: 't1', teamId: 't1', senderData: {}, accepted: f.read };
    });
  const step = fc.record({
    kind: fc.constantFrom('put', 'put', 'put', 'remove', 'recall', 'prepend'),
    id: fc.integer({ min: 0, max: 150 }),
    message: anyMessage,
  });
  const orderOf = (a: Message, b: Message) =>
    (a.status === 'success' ? 0 : 1) - (b.status === 'success' ? 0 : 1) || a.timestamp - b.timestamp;

  it('IMC-10: reads back every message as it was put, whatever its layout, through packing, trims and changes', () => {
    // Acknowledged messages keep one server time each, as on the wire; unsent ones carry a local time.
    const serverTime = (id: number) => 1_000 + id * 7;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 20, maxLength: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (steps, capacity) => {
          const cache = new HistoryCache(capacity);
          let model: Message[] = [];
          const trim = () => {
            model = model.slice(-capacity);
          };
          for (const s of steps) {
            const id = idOf(s.id);
            const timestamp = s.message.status === 'success' ? serverTime(s.id) : 5_000 + s.id;
            const m = { ...s.message, messageId: id, timestamp };
            if (s.kind === 'put') {
              cache.put(m);
              model = [...model.filter((x) => x.messageId !== id), m].sort(orderOf);
              trim();
            } else if (s.kind === 'remove') {
              expect(cache.remove([id])).toEqual(model.filter((x) => x.messageId === id));
              model = model.filter((x) => x.messageId !== id);
            } else if (s.kind === 'recall') {
              const recall = (x: Message) =>
                x.messageId === id && !x.recalled
                  ? { ...x, recalled: true, recaller: { id: 'me', data: {} } }
                  : undefined;
              const changed = cache.update(recall);
              expect(changed).toEqual(model.map(recall).filter((x) => x !== undefined));
              model = model.map((x) => recall(x) ?? x);
            } else if (m.status === 'success') {
              // A page of older history: ids not held yet come in before those held.
              cache.prepend([m], false);
              if (!model.some((x) => x.messageId === id)) model = [m, ...model].sort(orderOf);
              trim();
            }
            expect(cache.all()).toEqual(model);
            expect(cache.size).toBe(model.length);
            expect(cache.last()).toEqual(model.at(-1));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('IMC-10: a packed message reads back in the one layout its scene has', () => {
    const cache = new HistoryCache(50);
    for (let i = 1; i <= 30; i++) {
      const group: GroupMessage = {
        messageId: `g${i}`,
        type: 'text',
        timestamp: i * 2,
        senderId: 'a',
        payload: { text: 'hi' },
        status: 'success',
        recalled: false,
        scene: 'group',
        groupId: 'g1',
        senderData: {},
      };
      cache.add(group);
      cache.add(copyMessage(message(`p${i}`, i * 2 + 1)));
    }
    for (const m of cache.all()) expect(Object.keys(m)).toEqual(Object.keys(copyMessage(m)));
  });

  it('IMC-10: keeps no object of an acknowledged message once newer ones come', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const cache = new HistoryCache(LIMITS.conversationCacheMessages);
    const first = new WeakRef(message('first', 1));
    cache.add(first.deref() as Message);
    for (let i = 2; i <= 20; i++) cache.add(message(`m${i}`, i));
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    // Still held, as its fields: the object it came as is free to go.
    expect(first.deref()).toBeUndefined();
    expect(cache.all()[0]).toEqual(message('first', 1));
    expect(cache.holds(message('first', 1))).toBe(true);
  });

  it('IMC-10: keeps the text of a text message, not its payload object', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const cache = new HistoryCache(LIMITS.conversationCacheMessages);
    const payload = new WeakRef({ text: 'kept as text' });
    cache.add({ ...message('first', 1), payload: payload.deref() });
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(payload.deref()).toBeUndefined();
    expect(cache.all()[0]?.payload).toEqual({ text: 'kept as text' });
  });

  it('IMC-6: counts unread messages as a scan of the cache would', () => {
    fc.assert(
      fc.property(
        fc.array(anyMessage, { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 0, max: 130 }),
        (messages, offsetAt) => {
          const cache = new HistoryCache(LIMITS.conversationCacheMessages);
          messages.forEach((m, i) => cache.put({ ...m, messageId: `m${i}`, timestamp: i + 1 }));
          const offset = offsetAt;
          const scan = cache
            .all()
            .filter((m) => m.status === 'success' && m.timestamp > offset && m.senderId !== 'me' && !m.recalled).length;
          expect(cache.countUnread(offset, 'me')).toBe(scan);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('IMC-10: a late acknowledged message older than those packed takes its place among them', () => {
    const cache = new HistoryCache(LIMITS.conversationCacheMessages);
    for (let i = 1; i <= 40; i++) cache.add(message(`m${i * 10}`, i * 10));
    cache.add(message('late', 55));
    const ids = cache.all().map((m) => m.messageId);
    expect(ids.slice(4, 7)).toEqual(['m50', 'late', 'm60']);
    expect(cache.holds(message('late', 55))).toBe(true);
    expect(cache.findByTimes([55, 60]).map((m) => m.messageId)).toEqual(['late', 'm60']);
    expect(cache.oldestSuccessTime()).toBe(10);
    expect(cache.newestSuccessTime()).toBe(400);
  });
});

describe('recent ids', () => {
  it('IMC-11: remembers the last 300 ids', () => {
    const recent = new RecentIds(LIMITS.dedupeWindow);
    for (let i = 0; i < 301; i++) expect(recent.add(`id${i}`)).toBe(true);
    expect(recent.size).toBe(300);
    expect(recent.add('id300')).toBe(false);
    expect(recent.has('id0')).toBe(false);
    expect(recent.add('id0')).toBe(true);
  });

  it('IMC-11: after many rounds it holds exactly the newest 300', () => {
    const recent = new RecentIds(LIMITS.dedupeWindow);
    for (let i = 0; i < 1000; i++) recent.add(`id${i}`);
    expect(recent.size).toBe(300);
    for (let i = 0; i < 700; i++) expect(recent.has(`id${i}`)).toBe(false);
    for (let i = 700; i < 1000; i++) expect(recent.add(`id${i}`)).toBe(false);
  });

  it('IMC-11: answers as a list of the newest ids would, whatever the ids, repeats and capacity', () => {
    // Few distinct ids and small capacities: long probe runs, evictions inside them, ids coming back after leaving.
    const step = fc.tuple(fc.nat({ max: 60 }), fc.nat({ max: 60 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(step, { maxLength: 400 }), (capacity, steps) => {
        const recent = new RecentIds(capacity);
        const newest: string[] = [];
        for (const [added, probed] of steps) {
          const id = `m${added}`;
          const fresh = !newest.includes(id);
          expect(recent.add(id)).toBe(fresh);
          if (fresh) newest.push(id);
          if (newest.length > capacity) newest.shift();
          expect(recent.has(`m${probed}`)).toBe(newest.includes(`m${probed}`));
          expect(recent.size).toBe(newest.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('conversation list', () => {
  it('IMC-12: pinned first, then newest last message; unread total', () => {
    const store = new ConversationStore();
    store.put({ ...newConversation({ type: 'private', id: 'old' }, message('a', 1), {}), unread: 2 });
    store.put({ ...newConversation({ type: 'private', id: 'new' }, message('b', 3), {}), unread: 1 });
    store.put({ ...newConversation({ type: 'group', id: 'pinned' }, message('c', 2), {}), top: true });
    const { conversations, unreadTotal } = store.snapshot();
    expect(conversations.map((c) => c.userId ?? c.groupId)).toEqual(['pinned', 'new', 'old']);
    expect(unreadTotal).toBe(3);
    expect(store.snapshot()).toBe(store.snapshot());
  });

  it('IMC-12: keeps at most 200 conversations, dropping the oldest', () => {
    const store = new ConversationStore();
    for (let i = 1; i <= 210; i++)
      store.put(newConversation({ type: 'private', id: `u${i}` }, message(`m${i}`, i), {}));
    const { conversations } = store.snapshot();
    expect(conversations).toHaveLength(200);
    expect(conversations.at(-1)?.userId).toBe('u11');
    expect(store.get({ type: 'private', id: 'u5' })).toBeUndefined();
  });

  /** The list as a full sort of every conversation in the order first listed would give it, after every change. */
  class SortedModel {
    readonly byKey = new Map<string, Conversation>();
    put(c: Conversation) {
      this.byKey.set(keyOf(refOf(c)), c);
      this.trim();
    }
    replaceAll(list: readonly Conversation[]) {
      this.byKey.clear();
      for (const c of list) this.byKey.set(keyOf(refOf(c)), c);
      this.trim();
    }
    snapshot() {
      return [...this.byKey.values()].sort(compare);
    }
    trim() {
      const keep = new Set(
        this.snapshot()
          .slice(0, LIMITS.conversationListMax)
          .map((c) => keyOf(refOf(c))),
      );
      for (const key of [...this.byKey.keys()]) if (!keep.has(key)) this.byKey.delete(key);
    }
  }

  /** A conversation with user `u<id>`, its last message at `ts`. */
  const listed = (id: number, ts: number, top = false, unread = id % 3): Conversation => ({
    ...newConversation({ type: 'private', id: `u${id}` }, message(`m${id}-${ts}`, ts), {}),
    top,
    unread,
  });
  /** Few times and pins, so that ties come up; ids up to `maxId`. */
  const conversationOf = (maxId: number) =>
    fc
      .record({ id: fc.integer({ min: 0, max: maxId }), ts: fc.integer({ min: 0, max: 6 }), top: fc.boolean() })
      .map(({ id, ts, top }) => listed(id, ts, top));
  /** Updates and removals mostly name a listed conversation (`pick` indexes them), now and then one that is not. */
  const target = fc.record({ pick: fc.nat(), listed: fc.boolean() });
  const changeOf = (maxId: number) =>
    fc.oneof(
      { arbitrary: fc.record({ put: conversationOf(maxId) }), weight: 4 },
      { arbitrary: fc.record({ update: target, ts: fc.integer({ min: 0, max: 9 }), top: fc.boolean() }), weight: 4 },
      { arbitrary: fc.record({ remove: target }), weight: 1 },
      { arbitrary: fc.record({ replaceAll: fc.array(conversationOf(maxId), { maxLength: 8 }) }), weight: 1 },
    );
  type Change =
    | { put: Conversation }
    | { update: { pick: number; listed: boolean }; ts: number; top: boolean }
    | { remove: { pick: number; listed: boolean } }
    | { replaceAll: Conversation[] };

  /** Applies `changes` to the store and the model alike; after each, both lists and totals must agree. */
  const agree = (initial: readonly Conversation[], changes: readonly Change[]) => {
    const store = new ConversationStore();
    const model = new SortedModel();
    store.replaceAll(initial);
    model.replaceAll(initial);
    const refTo = ({ pick, listed }: { pick: number; listed: boolean }) => {
      const ids = [...model.byKey.values()].map((c) => c.userId as string);
      const id = listed && ids.length > 0 ? (ids[pick % ids.length] as string) : `u${pick % 300}`;
      return { type: 'private', id } as const;
    };
    const check = () => {
      const { conversations, unreadTotal } = store.snapshot();
      const expected = model.snapshot();
      expect(conversations).toEqual(expected);
      expect(unreadTotal).toBe(expected.reduce((sum, c) => sum + c.unread, 0));
    };
    check();
    for (const c of changes) {
      if ('put' in c) {
        store.put(c.put);
        model.put(c.put);
      } else if ('update' in c) {
        const ref = refTo(c.update);
        const move = (old: Conversation): Conversation => ({
          ...old,
          top: c.top,
          lastMessage: message(`m${ref.id}-${c.ts}`, c.ts),
          unread: old.unread + 1,
        });
        const before = model.byKey.get(keyOf(ref));
        expect(store.update(ref, move)).toBe(before !== undefined);
        if (before) model.put(move(before));
      } else if ('remove' in c) {
        const ref = refTo(c.remove);
        expect(store.remove(ref)).toBe(model.byKey.delete(keyOf(ref)));
      } else {
        store.replaceAll(c.replaceAll);
        model.replaceAll(c.replaceAll);
      }
      check();
    }
  };

  it('IMC-12: keeps the order a full sort gives through any changes, ties in the order first listed', () => {
    fc.assert(
      fc.property(fc.array(changeOf(20), { maxLength: 60 }), (changes) => agree([], changes)),
      { numRuns: 300 },
    );
  });

  it('IMC-12: a full list drops the lowest ranked as conversations come and move, ties the last listed', () => {
    const full = fc.uniqueArray(conversationOf(299), {
      minLength: LIMITS.conversationListMax - 2,
      maxLength: LIMITS.conversationListMax + 20,
      selector: (c) => c.userId,
    });
    fc.assert(
      fc.property(full, fc.array(changeOf(299), { maxLength: 30 }), (initial, changes) => agree(initial, changes)),
      { numRuns: 100 },
    );
    // Every conversation at the same time: the first 200 listed stay.
    const store = new ConversationStore();
    for (let i = 0; i < LIMITS.conversationListMax + 5; i++) store.put(listed(i, 7));
    const ids = store.snapshot().conversations.map((c) => c.userId);
    expect(ids).toEqual(Array.from({ length: LIMITS.conversationListMax }, (_, i) => `u${i}`));
  });
});
