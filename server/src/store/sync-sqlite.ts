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
  /**
   * Group commit: runs every work in one transaction, each in a savepoint of its own, so that a failing one is
   * undone alone and reported as its `error` (a lone work needs none: the transaction is its own). Undefined when an
   * asynchronous Kysely transaction is open.
   */
  batch<T>(works: ReadonlyArray<() => T>): Array<{ value: T } | { error: unknown }> | undefined;
  /** The first row of a query. */
  get<R>(query: Compilable<R>): R | undefined;
  /** Runs a statement. */
  run(query: Compilable<unknown>): void;
  /**
   * A prepared statement for hand-written SQL, for the hottest paths: building and compiling a Kysely query costs
   * more than running it. The statement is cached, so keep `source` constant.
   */
  prepare(source: string): BetterSqlite3.Statement;
}

/** A {@link SyncSqlite} over `database` (the statement-caching one, so each query compiles once). */
export function createSyncSqlite(database: BetterSqlite3.Database): SyncSqlite {
  const statement = (query: Compilable<unknown>) => {
    const compiled = query.compile();
    return { prepared: database.prepare(compiled.sql), parameters: compiled.parameters as unknown[] };
  };
  // One transaction function for every call: better-sqlite3 builds four wrappers each time one is made.
  let current: (() => unknown) | undefined;
  const inTransaction = database.transaction(() => (current as () => unknown)());
  // Called inside a transaction, a better-sqlite3 transaction function runs in a savepoint.
  let step: (() => unknown) | undefined;
  const inSavepoint = database.transaction(() => (step as () => unknown)());
  const runAll = <T>(works: ReadonlyArray<() => T>) =>
    works.map((work): { value: T } | { error: unknown } => {
      step = work;
      try {
        return { value: inSavepoint() as T };
      } catch (error) {
        return { error };
      } finally {
        step = undefined;
      }
    });
  return {
    transaction<T>(work: () => T) {
      // An async Kysely transaction has BEGIN open on the same connection: running ours now would nest in it.
      if (database.inTransaction) return undefined;
      current = work;
      try {
        return { value: inTransaction() as T };
      } finally {
        current = undefined;
      }
    },
    batch<T>(works: ReadonlyArray<() => T>) {
      if (database.inTransaction) return undefined;
      const [only] = works;
      if (works.length === 1 && only) {
        // Alone, a work needs no savepoint: the transaction is undone with it, and its failure is its own.
        current = only;
        try {
          return [{ value: inTransaction() as T }];
        } catch (error) {
          return [{ error }];
        } finally {
          current = undefined;
        }
      }
      current = () => runAll(works);
      try {
        return inTransaction() as Array<{ value: T } | { error: unknown }>;
      } finally {
        current = undefined;
      }
    },
    get<R>(query: Compilable<R>) {
      const { prepared, parameters } = statement(query);
      return prepared.get(...parameters) as R | undefined;
    },
    run(query) {
      const { prepared, parameters } = statement(query);
      prepared.run(...parameters);
    },
    prepare: (source) => database.prepare(source),
  };
}
