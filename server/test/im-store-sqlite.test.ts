import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createConversationStore } from '../src/store/conversations.js';
import { createMessageStore, type NewMessage, type SendParams } from '../src/store/im.js';
import { migrationProvider } from '../src/store/migrations.js';
import type { Database } from '../src/store/schema.js';
import { withStatementCache } from '../src/store/statement-cache.js';
import { createSyncSqlite } from '../src/store/sync-sqlite.js';

/** The SQLite message store over a connection the test can also hold an asynchronous transaction on. */
async function setup() {
  const raw = new BetterSqlite3(':memory:');
  const cached = withStatementCache(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  const migrated = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  expect(migrated.error).toBeUndefined();
  const messages = createMessageStore(db, 'sqlite', createConversationStore(db), createSyncSqlite(cached));
  return { raw, messages };
}

const message = (messageId: string): NewMessage => ({
  appkey: 'app',
  convKey: 'g:g1',
  scene: 'group',
  messageId,
  senderId: 'u1',
  targetId: 'g1',
  type: 'text',
  payload: '{"text":"hi"}',
  senderData: '{}',
});

const send = (messageId: string, now: number): SendParams => ({
  message: message(messageId),
  now,
  rows: [{ ownerId: 'u1', targetId: 'g1', data: null }],
  readerId: 'u1',
  stored: () => undefined,
});

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

  it('answers a resent message with its first timestamp, storing nothing', async () => {
    const { messages } = await setup();
    const first = await messages.send(send('m1', 1000));
    const again = await messages.send(send('m1', 3000));
    expect(again).toEqual({ message: first.message, duplicate: true });
    const page = await messages.page({ appkey: 'app', convKey: 'g:g1', viewerId: 'u1', before: undefined, limit: 10 });
    expect(page.map((m) => [m.messageId, m.ts])).toEqual([['m1', 1000]]);
  });
});
