import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection folds the write-ahead log back into the database file. */
const INTERVAL_MS = 1000;

// Runs in a worker thread with its own connection: a PASSIVE checkpoint there never blocks the server's writes,
// while an automatic checkpoint on the server's connection would stop its event loop for the fsync.
//
// A PASSIVE checkpoint copies the log into the database but never makes the writer start the log over while the
// writer is another connection that keeps writing: the log then grows without end (a gigabyte in a minute of
// steady chat). So once a PASSIVE pass has copied everything, a RESTART pass, which has next to nothing left to
// copy, marks the log as done with: the next write starts it from the beginning. It waits for nobody (busy
// timeout 0): if a reader still uses the log, it gives up and the next tick tries again.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
  if (passive && passive.log > 0 && passive.checkpointed === passive.log) db.pragma('wal_checkpoint(RESTART)');
};
const timer = setInterval(() => {
  try { checkpoint(); } catch (err) { parentPort.postMessage(String(err && err.message)); }
}, workerData.intervalMs);
parentPort.on('message', (msg) => {
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

/**
 * Starts checkpointing `file` from a worker thread. The caller turns the connection's own automatic checkpoints
 * off (`wal_autocheckpoint = 0`), so that no write on the server's thread ever waits for the disk.
 */
export function startCheckpointer(
  file: string,
  onError: (message: string) => void,
  intervalMs = INTERVAL_MS,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
  worker.unref();
  worker.on('message', (message: unknown) => {
    if (message !== 'closed') onError(String(message));
  });
  worker.on('error', (err) => onError(err.message));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        const done = () => resolve();
        worker.once('exit', done);
        worker.once('message', (message: unknown) => {
          if (message === 'closed') void worker.terminate();
        });
        worker.postMessage('close');
      }),
  };
}
