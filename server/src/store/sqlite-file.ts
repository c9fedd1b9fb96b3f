import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

// SQLite reads a file name as a URI (how a connection names its VFS, below) only when told before its first
// connection in the process, and better-sqlite3 tells it from SQLITE_USE_URI when it loads, at the first connection
// anyone opens. So the variable is set when this module loads, before any store opens; a process that already had a
// connection open without it gets shared files (see openSqliteFile).
process.env.SQLITE_USE_URI ??= '1';

/** How long opening waits for another process to let go of the file (a server still stopping) before it fails. */
const DEFAULT_LOCK_WAIT_MS = 5000;

/** The VFS that keeps a file to one process: one lock taken once, the log's index in this process's memory. */
const EXCLUSIVE_VFS = 'unix-excl';

/** The file is held by another process (another server, a tool) longer than the open waits. */
export class SqliteFileInUseError extends Error {
  override readonly name = 'SqliteFileInUseError';
}

/** How {@link openSqliteFile} opens a file. */
export interface SqliteFileOptions {
  /**
   * Let other processes open the file while this one has it (a `sqlite3` shell, a backup or replication tool), at
   * the price of file-lock system calls in every transaction. @default false
   */
  shared?: boolean | undefined;
  /** Milliseconds to wait for another process that holds the file. @default 5000 */
  lockWaitMs?: number | undefined;
  /** Told when the file could not be kept to this process and is opened shared instead. */
  onWarning?: ((message: string) => void) | undefined;
}

/** A server's SQLite file, open. */
export interface SqliteFile {
  database: BetterSqlite3.Database;
  /**
   * The name the file was opened by: another connection of this process (the checkpointer's, in a worker thread)
   * opens this name to share the file, its locks and its log's index.
   */
  name: string;
  /** Whether this process holds the file alone. */
  exclusive: boolean;
}

/**
 * Opens a server's SQLite file (not `:memory:`), by default for this process alone: through SQLite's `unix-excl`
 * VFS, whose connections take one lock on the file once, when they first read it, and keep the write-ahead log's
 * index in this process's memory. The connections of this process (threads included) still coordinate with each
 * other, in memory, while another process gets `database is locked`.
 *
 * The default `unix` VFS makes six `fcntl` lock calls in every transaction in WAL mode (the log's read mark, its
 * write lock, the file's shared lock), which a server that commits each message on its own pays for every message:
 * `bench/store-cost.ts` and `im-latency` (docs/benchmarks.md). And a second server on the same file would break what
 * each keeps in memory of the tables (a conversation's rows known shown, the later writes); with one process per
 * file it fails at start instead, with a message saying so. Where an exclusive open is not possible (Windows, or a
 * process whose SQLite already runs without URI file names), the file is opened shared, and `onWarning` says why.
 *
 * @throws SqliteFileInUseError when another process holds the file for longer than `lockWaitMs`.
 */
export function openSqliteFile(file: string, options: SqliteFileOptions = {}): SqliteFile {
  const { shared = false, lockWaitMs = DEFAULT_LOCK_WAIT_MS, onWarning } = options;
  const path = resolve(file);
  let opened: SqliteFile | undefined;
  if (!shared && process.platform !== 'win32') {
    opened = openExclusive(path, lockWaitMs);
    if (!opened) {
      onWarning?.(
        `SQLite could not open ${path} for this process alone (SQLite file names as URIs are off in this process: ` +
          'SQLITE_USE_URI); it is opened shared, with file locks in every transaction',
      );
    }
  }
  opened ??= { database: new BetterSqlite3(path, { timeout: lockWaitMs }), name: path, exclusive: false };
  try {
    // The first read takes the lock: a file another process holds fails here, not at the first message.
    opened.database.pragma('schema_version');
  } catch (err) {
    opened.database.close();
    if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') throw err;
    throw new SqliteFileInUseError(
      `The SQLite file ${path} is in use by another process. One server process serves an SQLite file: stop the ` +
        'other one, or give this one a file of its own (PARLEY_SQLITE); several nodes share PostgreSQL ' +
        '(DATABASE_URL). Tools that open the file while the server runs need PARLEY_SQLITE_SHARED=true.',
      { cause: err },
    );
  }
  return opened;
}

/** Opens `path` through the exclusive VFS; undefined when this process's SQLite does not take URI file names. */
function openExclusive(path: string, lockWaitMs: number): SqliteFile | undefined {
  const name = `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}?vfs=${EXCLUSIVE_VFS}`;
  let database: BetterSqlite3.Database;
  try {
    database = new BetterSqlite3(name, { timeout: lockWaitMs });
  } catch (err) {
    // Without URI file names SQLite takes the name literally, a file under a directory `file:` that is not there.
    if ((err as { code?: unknown }).code === 'SQLITE_CANTOPEN') return undefined;
    throw err;
  }
  // Should a directory `file:` be there after all, the file opened is not the one asked for.
  const [main] = database.pragma('database_list') as Array<{ file: string }>;
  if (main?.file.endsWith(`?vfs=${EXCLUSIVE_VFS}`)) {
    database.close();
    return undefined;
  }
  return { database, name, exclusive: true };
}
