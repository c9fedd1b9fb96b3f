import type BetterSqlite3 from 'better-sqlite3';

/** Most prepared statements kept; the store issues a few dozen distinct queries, so this is never reached in use. */
const CAPACITY = 500;

/**
 * The same database, but `prepare` returns a cached statement for SQL it has seen. Kysely prepares every query
 * it runs; compiling the same SQL again for each message was a tenth of the server's time. Statements are run to
 * completion synchronously, so one statement object can serve every caller.
 */
export function withStatementCache(database: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string): BetterSqlite3.Statement => {
    let statement = cache.get(source);
    if (!statement) {
      statement = database.prepare(source);
      cache.set(source, statement);
      if (cache.size > CAPACITY) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
