import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../src/store/statement-cache.js';
import { createSyncSqlite } from '../src/store/sync-sqlite.js';

interface Db {
  t: { id: number; v: string };
}

function setup() {
  const raw = new BetterSqlite3(':memory:');
  raw.exec('create table t (id integer primary key, v text)');
  const cached = withStatementCache(raw);
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: cached }) });
  return { raw, cached, db, sync: createSyncSqlite(cached) };
}

describe('synchronous SQLite transactions', () => {
  it('run Kysely-built queries in one transaction and roll back on a throw', () => {
    const { db, sync } = setup();
    const done = sync.transaction(() => {
      sync.run(db.insertInto('t').values({ id: 1, v: 'a' }));
      return sync.get(db.selectFrom('t').select('v').where('id', '=', 1));
    });
    expect(done).toEqual({ value: { v: 'a' } });
    expect(() =>
      sync.transaction(() => {
        sync.run(db.insertInto('t').values({ id: 2, v: 'b' }));
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(sync.get(db.selectFrom('t').select('id').where('id', '=', 2))).toBeUndefined();
  });

  it('step aside while an asynchronous transaction holds the connection', () => {
    const { raw, db, sync } = setup();
    raw.exec('begin');
    expect(sync.transaction(() => sync.run(db.insertInto('t').values({ id: 3, v: 'c' })))).toBeUndefined();
    raw.exec('commit');
    expect(sync.transaction(() => 'ran')).toEqual({ value: 'ran' });
  });

  it('commit a batch together, undoing only the work that threw', () => {
    const { raw, db, sync } = setup();
    const insert = (id: number) => () => {
      sync.run(db.insertInto('t').values({ id, v: `v${id}` }));
      return id;
    };
    const outcomes = sync.batch([
      insert(10),
      () => {
        sync.run(db.insertInto('t').values({ id: 11, v: 'half done' }));
        throw new Error('abort 11');
      },
      insert(12),
      insert(10),
    ]);
    expect(outcomes?.slice(0, 3)).toEqual([{ value: 10 }, { error: new Error('abort 11') }, { value: 12 }]);
    // The duplicate key fails that work alone.
    expect(outcomes?.[3]).toHaveProperty('error');
    expect(raw.prepare('select id from t order by id').all()).toEqual([{ id: 10 }, { id: 12 }]);
    raw.exec('begin');
    expect(sync.batch([insert(13)])).toBeUndefined();
    raw.exec('rollback');
  });

  it('commit a lone work without a savepoint, and report its failure as its own', () => {
    const statements: string[] = [];
    const raw = new BetterSqlite3(':memory:', { verbose: (sql) => statements.push(String(sql)) });
    raw.exec('create table t (id integer primary key, v text)');
    const sync = createSyncSqlite(withStatementCache(raw));
    const insert = (id: number) => () => raw.prepare('insert into t (id, v) values (?, ?)').run(id, `v${id}`).changes;
    statements.length = 0;
    expect(sync.batch([insert(1)])).toEqual([{ value: 1 }]);
    expect(statements.filter((sql) => !sql.startsWith('insert'))).toEqual(['BEGIN', 'COMMIT']);
    expect(sync.batch([insert(1)])).toEqual([{ error: expect.any(Error) as Error }]);
    expect(raw.inTransaction).toBe(false);
    // Two or more: each in a savepoint of its own.
    statements.length = 0;
    expect(sync.batch([insert(2), insert(3)])).toEqual([{ value: 1 }, { value: 1 }]);
    expect(statements.filter((sql) => sql.startsWith('SAVEPOINT'))).toHaveLength(2);
    expect(raw.prepare('select id from t order by id').all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('prepare each distinct SQL once', () => {
    const { raw, cached } = setup();
    let prepared = 0;
    const original = raw.prepare.bind(raw);
    raw.prepare = (source: string) => {
      prepared += 1;
      return original(source);
    };
    for (let i = 0; i < 5; i++) cached.prepare('select 1').get();
    expect(prepared).toBe(1);
  });
});
