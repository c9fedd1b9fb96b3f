import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { publishTiming, timingStart } from './timing.js';

/**
 * How often the background connection folds the write-ahead log back into the database file. The log starts over
 * when a pass has copied all of it; when passes keep missing the end, the server's connection copies the rest itself
 * (restartLog), on its own thread: the longer the interval, the more it then has to copy and sync (2-2.5 ms at 250 ms
 * and a thousand messages a second, 4-6 ms at 1 000 ms, docs/benchmarks.md).
 */
const INTERVAL_MS = 250;
/**
 * How long the write-ahead log may get before the writer checkpoints itself even after an incomplete pass, and
 * what its file is cut back to when it starts over (`journal_size_limit`), in bytes.
 */
const MAX_LOG_BYTES = 32 * 1024 * 1024;
/** Ticks the worker waits for the writer to start the log over before it goes on without it. */
const RESTART_WAIT_PASSES = 10;
/**
 * Passes a tick makes at most, one after the other, to reach the end of a log the server keeps writing: each copies
 * what was written during the one before, so they get shorter, and at a thousand messages a second on a slow machine
 * the second or third nearly always finds nothing new.
 */
const CATCH_UP_PASSES = 8;

// Runs in a worker thread with its own connection: a PASSIVE checkpoint there copies the log into the database
// without blocking the server's writes, while an automatic checkpoint on the server's connection would stop its
// event loop for the whole copy and the fsync.
//
// The log starts over at the writer's next write once a checkpoint has copied all of it (SQLite does that by
// itself, without a checkpoint on the writer's thread). A single PASSIVE pass from another connection never gets
// there while the writer keeps writing, since the writer adds to the log during the pass, and the log grew without
// end (a gigabyte in a minute of steady chat). So each tick makes passes one after the other until one finds that
// nothing was written since the last (CATCH_UP_PASSES at most).
//
// Only when a tick's passes all miss the end (a busy machine, or a transaction of the server held open across turns
// of its event loop, keeps them from it), or the log is past MAX_LOG_BYTES, does the worker say 'restart', and the
// writing connection checkpoints itself between two of its transactions (restartLog): little is left to copy, and
// its next write starts the log from the beginning. Done after every pass, as before, that held the server's thread
// 2-2.5 ms four times a second at a thousand messages a second on a slow machine. The worker never takes the write
// lock itself: a deferred transaction of the server that reads and then writes would get 'database is locked' at
// once.
//
// After it says 'restart', the worker makes no pass until the writer answers 'restarted' (or RESTART_WAIT_PASSES
// ticks have gone by): the writer's checkpoint gives up at once when a pass holds the log, and on a busy machine,
// where a pass can take longer than the interval, it found one running nearly every time and the log grew by tens
// of megabytes a second. Nor does it ask again while the log has not grown since it last asked.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const pass = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
let waiting = 0;
let askedAt = -1;
const checkpoint = () => {
  if (waiting > 0) {
    waiting -= 1;
    return;
  }
  let last = pass();
  for (let i = 1; i < workerData.catchUpPasses; i += 1) {
    if (!last || last.log <= 0) return;
    const next = pass();
    // The writer started the log over, or wrote nothing since the last pass, which copied everything: its next
    // write starts the log over.
    if (!next || next.log < last.log || (next.log === last.log && next.checkpointed === next.log)) return;
    last = next;
  }
  if (!last || last.log <= 0) return;
  if (last.log === askedAt) return;
  if (last.checkpointed === last.log || last.log > workerData.maxFrames) {
    waiting = workerData.restartWaitPasses;
    askedAt = last.log;
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
  const started = timingStart();
  const busyTimeout = database.pragma('busy_timeout', { simple: true }) as number;
  database.pragma('busy_timeout = 0');
  try {
    database.pragma('wal_checkpoint(RESTART)');
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') onError((err as Error).message);
  } finally {
    database.pragma(`busy_timeout = ${busyTimeout}`);
  }
  publishTiming(started, (ms) => ({ kind: 'log-restart', ms }));
}

/**
 * Starts checkpointing `file` from a worker thread, whose connection opens `file` by the name the writer was opened
 * by (a `file:` URI naming the writer's VFS, see sqlite-file.ts), so that the two share the file's locks. The caller
 * turns the connection's own automatic checkpoints off (`wal_autocheckpoint = 0`), so that no write on the server's
 * thread ever waits for the disk.
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
    workerData: {
      file,
      driver,
      intervalMs,
      maxFrames,
      restartWaitPasses: RESTART_WAIT_PASSES,
      catchUpPasses: CATCH_UP_PASSES,
    },
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
