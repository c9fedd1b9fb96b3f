import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createConversationStore } from '../src/store/conversations.js';
import { createMessageStore, type NewMessage, type SendParams } from '../src/store/im.js';
import { LaterWrites } from '../src/store/later-writes.js';
import { migrationProvider } from '../src/store/migrations.js';
import { PrivateRows } from '../src/store/shown-rows.js';
import type { Database } from '../src/store/schema.js';
import { withStatementCache } from '../src/store/statement-cache.js';
import { createSyncSqlite } from '../src/store/sync-sqlite.js';
import { newMessage, sendParams } from './store-support.js';

/** The SQLite message store over a connection the test can also hold an asynchronous transaction on. */
async function setup() {
  const raw = new BetterSqlite3(':memory:');
  const cached = withStatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  const migrated = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  expect(migrated.error).toBeUndefined();
  const messages = createMessageStore(db, 'sqlite', createConversationStore(db), createSyncSqlite(cached));
  /** Holds the connection in an asynchronous transaction (someone else's) until `release` is called. */
  const hold = async () => {
    let release = () => undefined as void;
    const held = db.transaction().execute(async (trx) => {
      await trx.selectFrom('im_messages').select('ts').execute();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await turn();
    return () => {
      release();
      return held;
    };
  };
  return { raw, messages, hold };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The SQLite message store with its later writes and known rows, as a server has it. */
async function withLaterWrites() {
  const raw = new BetterSqlite3(':memory:');
  const cached = withStatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  expect((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error).toBeUndefined();
  const sync = createSyncSqlite(cached);
  const later = new LaterWrites(sync, (err) => {
    throw err;
  });
  later.recover();
  const privateRows = new PrivateRows();
  const conversations = createConversationStore(db, undefined, later, privateRows);
  const messages = createMessageStore(db, 'sqlite', conversations, sync, undefined, later, privateRows);
  /** Sends while an asynchronous transaction holds the connection: the send goes the slow way, after it. */
  const slowly = async (params: SendParams) => {
    let release = () => undefined as void;
    const held = db.transaction().execute(async (trx) => {
      await trx.selectFrom('im_messages').select('ts').execute();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setImmediate(resolve));
    const slow = messages.send(params);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await held;
    return slow;
  };
  return { raw, messages, later, slowly };
}

const message = (messageId: string): NewMessage => newMessage({ convKey: 'g:g1', messageId });

const send = (messageId: string, now: number): SendParams => sendParams(message(messageId), { now });

describe('the SQLite message store', () => {
  it('keeps timestamps strictly increasing when a send between fast ones had to go the slow way', async () => {
    const { raw, messages } = await setup();
    const first = await messages.send(send('m1', 1000));
    // A read transaction of someone else holds the connection: the next append takes the Kysely path.
    raw.exec('begin');
    raw.prepare('select count(*) from im_messages').get();
    const slow = messages.append(message('m2'), 5000);
    raw.exec('commit');
    const second = await slow;
    // The clock is behind the slow append's time: only the table knows 5000 was taken.
    const third = await messages.send(send('m3', 2000));
    expect([first.message.ts, second.message.ts, third.message.ts]).toEqual([1000, 5000, 5001]);
  });

  it('stores and reports sends in the order they came, a later batch after those that had to go the slow way', async () => {
    const { messages, hold } = await setup();
    const stored: string[] = [];
    const tracked = (messageId: string) =>
      sendParams(message(messageId), { now: 1000, stored: (m) => stored.push(m.messageId) });
    const release = await hold();
    const first = messages.send(tracked('m1'));
    await turn();
    await release();
    const second = messages.send(tracked('m2'));
    const third = messages.send(tracked('m3'));
    const times = (await Promise.all([first, second, third])).map((r) => r.message.ts);
    expect(stored).toEqual(['m1', 'm2', 'm3']);
    expect(times).toEqual([1000, 1001, 1002]);
    expect(messages.sendsInCallOrder).toBe(true);
  });

  it('IM-8: shows a message stored the slow way to a page only once its push has gone', async () => {
    const { messages, hold } = await setup();
    const stored: string[] = [];
    const release = await hold();
    const sent = messages.send(sendParams(message('m1'), { now: 1000, stored: (m) => stored.push(m.messageId) }));
    await turn();
    await release();
    const page = await messages
      .page({ appkey: 'app', convKey: 'g:g1', viewerId: 'u1', before: undefined, limit: 10 })
      .then((messages) => ({ ids: messages.map((m) => m.messageId), pushedBefore: [...stored] }));
    await sent;
    expect(page).toEqual({ ids: ['m1'], pushedBefore: ['m1'] });
  });

  it('answers a resent message with its first timestamp, storing nothing', async () => {
    const { messages } = await setup();
    const first = await messages.send(send('m1', 1000));
    const again = await messages.send(send('m1', 3000));
    expect(again).toEqual({ message: first.message, duplicate: true });
    const page = await messages.page({ appkey: 'app', convKey: 'g:g1', viewerId: 'u1', before: undefined, limit: 10 });
    expect(page.map((m) => [m.messageId, m.ts])).toEqual([['m1', 1000]]);
  });

  it("writes a group head's new data even after a send the slow way changed it", async () => {
    const { raw, messages, later, slowly } = await withLaterWrites();
    const withData = (messageId: string, now: number, data: string): SendParams => ({
      ...send(messageId, now),
      rows: [{ ownerId: 'u1', targetId: 'g1', data }],
    });
    const head = () => raw.prepare('select last_ts, data from im_conversation_heads').all();
    await messages.send(withData('m1', 1000, '{"n":"x"}'));
    await slowly(withData('m2', 2000, '{"n":"y"}'));
    expect(head()).toEqual([{ last_ts: 2000, data: '{"n":"y"}' }]);
    // The synchronous path knew the head's data as x: it must not take x for unchanged.
    await messages.send(withData('m3', 3000, '{"n":"x"}'));
    expect(head()).toEqual([{ last_ts: 3000, data: '{"n":"x"}' }]);
    later.close();
  });

  it("writes a private row's new data even after a send the slow way changed it", async () => {
    const { raw, messages, later, slowly } = await withLaterWrites();
    const fromAlice = (messageId: string, now: number, senderData: string): SendParams => ({
      ...sendParams(
        newMessage({ convKey: 'private:alice:bob', scene: 'private', messageId, senderId: 'alice', targetId: 'bob' }),
        { now },
      ),
      rows: [
        { ownerId: 'alice', targetId: 'bob', data: null },
        { ownerId: 'bob', targetId: 'alice', data: senderData },
      ],
      readerId: 'alice',
    });
    const bobsRow = () => raw.prepare("select last_ts, data from im_conversations where owner_id = 'bob'").all();
    await messages.send(fromAlice('m1', 1000, '{"n":"x"}'));
    await slowly(fromAlice('m2', 2000, '{"n":"y"}'));
    expect(bobsRow()).toEqual([{ last_ts: 2000, data: '{"n":"y"}' }]);
    // The synchronous path knew bob's row with x: it must not take x for unchanged.
    await messages.send(fromAlice('m3', 3000, '{"n":"x"}'));
    expect(bobsRow()).toEqual([{ last_ts: 3000, data: '{"n":"x"}' }]);
    later.close();
  });

  it('indexes the idempotency key message id first, and an upgraded store still answers a resend', async () => {
    const raw = new BetterSqlite3(':memory:');
    const cached = withStatementCache(raw);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0009_pubsub_messages_by_time')).error).toBeUndefined();
    const before = createMessageStore(db, 'sqlite', createConversationStore(db), createSyncSqlite(cached));
    const first = await before.send(send('m1', 1000));
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const columns = (index: string) =>
      (raw.pragma(`index_info(${index})`) as Array<{ name: string }>).map((c) => c.name);
    // Time-ordered ids (the SDK's) then land at the index's end instead of at their sender's place.
    expect(columns('im_messages_dedupe')).toEqual(['appkey', 'message_id', 'sender_id']);
    expect(columns('cs_messages_dedupe')).toEqual(['appkey', 'message_id', 'sender_id']);
    const after = createMessageStore(db, 'sqlite', createConversationStore(db), createSyncSqlite(cached));
    expect(await after.send(send('m1', 3000))).toEqual({ message: first.message, duplicate: true });
    expect((await after.append(message('m1'), 4000)).duplicate).toBe(true);
    const page = await after.page({ appkey: 'app', convKey: 'g:g1', viewerId: 'u1', before: undefined, limit: 10 });
    expect(page.map((m) => [m.messageId, m.ts])).toEqual([['m1', 1000]]);
  });
});
