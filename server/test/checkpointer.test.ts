import type BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer, type Checkpointer } from '../src/store/checkpointer.js';
import { openSqliteFile } from '../src/store/sqlite-file.js';
import type { StoreTiming } from '../src/store/timing.js';

const dirs: string[] = [];
const open: Array<{ db: BetterSqlite3.Database; checkpointer: Checkpointer }> = [];

afterEach(async () => {
  for (const { db, checkpointer } of open.splice(0)) {
    await checkpointer.close();
    db.close();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A writer set up as the store sets up its connection (the file this process's alone unless `shared`), with the
 * checkpointer running every `intervalMs` and the writer checkpointing itself past `maxLogBytes`.
 */
function writer(intervalMs?: number, maxLogBytes?: number, shared = false) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-ckpt-'));
  dirs.push(dir);
  const file = join(dir, 'test.db');
  const { database: db, name } = openSqliteFile(file, { shared });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (id integer primary key, v text)');
  const errors: string[] = [];
  const checkpointer = startCheckpointer(name, {
    writer: db,
    onError: (message) => errors.push(message),
    ...(intervalMs === undefined ? {} : { intervalMs }),
    ...(maxLogBytes === undefined ? {} : { maxLogBytes }),
  });
  open.push({ db, checkpointer });
  const insert = db.prepare('insert into t (v) values (?)');
  const batch = db.transaction((rows: number) => {
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(1000));
  });
  return { db, file, batch, errors };
}

/** Whether a write loop goes on: for `ms` at least, and until `bytes` are written however long a busy machine takes. */
function keepWriting(ms: number, bytes = 0): (written: number) => boolean {
  const start = Date.now();
  return (written) => {
    const elapsed = Date.now() - start;
    return elapsed < ms || (written < bytes && elapsed < 20_000);
  };
}

/**
 * Ten rows of 1 000 bytes every 2 ms or so, as steady chat traffic writes, for `ms` and until `bytes` are written;
 * returns the rows' bytes.
 */
async function writeSteadily(batch: (rows: number) => void, ms: number, bytes?: number): Promise<number> {
  const going = keepWriting(ms, bytes);
  let written = 0;
  while (going(written)) {
    batch(10);
    written += 10 * 1000;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return written;
}

/** Enough written that a log which never starts over would hold several times the bounds the tests check. */
const VOLUME = 4_500_000;

/** Counts the checkpoints `db` makes on its own thread to start its log over (restartLog in checkpointer.ts). */
function countRestarts(db: BetterSqlite3.Database): () => number {
  let restarts = 0;
  const pragma = db.pragma.bind(db);
  db.pragma = (source: string, options?: BetterSqlite3.PragmaOptions) => {
    if (source === 'wal_checkpoint(RESTART)') restarts += 1;
    return pragma(source, options);
  };
  return () => restarts;
}

describe('the SQLite checkpointer', () => {
  it.each(['exclusive', 'shared'])(
    'keeps the write-ahead log from growing while another connection writes without a pause (%s file)',
    async (mode) => {
      const { file, batch, errors } = writer(50, undefined, mode === 'shared');
      // About 5 MB a second into the log for 1.5 s: what steady chat traffic does; longer on a busy machine, whose
      // slower writes must not leave too little written for the bound below to tell anything.
      const written = await writeSteadily(batch, 1500, VOLUME);
      const walBytes = statSync(`${file}-wal`).size;
      expect(errors).toEqual([]);
      // A log that never starts over holds everything written (more, with page overhead); one that does holds a
      // few checkpoint intervals' worth. The file keeps its largest size, so one late pass on a busy machine (the test
      // suite's other files running on the same two cores) shows: half of what was written leaves room for that.
      expect(written).toBeGreaterThanOrEqual(VOLUME);
      expect(walBytes).toBeLessThan(written / 2);
    },
  );

  it('by default starts the log over several times a second, so that it stays short', async () => {
    const { file, batch, errors } = writer();
    // Steady writes for 0.9 s: a pass a second would not have come yet, and the log would hold all of them.
    const written = await writeSteadily(batch, 900);
    const walBytes = statSync(`${file}-wal`).size;
    expect(errors).toEqual([]);
    expect(written).toBeGreaterThan(2_000_000);
    // The log holds whole pages, about twice the rows' bytes: that much when no pass came (a pass a second), about
    // three quarters of them when it starts over every quarter of a second, and up to 1.2 times seen when the suite's
    // other files kept the worker from its core for a while: 1.5 tells the two apart with room for that.
    expect(walBytes).toBeLessThan(written * 1.5);
  });

  it('has the writer finish a long log when it never leaves the worker a moment, and gives the disk back', async () => {
    const maxLogBytes = 1024 * 1024;
    // Passes back to back, as on a busy machine where one takes longer than the interval: the worker must leave the
    // writer a moment to start the log over, or the writer finds a pass running nearly every time it tries.
    const { file, batch, errors } = writer(1, maxLogBytes);
    // Transactions back to back, the event loop turning between them but the database never idle, for 1.5 s and
    // until a volume is written, however long a busy machine takes.
    const going = keepWriting(1500, VOLUME);
    let written = 0;
    while (going(written)) {
      batch(20);
      written += 20 * 1000;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const walBytes = statSync(`${file}-wal`).size;
    expect(errors).toEqual([]);
    expect(written).toBeGreaterThanOrEqual(VOLUME);
    // As in the first test: far below everything written, with room for a late pass.
    expect(walBytes).toBeLessThan(written / 2);
    // Once the writer pauses the log is copied and starts over; the first write after that cuts its file back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    batch(1);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(maxLogBytes);
  });

  it.each(['exclusive', 'shared'])(
    'never makes a transaction of the writer that reads, waits and then writes fail (%s file)',
    async (mode) => {
      const { db, file, errors } = writer(10, undefined, mode === 'shared');
      // Kysely's transactions on SQLite: a deferred BEGIN, a read, awaits, then the write.
      const count = db.prepare('select count(*) as n from t');
      const insert = db.prepare('insert into t (v) values (?)');
      const until = Date.now() + 1500;
      let transactions = 0;
      while (Date.now() < until) {
        db.exec('begin');
        count.get();
        await new Promise((resolve) => setImmediate(resolve));
        for (let i = 0; i < 20; i++) insert.run('x'.repeat(1000));
        db.exec('commit');
        transactions += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(errors).toEqual([]);
      expect(transactions).toBeGreaterThan(100);
      expect(statSync(`${file}-wal`).size).toBeLessThan(transactions * 20 * 1000);
    },
  );

  it('copies a steadily written log from the worker alone, never holding the writer for it', async () => {
    const { db, file, batch, errors } = writer(50);
    const restarts = countRestarts(db);
    const written = await writeSteadily(batch, 1500, VOLUME);
    expect(errors).toEqual([]);
    expect(written).toBeGreaterThanOrEqual(VOLUME);
    // The log started over all along (it would hold everything written otherwise)...
    expect(statSync(`${file}-wal`).size).toBeLessThan(written / 2);
    // ...without the writer copying any of it on its own thread: a pass after each copy, as before, made it do so
    // 24-30 times here; a few times (up to 3 seen) when a busy machine keeps the passes from the end.
    expect(restarts()).toBeLessThanOrEqual(6);
  });

  it('leaves an idle writer alone once its log is copied, and its next write starts the log over', async () => {
    const { db, batch, errors } = writer(10);
    const restarts = countRestarts(db);
    batch(50);
    // Seventy passes, the first ones copying the fifty rows, the rest finding nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(errors).toEqual([]);
    expect(restarts()).toBe(0);
    // A write now goes to the log's beginning, which a long log would not let it do.
    batch(1);
    const [after] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    expect(after?.log).toBeLessThan(10);
  });

  it('closes even when a pass has just asked for a restart', async () => {
    for (let round = 0; round < 20; round++) {
      const { batch } = writer(1);
      batch(50);
      await new Promise((resolve) => setTimeout(resolve, 3));
      const { checkpointer, db } = open.pop() as (typeof open)[number];
      const closed = await Promise.race([
        checkpointer.close().then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
      ]);
      db.close();
      expect(closed).toBe(true);
    }
  });

  it("times each start of the log over on the writer's own thread (diagnostics channel parley:store)", async () => {
    // Passes back to back and a small log: the writer is asked to finish the log itself now and then.
    const { db, batch, errors } = writer(1, 256 * 1024);
    const restarts = countRestarts(db);
    const timings: StoreTiming[] = [];
    const onMessage = (message: unknown) => timings.push(message as StoreTiming);
    subscribe('parley:store', onMessage);
    try {
      const until = Date.now() + 1500;
      while (Date.now() < until && restarts() < 3) {
        batch(20);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      unsubscribe('parley:store', onMessage);
    }
    expect(errors).toEqual([]);
    expect(restarts()).toBeGreaterThan(0);
    const logRestarts = timings.filter((t) => t.kind === 'log-restart');
    expect(logRestarts).toHaveLength(restarts());
    for (const t of logRestarts) expect(t.kind === 'log-restart' && t.ms >= 0).toBe(true);
  });
});
