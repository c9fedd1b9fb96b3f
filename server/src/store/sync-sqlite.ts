import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable } from 'kysely';

/**
 * Runs Kysely-built queries on SQLite synchronously, inside one `better-sqlite3` transaction. Kysely's SQLite
 * driver is asynchronous and holds its one connection across every await of a transaction, so under load every
 * other query of the server queues behind it; a synchronous transaction takes the connection for one turn of the
 * event loop only. Use it for short, hot transactions.
 */
export interface SyncSqlite {
  /** Runs `work` in a transaction, or returns undefined when an asynchronous Kysely transaction is open. */
  transaction<T>(work: () => T): { value: T } | undefined;
  /** The first row of a query. */
  get<R>(query: Compilable<R>): R | undefined;
  /** Runs a statement. */
  run(query: Compilable<unknown>): void;
}

/** A {@link SyncSqlite} over `database` (the statement-caching one, so each query compiles once). */
export function createSyncSqlite(database: BetterSqlite3.Database): SyncSqlite {
  const statement = (query: Compilable<unknown>) => {
    const compiled = query.compile();
    return { prepared: database.prepare(compiled.sql), parameters: compiled.parameters as unknown[] };
  };
  return {
    transaction(work) {
      // An async Kysely transaction has BEGIN open on the same connection: running ours now would nest in it.
      if (database.inTransaction) return undefined;
      return { value: database.transaction(work)() };
    },
    get<R>(query: Compilable<R>) {
      const { prepared, parameters } = statement(query);
      return prepared.get(...parameters) as R | undefined;
    },
    run(query) {
      const { prepared, parameters } = statement(query);
      prepared.run(...parameters);
    },
  };
}
