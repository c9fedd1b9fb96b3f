import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { openStore, type Store } from '../src/store/index.js';
import { LaterWrites } from '../src/store/later-writes.js';
import { migrationProvider } from '../src/store/migrations.js';
import type { Database } from '../src/store/schema.js';
import { withStatementCache } from '../src/store/statement-cache.js';
import { createSyncSqlite } from '../src/store/sync-sqlite.js';
import type { SendParams } from '../src/store/im.js';

const STORE_MODULE = fileURLToPath(new URL('../src/store/index.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const dirs: string[] = [];
const stores: Store[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-sender-reads-'));
  dirs.push(dir);
  return join(dir, 'store.db');
}

async function open(file: string): Promise<Store> {
  const store = await openStore({ sqlite: file, dataDir: tmpdir(), databaseUrl: undefined, databaseSchema: undefined });
  stores.push(store);
  return store;
}

/** What the file holds, read on a connection of its own. */
function inFile(file: string, query: string): Array<Record<string, unknown>> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare(query).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

const storedOffsets = (file: string) =>
  inFile(file, 'select conv_key, user_id, read_ts from im_read_offsets order by conv_key, user_id');
const storedHeads = (file: string) =>
  inFile(file, 'select conv_key, last_ts, data from im_conversation_heads order by conv_key');

/** Later writes on a migrated in-memory store, closed (its timer stopped) after the test. */
async function laterOnMemory() {
  const raw = new BetterSqlite3(':memory:');
  const cached = withStatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  expect((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error).toBeUndefined();
  const errors: unknown[] = [];
  const later = new LaterWrites(createSyncSqlite(cached), (err) => errors.push(err));
  later.recover();
  cleanups.push(() => {
    later.close();
    raw.close();
    expect(errors).toEqual([]);
  });
  return { raw, later };
}

const groupSend = (messageId: string, senderId: string, now: number, data: string | null = null): SendParams => ({
  message: {
    appkey: 'app',
    convKey: 'group:g1',
    scene: 'group',
    messageId,
    senderId,
    targetId: 'g1',
    type: 'text',
    payload: '{"text":"hi"}',
    senderData: '{}',
  },
  now,
  rows: [
    { ownerId: 'u1', targetId: 'g1', data },
    { ownerId: 'u2', targetId: 'g1', data },
  ],
  readerId: senderId,
  stored: () => undefined,
});

/** A private message from `senderId` to `targetId` with the sender's user data, as the message service sends it. */
const privateSend = (messageId: string, senderId: string, targetId: string, now: number, senderData: string) => ({
  message: {
    appkey: 'app',
    convKey: `private:${[senderId, targetId].sort().join(':')}`,
    scene: 'private' as const,
    messageId,
    senderId,
    targetId,
    type: 'text',
    payload: '{"text":"hi"}',
    senderData,
  },
  now,
  rows: [
    { ownerId: senderId, targetId, data: null },
    { ownerId: targetId, targetId: senderId, data: senderData },
  ],
  readerId: senderId,
  stored: () => undefined,
});

const storedRows = (file: string) =>
  inFile(file, 'select owner_id, target_id, removed, data, last_ts from im_conversations order by owner_id, target_id');

describe("SQLite's later writes: senders' read offsets (IM-7) and conversations' head times (IM-6)", () => {
  it('answers read offsets at once, and writes them within a second, each once', async () => {
    const file = tempFile();
    const store = await open(file);
    await store.messages.send(groupSend('m1', 'u1', 1000));
    await store.messages.send(groupSend('m2', 'u2', 2000));
    await store.messages.send(groupSend('m3', 'u1', 3000));
    expect(await store.messages.readOffsets('app', 'group:g1', ['u1', 'u2', 'u3'])).toEqual([
      { userId: 'u1', offset: 3000 },
      { userId: 'u2', offset: 2000 },
    ]);
    // Marking read below what a send raised keeps the higher offset, as it always did.
    expect(await store.messages.raiseReadOffset({ appkey: 'app', convKey: 'group:g1', userId: 'u2', ts: 1500 })).toBe(
      2000,
    );
    // Not in the file yet: that is the write each send no longer makes.
    expect(storedOffsets(file).filter((o) => o.user_id === 'u1')).toEqual([]);
    await vi.waitFor(
      () =>
        expect(storedOffsets(file)).toEqual([
          { conv_key: 'group:g1', user_id: 'u1', read_ts: 3000 },
          { conv_key: 'group:g1', user_id: 'u2', read_ts: 2000 },
        ]),
      { timeout: 3000, interval: 100 },
    );
    expect(await store.messages.readOffsets('app', 'group:g1', ['u1'])).toEqual([{ userId: 'u1', offset: 3000 }]);
  });

  it('writes read offsets when the store closes', async () => {
    const file = tempFile();
    const store = await open(file);
    await store.messages.send(groupSend('m1', 'u1', 1000));
    await store.close();
    expect(storedOffsets(file)).toEqual([{ conv_key: 'group:g1', user_id: 'u1', read_ts: 1000 }]);
    const again = await open(file);
    expect(await again.messages.readOffsets('app', 'group:g1', ['u1'])).toEqual([{ userId: 'u1', offset: 1000 }]);
  });

  it('moves a head later while its data stays, and writes it before conversations are read', async () => {
    const file = tempFile();
    const store = await open(file);
    // Groups are listed to their members (IM-9).
    await store.groups.join({ appkey: 'app', userId: 'u1', groupIds: ['g1'], now: 1 });
    await store.messages.send(groupSend('m1', 'u1', 1000, '{"name":"g"}'));
    await store.messages.send(groupSend('m2', 'u2', 2000, '{"name":"g"}'));
    // The first message of the group wrote its head with its data; the second left the time for later.
    expect(storedHeads(file)).toEqual([{ conv_key: 'group:g1', last_ts: 1000, data: '{"name":"g"}' }]);
    const listed = await store.conversations.list('app', 'u1', 10);
    expect(listed.map((c) => [c.targetId, c.lastTs, c.data])).toEqual([['g1', 2000, '{"name":"g"}']]);
    expect(storedHeads(file)).toEqual([{ conv_key: 'group:g1', last_ts: 2000, data: '{"name":"g"}' }]);
    // New data is written with its message at once.
    await store.messages.send(groupSend('m3', 'u1', 3000, '{"name":"h"}'));
    expect(storedHeads(file)).toEqual([{ conv_key: 'group:g1', last_ts: 3000, data: '{"name":"h"}' }]);
    await store.messages.send(groupSend('m4', 'u1', 4000, '{"name":"h"}'));
    const found = await store.conversations.find({ appkey: 'app', ownerId: 'u2', scene: 'group', targetId: 'g1' });
    expect([found?.lastTs, found?.data]).toEqual([4000, '{"name":"h"}']);
  });

  it("leaves a private conversation's known rows as they are, moves its head later, and lists it in order", async () => {
    const file = tempFile();
    const store = await open(file);
    await store.messages.send(privateSend('p1', 'alice', 'bob', 1000, '{"n":"A"}'));
    // Bob's own row is new to the store; alice's row gets bob's data: both written.
    await store.messages.send(privateSend('p2', 'bob', 'alice', 2000, '{"n":"B"}'));
    await store.messages.send(privateSend('c1', 'carol', 'bob', 2500, '{"n":"C"}'));
    // Both rows are known, with the data this message would give them: neither is written, and no head yet.
    await store.messages.send(privateSend('p3', 'alice', 'bob', 3000, '{"n":"A"}'));
    expect(storedRows(file)).toEqual([
      { owner_id: 'alice', target_id: 'bob', removed: 0, data: '{"n":"B"}', last_ts: 2000 },
      { owner_id: 'bob', target_id: 'alice', removed: 0, data: '{"n":"A"}', last_ts: 2000 },
      { owner_id: 'bob', target_id: 'carol', removed: 0, data: '{"n":"C"}', last_ts: 2500 },
      { owner_id: 'carol', target_id: 'bob', removed: 0, data: '{}', last_ts: 2500 },
    ]);
    expect(storedHeads(file)).toEqual([]);
    // Listed with the head written first: alice's conversation is the newest again, with her data.
    const listed = await store.conversations.list('app', 'bob', 10);
    expect(listed.map((c) => [c.targetId, c.lastTs, c.data])).toEqual([
      ['alice', 3000, '{"n":"A"}'],
      ['carol', 2500, '{"n":"C"}'],
    ]);
    expect(storedHeads(file)).toEqual([{ conv_key: 'private:alice:bob', last_ts: 3000, data: null }]);
    const found = await store.conversations.find({
      appkey: 'app',
      ownerId: 'alice',
      scene: 'private',
      targetId: 'bob',
    });
    expect([found?.lastTs, found?.data]).toEqual([3000, '{"n":"B"}']);
  });

  it('writes a private row again when its data changes or after it was removed', async () => {
    const file = tempFile();
    const store = await open(file);
    await store.messages.send(privateSend('p1', 'alice', 'bob', 1000, '{"n":"A"}'));
    await store.messages.send(privateSend('p2', 'bob', 'alice', 2000, '{"n":"B"}'));
    // Alice's user data changed: bob's row shows it at once.
    await store.messages.send(privateSend('p3', 'alice', 'bob', 3000, '{"n":"A2"}'));
    const bobsRow = () => storedRows(file).find((r) => r.owner_id === 'bob');
    expect(bobsRow()).toMatchObject({ data: '{"n":"A2"}', last_ts: 3000 });
    // Bob removes the conversation; alice's next message shows it to him again.
    expect(
      await store.conversations.remove({ appkey: 'app', ownerId: 'bob', scene: 'private', targetId: 'alice' }),
    ).toBe(true);
    expect(await store.conversations.list('app', 'bob', 10)).toEqual([]);
    await store.messages.send(privateSend('p4', 'alice', 'bob', 4000, '{"n":"A2"}'));
    expect(bobsRow()).toMatchObject({ removed: 0, last_ts: 4000 });
    expect((await store.conversations.list('app', 'bob', 10)).map((c) => [c.targetId, c.lastTs])).toEqual([
      ['alice', 4000],
    ]);
  });

  it('makes a long backlog a thousand writes a turn, the mark below the oldest write left', async () => {
    const { raw, later } = await laterOnMemory();
    for (let i = 1; i <= 2500; i += 1) {
      later.raiseRead({ appkey: 'app', convKey: `group:g${i % 50}`, userId: `u${i}`, ts: i }, 100 + i);
    }
    const count = () => (raw.prepare('select count(*) as n from im_read_offsets').get() as { n: number }).n;
    const mark = () =>
      (raw.prepare("select value from store_marks where name = 'im_later_writes'").get() as { value: number }).value;
    expect(later.flush(1000)).toBe(true);
    expect([count(), mark()]).toEqual([1000, 1100]);
    // Still answered from memory meanwhile.
    expect(later.readOffset('app', 'group:g0', 'u2500')).toBe(2500);
    await vi.waitFor(() => expect([count(), mark()]).toEqual([2500, 2600]), { timeout: 2000, interval: 10 });
    expect(later.readOffset('app', 'group:g0', 'u2500')).toBeUndefined();
  });

  it('writes a key again after it was written, and marks below the oldest write left among kept and new keys', async () => {
    const { raw, later } = await laterOnMemory();
    const offsets = () =>
      raw.prepare('select user_id, read_ts from im_read_offsets order by user_id').all() as Array<{
        user_id: string;
        read_ts: number;
      }>;
    const mark = () =>
      (raw.prepare("select value from store_marks where name = 'im_later_writes'").get() as { value: number }).value;
    const read = (userId: string, ts: number, rowid: number) =>
      later.raiseRead({ appkey: 'app', convKey: 'group:g1', userId, ts }, rowid);
    read('u1', 10, 1);
    read('u2', 20, 2);
    expect(later.flush()).toBe(true);
    expect(later.readOffset('app', 'group:g1', 'u1')).toBeUndefined();
    // u1 again, and a newcomer: both pending, u1 with its new time.
    read('u3', 30, 3);
    read('u1', 40, 4);
    expect([later.readOffset('app', 'group:g1', 'u1'), later.readOffset('app', 'group:g1', 'u2')]).toEqual([
      40,
      undefined,
    ]);
    // One write a turn: u1's key is the oldest kept, so it goes first, and u3's message (rowid 3) is the oldest left.
    expect(later.flush(1)).toBe(true);
    expect(mark()).toBe(2);
    expect(offsets()).toEqual([
      { user_id: 'u1', read_ts: 40 },
      { user_id: 'u2', read_ts: 20 },
    ]);
    expect(later.flush()).toBe(true);
    expect(mark()).toBe(4);
    expect(offsets()[2]).toEqual({ user_id: 'u3', read_ts: 30 });
    // A pending time only rises; nothing is pending once all is written.
    read('u2', 50, 5);
    read('u2', 45, 6);
    expect(later.readOffset('app', 'group:g1', 'u2')).toBe(50);
    expect(later.flush()).toBe(true);
    expect([offsets()[1], later.readOffset('app', 'group:g1', 'u2'), mark()]).toEqual([
      { user_id: 'u2', read_ts: 50 },
      undefined,
      6,
    ]);
  });

  it('keeps written entries for the next messages, up to 10 000 once nothing is pending', async () => {
    const { later } = await laterOnMemory();
    const raise = (n: number, ts: number) => {
      for (let i = 0; i < n; i += 1) later.raiseRead({ appkey: 'app', convKey: 'group:g1', userId: `u${i}`, ts }, ts);
    };
    raise(10_000, 1);
    expect(later.flush()).toBe(true);
    expect(later.kept).toBe(10_000);
    // The same senders again: their entries serve, none is added.
    raise(10_000, 2);
    expect(later.kept).toBe(10_000);
    expect(later.flush()).toBe(true);
    // One sender more is past the bound: once all is written, the written entries go.
    raise(10_001, 3);
    expect(later.flush(10_000)).toBe(true);
    expect(later.kept).toBe(10_001);
    expect(later.flush()).toBe(true);
    expect(later.kept).toBe(0);
    expect(later.readOffset('app', 'group:g1', 'u10000')).toBeUndefined();
  });

  it('keeps apart ids that would run together', async () => {
    const { later } = await laterOnMemory();
    later.raiseRead({ appkey: 'app', convKey: 'group:g', userId: 'u1', ts: 1 }, 1);
    later.raiseRead({ appkey: 'app', convKey: '1group:g', userId: 'u', ts: 2 }, 2);
    later.raiseRead({ appkey: 'app1', convKey: 'group:g', userId: 'u', ts: 3 }, 3);
    expect([
      later.readOffset('app', 'group:g', 'u1'),
      later.readOffset('app', '1group:g', 'u'),
      later.readOffset('app1', 'group:g', 'u'),
      later.readOffset('app', '1group:g', 'u1'),
    ]).toEqual([1, 2, 3, undefined]);
  });

  it('survives a crash: the next start makes the writes of the messages stored after the mark', async () => {
    const file = tempFile();
    // A server process that stores, has one second's offsets written, stores more, and is killed before the next.
    const script = join(file, '..', 'crash.mts');
    writeFileSync(
      script,
      `import { openStore } from ${JSON.stringify(STORE_MODULE)};
const store = await openStore({ sqlite: ${JSON.stringify(file)}, dataDir: ${JSON.stringify(tmpdir())} });
const send = (messageId, senderId, convKey, targetId, now) =>
  store.messages.send({
    message: { appkey: 'app', convKey, scene: 'group', messageId, senderId, targetId, type: 'text', payload: '{}', senderData: '{}' },
    now,
    rows: [{ ownerId: senderId, targetId, data: '{}' }],
    readerId: senderId,
    stored: () => undefined,
  });
await send('a1', 'u1', 'group:g1', 'g1', 1000);
await store.messages.raiseReadOffset({ appkey: 'app', convKey: 'group:g1', userId: 'u2', ts: 5000 });
await new Promise((resolve) => setTimeout(resolve, 1500));
await send('a2', 'u1', 'group:g1', 'g1', 2000);
await send('a3', 'u2', 'group:g1', 'g1', 3000);
await send('b1', 'u1', 'group:g2', 'g2', 4000);
// A private conversation whose rows are written by its first messages, and whose third message moves only its head.
const sendPrivate = (messageId, senderId, targetId, now) =>
  store.messages.send({
    message: { appkey: 'app', convKey: 'private:u1:u2', scene: 'private', messageId, senderId, targetId, type: 'text', payload: '{}', senderData: '{}' },
    now,
    rows: [{ ownerId: senderId, targetId, data: null }, { ownerId: targetId, targetId: senderId, data: '{}' }],
    readerId: senderId,
    stored: () => undefined,
  });
await sendPrivate('c1', 'u1', 'u2', 5000);
await sendPrivate('c2', 'u2', 'u1', 6000);
await sendPrivate('c3', 'u1', 'u2', 7000);
process.kill(process.pid, 'SIGKILL');
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    // The first second was written; what came after died with the process, but for the new group's head.
    expect(storedOffsets(file)).toEqual([
      { conv_key: 'group:g1', user_id: 'u1', read_ts: 1000 },
      { conv_key: 'group:g1', user_id: 'u2', read_ts: 5000 },
    ]);
    expect(storedHeads(file)).toEqual([
      { conv_key: 'group:g1', last_ts: 1000, data: '{}' },
      { conv_key: 'group:g2', last_ts: 4000, data: '{}' },
    ]);
    const store = await open(file);
    expect(await store.messages.readOffsets('app', 'group:g1', ['u1', 'u2'])).toEqual([
      { userId: 'u1', offset: 2000 },
      // Never lowered: u2 had read past its own message.
      { userId: 'u2', offset: 5000 },
    ]);
    expect(await store.messages.readOffsets('app', 'group:g2', ['u1'])).toEqual([{ userId: 'u1', offset: 4000 }]);
    expect(storedHeads(file)).toEqual([
      { conv_key: 'group:g1', last_ts: 3000, data: '{}' },
      { conv_key: 'group:g2', last_ts: 4000, data: '{}' },
      { conv_key: 'private:u1:u2', last_ts: 7000, data: null },
    ]);
    // Written at start, not only remembered.
    expect(storedOffsets(file)).toEqual([
      { conv_key: 'group:g1', user_id: 'u1', read_ts: 2000 },
      { conv_key: 'group:g1', user_id: 'u2', read_ts: 5000 },
      { conv_key: 'group:g2', user_id: 'u1', read_ts: 4000 },
      { conv_key: 'private:u1:u2', user_id: 'u1', read_ts: 7000 },
      { conv_key: 'private:u1:u2', user_id: 'u2', read_ts: 6000 },
    ]);
    // The private rows kept the time of the message before; listed, the conversation has its newest.
    const privateRows = storedRows(file).filter((r) => String(r.target_id).startsWith('u'));
    expect(privateRows.map((r) => [r.owner_id, r.last_ts])).toEqual([
      ['u1', 6000],
      ['u2', 6000],
    ]);
    expect((await store.conversations.list('app', 'u2', 10)).map((c) => [c.targetId, c.lastTs])).toEqual([
      ['u1', 7000],
    ]);
  });
});
