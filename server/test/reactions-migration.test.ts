import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../src/store/migrations.js';
import type { Database } from '../src/store/schema.js';

describe('migration 0042_circle_reactions', () => {
  it("keeps the articles' comments and likes under subject_id, adds the circle's tables, and goes back down", async () => {
    const raw = new BetterSqlite3(':memory:');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0041_circle_videos')).error).toBeUndefined();
    raw
      .prepare('insert into article_comments (id, article_id, member_id, content, created_at) values (?, ?, ?, ?, ?)')
      .run('c1', 'a1', 'm1', 'hello', 10);
    raw.prepare('insert into article_likes (article_id, member_id, created_at) values (?, ?, ?)').run('a1', 'm2', 20);

    expect((await migrator.migrateTo('0042_circle_reactions')).error).toBeUndefined();
    expect(raw.prepare('select id, subject_id, content from article_comments').all()).toEqual([
      { id: 'c1', subject_id: 'a1', content: 'hello' },
    ]);
    expect(raw.prepare('select subject_id, member_id from article_likes').all()).toEqual([
      { subject_id: 'a1', member_id: 'm2' },
    ]);
    raw.prepare('insert into circle_likes (subject_id, member_id, created_at) values (?, ?, ?)').run('p1', 'm2', 30);
    // One like per member and post.
    expect(() =>
      raw.prepare('insert into circle_likes (subject_id, member_id, created_at) values (?, ?, ?)').run('p1', 'm2', 40),
    ).toThrow(/UNIQUE/);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(raw.prepare('select article_id, member_id from article_likes').all()).toEqual([
      { article_id: 'a1', member_id: 'm2' },
    ]);
    expect(raw.prepare("select name from sqlite_master where name like 'circle_likes%'").all()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await db.destroy();
  });
});

describe('migration 0043_comment_replies', () => {
  it('adds what a comment answers to both kinds, null for the comments there were, and goes back down', async () => {
    const raw = new BetterSqlite3(':memory:');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0042_circle_reactions')).error).toBeUndefined();
    raw
      .prepare('insert into circle_comments (id, subject_id, member_id, content, created_at) values (?, ?, ?, ?, ?)')
      .run('c1', 'p1', 'm1', 'hello', 10);
    expect((await migrator.migrateTo('0043_comment_replies')).error).toBeUndefined();
    expect(raw.prepare('select id, reply_to, reply_to_member from circle_comments').all()).toEqual([
      { id: 'c1', reply_to: null, reply_to_member: null },
    ]);
    raw
      .prepare(
        'insert into article_comments (id, subject_id, member_id, content, created_at, reply_to, reply_to_member) values (?, ?, ?, ?, ?, ?, ?)',
      )
      .run('c2', 'a1', 'm2', 'yes', 20, 'c0', 'm1');
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(raw.prepare('select * from article_comments').all()).toEqual([
      { id: 'c2', subject_id: 'a1', member_id: 'm2', content: 'yes', created_at: 20, deleted_at: null },
    ]);
    await db.destroy();
  });
});
