import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Expression, type SqlBool } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { containsAny } from '../src/store/contains.js';
import { openStore, type Store, type StoreConfig } from '../src/store/index.js';
import { defer, storesUnderTest, tempDir } from './helpers.js';

const member = (id: string, username: string, createdAt: number) => ({
  id,
  phone: `1380000${id.padStart(4, '0')}`,
  username,
  img: '',
  notifyBadge: 0,
  createdAt,
  usernameChangedAt: null,
});

const article = (id: string, memberId: string, title: string, content: string, createdAt: number) => ({
  id,
  memberId,
  title,
  content,
  images: [],
  channelId: null,
  createdAt,
});

/** The members a search by `keyword` finds, newest first. */
const found = async (store: Store, keyword: string) =>
  ((await store.members.search('viewer', { keyword, limit: 50 })) ?? []).map((m) => m.id);
/** The articles a search by `keyword` finds, newest first. */
const foundArticles = async (store: Store, keyword: string) =>
  ((await store.articles.list({ keyword, limit: 50 })) ?? []).map((a) => a.id);

describe.each(storesUnderTest())('searches by words, through their indexes (migration 0052), on %s', (name, config) => {
  const open = async () => {
    const dir = tempDir();
    const settings = { dataDir: dir, sqlite: join(dir, 'parley.db'), ...config() } as StoreConfig;
    const store = await openStore(settings);
    defer(() => store.close());
    return { store, settings };
  };

  it('finds what the words match, in any case, kept up with renames and deletions; short words and wildcards too', async () => {
    const { store } = await open();
    await store.members.insert(member('1', 'Alice Wonder', 1));
    await store.members.insert(member('2', '王小明同学', 2));
    await store.members.insert(member('3', 'alice', 3));
    await store.members.insert(member('4', 'Bob_50%', 4));
    await store.members.insert(member('5', 'Bob 500', 5));
    await store.members.insert(member('6', 'Zed', 6));

    expect(await found(store, 'ALIce')).toEqual(['3', '1']);
    expect(await found(store, '小明同')).toEqual(['2']);
    // Shorter than the index's trigrams: the table is read, with the same answer.
    expect(await found(store, '王小')).toEqual(['2']);
    expect(await found(store, 'ze')).toEqual(['6']);
    // Wildcards are searched for as themselves.
    expect(await found(store, '_50%')).toEqual(['4']);
    expect(await found(store, 'b_5')).toEqual(['4']);
    expect(await found(store, 'Bob 5')).toEqual(['5']);
    expect(await found(store, 'nobody here')).toEqual([]);
    // The id still finds its member.
    expect(await found(store, '6')).toEqual(['6']);

    // A rename moves the member in the index; a cancelled account leaves it.
    expect(await store.members.updateProfile('1', { username: 'Carol Wonder', now: 10 })).toBe(true);
    expect(await found(store, 'alice')).toEqual(['3']);
    expect(await found(store, 'CAROL')).toEqual(['1']);
    expect(await store.members.cancel('3', { reason: 'bye', now: 20 })).toBe(true);
    expect(await found(store, 'alice')).toEqual([]);

    // Articles by title or text; an author's cancelled account takes theirs out of the index.
    await store.members.insert(member('7', 'Dora', 7));
    const quota = { since: 0, max: 100 };
    await store.articles.add(article('a1', '2', 'Spring in Hangzhou', 'The lake in April.', 100), quota);
    await store.articles.add(article('a2', '7', 'Tea', '西湖龙井 from hangzhou hills', 200), quota);
    await store.articles.add(article('a3', '7', 'Other', 'Nothing to see', 300), quota);
    expect(await foundArticles(store, 'HANGZHOU')).toEqual(['a2', 'a1']);
    expect(await foundArticles(store, '西湖龙')).toEqual(['a2']);
    expect(await foundArticles(store, 'in april')).toEqual(['a1']);
    expect(await store.members.cancel('7', { reason: 'bye', now: 400 })).toBe(true);
    expect(await foundArticles(store, 'hangzhou')).toEqual(['a1']);
  });

  it('finds circle posts by title or text (migration 0058), deleted ones no more', async () => {
    const { store } = await open();
    await store.members.insert(member('1', 'Alice', 1));
    const quota = { since: 0, max: 100 };
    const post = (id: string, title: string, content: string, createdAt: number) =>
      store.circle.add(
        { id, memberId: '1', title, content, images: [], vote: null, video: null, topicId: null, createdAt },
        quota,
      );
    await post('p1', 'Morning run', 'Around West Lake', 100);
    await post('p2', 'West LAKE at night', 'Lights', 200);
    await post('p3', 'Dinner', 'Noodles', 300);
    const foundPosts = async (keyword: string) =>
      ((await store.circle.list({ keyword, limit: 50 })) ?? []).map((p) => p.id);
    expect(await foundPosts('west lake')).toEqual(['p2', 'p1']);
    expect(await foundPosts('oo')).toEqual(['p3']);
    expect(await store.circle.remove('1', 'p2', 400)).toBe(true);
    expect(await foundPosts('west lake')).toEqual(['p1']);
  });

  it.each([
    ['members', 'username', 'members_search', 'members_username_trgm'],
    ['circle_posts', 'content', 'circle_posts_search', 'circle_posts_content_trgm'],
    ['products', 'title', 'products_search', 'products_title_trgm'],
  ])('looks the words up in the index of %s rather than reading every row', async (table, column, fts, trgm) => {
    const { settings } = await open();
    const condition: Expression<SqlBool> = containsAny(
      table,
      [column],
      'alice',
      name === 'SQLite' ? 'sqlite' : 'postgres',
    );
    if (name === 'SQLite') {
      const raw = new BetterSqlite3(settings.sqlite, { readonly: true });
      defer(() => raw.close());
      const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new SqliteDialect({ database: raw }) });
      const query = db.selectFrom(table).select('id').where(condition).compile();
      const plan = raw.prepare(`explain query plan ${query.sql}`).all(...query.parameters) as Array<{ detail: string }>;
      expect(plan.map((step) => step.detail).join('\n')).toMatch(new RegExp(`SCAN ${fts} VIRTUAL TABLE INDEX`));
      return;
    }
    const pool = new pg.Pool({ connectionString: settings.databaseUrl as string, max: 1 });
    defer(() => pool.end());
    const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new PostgresDialect({ pool }) });
    const query = db.selectFrom(table).select('id').where(condition).compile();
    const client = await pool.connect();
    try {
      await client.query(`set search_path to "${settings.databaseSchema as string}", public`);
      // A table this small is read whole by choice; forbidden that, the planner shows whether the index serves.
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${query.sql}`, [...query.parameters]);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(new RegExp(trgm));
    } finally {
      client.release();
    }
  });
});
