import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * How often the background connection folds the write-ahead log back into the database file. Each pass that copies
 * everything is followed by a restart on the server's connection (restartLog), which copies what was written during
 * the pass and syncs both files on the server's thread: the longer the interval, the more there is to copy and sync
 * then. At a thousand messages a second that hold took 4-6 ms once a second at 1 000 ms, 10-17 ms once every two
 * seconds at 2 000 ms, and 2-2.5 ms four times a second at 250 ms, where `im-latency`'s p99 was lowest
 * (docs/benchmarks.md).
 */
const INTERVAL_MS = 250;
/**
 * How long the write-ahead log may get before the writer checkpoints itself even after an incomplete pass, and
 * what its file is cut back to when it starts over (`journal_size_limit`), in bytes.
 */
const MAX_LOG_BYTES = 32 * 1024 * 1024;
/** Ticks the worker waits for the writer to start the log over before it goes on without it. */
const RESTART_WAIT_PASSES = 10;

// Runs in a worker thread with its own connection: a PASSIVE checkpoint there copies the log into the database
// without blocking the server's writes, while an automatic checkpoint on the server's connection would stop its
// event loop for the whole copy and the fsync.
//
// A PASSIVE checkpoint from another connection never makes a writer that keeps writing start the log over, so the
// log grew without end (a gigabyte in a minute of steady chat). After a pass that copied everything, or when the log
// is past MAX_LOG_BYTES, the worker says 'restart', and the writing connection checkpoints itself between two of its
// transactions (restartLog): little is left to copy, and its next write starts the log from the beginning. The
// worker never takes the write lock itself: a deferred transaction of the server that reads and then writes would
// get 'database is locked' at once.
//
// After it says 'restart', the worker makes no pass until the writer answers 'restarted' (or RESTART_WAIT_PASSES
// ticks have gone by): the writer's checkpoint gives up at once when a pass holds the log, and on a busy machine,
// where a pass can take longer than the interval, it found one running nearly every time and the log grew by tens
// of megabytes a second.
//
// Nor does it ask again while the log has not grown since it last asked: a log copied to its end starts over by
// itself at the writer's next write, so an idle server's writer is left alone.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
let waiting = 0;
let askedAt = -1;
const checkpoint = () => {
  if (waiting > 0) {
    waiting -= 1;
    return;
  }
  const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
  if (!passive || passive.log <= 0 || passive.log === askedAt) return;
  if (passive.checkpointed === passive.log || passive.log > workerData.maxFrames) {
    waiting = workerData.restartWaitPasses;
    askedAt = passive.log;
    parentPort.postMessage('restart');
  }
};
const timer = setInterval(() => {
  try { checkpoint(); } catch (err) { parentPort.postMessage(String(err && err.message)); }
}, workerData.intervalMs);
parentPort.on('message', (msg) => {
  if (msg === 'restarted') waiting = 0;
  if (msg !== 'close') return;
  clearInterval(timer);
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  db.close();
  parentPort.postMessage('closed');
});
`;

/** A background WAL checkpointer for an SQLite file. */
export interface Checkpointer {
  /** Runs a last checkpoint and stops the worker. */
  close(): Promise<void>;
}

/** The connection {@link startCheckpointer} works for, what it reports, and how often it works. */
export interface CheckpointerOptions {
  /**
   * The server's connection, which writes. Its log is cut back to `maxLogBytes` when it starts over, and it
   * checkpoints itself between two of its transactions when the worker asks (see {@link restartLog}).
   */
  writer: BetterSqlite3.Database;
  /** A checkpoint failed; the next tick tries again and the log only grows meanwhile. */
  onError: (message: string) => void;
  /** Milliseconds between checkpoints; 250 by default. */
  intervalMs?: number;
  /** The log's size past which the writer checkpoints even after an incomplete pass; 32 MiB by default. */
  maxLogBytes?: number;
}

/**
 * Checkpoints on the writing connection, outside its transactions, so that its next write starts the log over.
 * Waits for nobody: if the worker is in a pass again, it gives up, and the worker's next report brings it back.
 */
function restartLog(database: BetterSqlite3.Database, onError: (message: string) => void): void {
  if (!database.open || database.inTransaction) return;
  const busyTimeout = database.pragma('busy_timeout', { simple: true }) as number;
  database.pragma('busy_timeout = 0');
  try {
    database.pragma('wal_checkpoint(RESTART)');
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') onError((err as Error).message);
  } finally {
    database.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

/**
 * Starts checkpointing `file` from a worker thread. The caller turns the connection's own automatic checkpoints
 * off (`wal_autocheckpoint = 0`), so that no write on the server's thread ever waits for the disk.
 */
export function startCheckpointer(
  file: string,
  { writer, onError, intervalMs = INTERVAL_MS, maxLogBytes = MAX_LOG_BYTES }: CheckpointerOptions,
): Checkpointer {
  writer.pragma(`journal_size_limit = ${maxLogBytes}`);
  const maxFrames = Math.ceil(maxLogBytes / (writer.pragma('page_size', { simple: true }) as number));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs, maxFrames, restartWaitPasses: RESTART_WAIT_PASSES },
  });
  worker.unref();
  worker.on('message', (message: unknown) => {
    // Between two transactions of the writer: the worker has copied (nearly) everything.
    if (message === 'restart') {
      setImmediate(() => {
        restartLog(writer, onError);
        // Whether it could or not: the worker goes on with its passes.
        if (writer.open) worker.postMessage('restarted');
      });
    } else if (message !== 'closed') onError(String(message));
  });
  worker.on('error', (err) => onError(err.message));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('exit', done);
        // Not once(): a 'restart' posted by a pass just before may come first.
        const closed = (message: unknown) => {
          if (message !== 'closed') return;
          worker.off('message', closed);
          void worker.terminate();
        };
        worker.on('message', closed);
        worker.postMessage('close');
      }),
  };
}
