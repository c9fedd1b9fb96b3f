import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.js';
import { openSqliteFile } from '../src/store/sqlite-file.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SQLITE_FILE_MODULE = fileURLToPath(new URL('../src/store/sqlite-file.ts', import.meta.url));
const MAIN_MODULE = fileURLToPath(new URL('../src/main.ts', import.meta.url));

const dirs: string[] = [];
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-sqlite-file-'));
  dirs.push(dir);
  return dir;
}

function opened(file: string, options?: Parameters<typeof openSqliteFile>[1]) {
  const sqlite = openSqliteFile(file, options);
  cleanups.push(() => void sqlite.database.close());
  return sqlite;
}

async function storeAt(file: string): Promise<Store> {
  const store = await openStore({ sqlite: file, dataDir: tmpdir(), databaseUrl: undefined, databaseSchema: undefined });
  cleanups.push(() => store.close());
  return store;
}

/** Reads `file` from another process, waiting at most 100 ms for its lock: the row count, or the error's code. */
function readFromAnotherProcess(file: string): string {
  const child = spawnSync(
    process.execPath,
    [
      '-e',
      `const Database = require('better-sqlite3');
try {
  const db = new Database(${JSON.stringify(file)}, { timeout: 100 });
  console.log(String(db.prepare("select count(*) as n from sqlite_master").get().n));
} catch (err) { console.log(err.code); }`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return child.stdout.trim();
}

/** Runs an ES module script with tsx in a process of its own; its stdout's last line as JSON. */
function runScript(dir: string, source: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const script = join(dir, `script-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(script, source);
  const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8', env });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? 'null');
}

describe('the SQLite file of a server', () => {
  it("is this process's alone while a store has it open, and free again once it closes", async () => {
    const file = join(tempDir(), 'parley.db');
    const store = await storeAt(file);
    expect(readFromAnotherProcess(file)).toBe('SQLITE_BUSY');
    await store.close();
    expect(Number(readFromAnotherProcess(file))).toBeGreaterThan(0);
  });

  it("is shared with this process's other connections, a worker thread's included", async () => {
    const file = join(tempDir(), 'parley.db');
    const { database, name, exclusive } = opened(file);
    expect(exclusive).toBe(true);
    database.pragma('journal_mode = WAL');
    database.pragma('wal_autocheckpoint = 0');
    database.exec("create table t (v text); insert into t values ('a'), ('b')");
    const other = new BetterSqlite3(name);
    cleanups.push(() => void other.close());
    expect(other.prepare('select count(*) as n from t').get()).toEqual({ n: 2 });
    // No index of the log on disk: it is in this process's memory.
    expect(existsSync(`${file}-shm`)).toBe(false);
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.name);
const n = db.prepare('select count(*) as n from t').get().n;
const [checkpoint] = db.pragma('wal_checkpoint(PASSIVE)');
db.close();
parentPort.postMessage({ n, copied: checkpoint.checkpointed === checkpoint.log && checkpoint.log > 0 });`,
      { eval: true, workerData: { name, driver: join(ROOT, 'node_modules', 'better-sqlite3') } },
    );
    const reply = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply).toEqual({ n: 2, copied: true });
  });

  it('stops a second server at its start, saying why, rather than at its first message', () => {
    const dir = tempDir();
    const file = join(dir, 'parley.db');
    opened(file);
    const outcome = runScript(
      dir,
      `import { openSqliteFile } from ${JSON.stringify(SQLITE_FILE_MODULE)};
try {
  openSqliteFile(${JSON.stringify(file)}, { lockWaitMs: 100 });
  console.log(JSON.stringify('opened'));
} catch (err) {
  console.log(JSON.stringify(err.message));
}`,
    );
    expect(outcome).toMatch(/^The SQLite file .*parley\.db is in use by another process\. One server process serves/);
    expect(outcome).toMatch(/PARLEY_SQLITE_SHARED=true/);
  });

  it('has a server started on a held file fail with the message alone, no stack', async () => {
    const dir = tempDir();
    const file = join(dir, 'parley.db');
    await storeAt(file);
    const child = spawnSync(process.execPath, ['--import', 'tsx', MAIN_MODULE], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PARLEY_SQLITE: file, PARLEY_DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' },
      timeout: 20_000,
    });
    expect(child.status).toBe(1);
    expect(child.stderr).toMatch(
      /^Parley failed to start: The SQLite file .*parley\.db is in use by another process\./,
    );
    expect(child.stderr).not.toMatch(/\n\s+at /);
  });

  it('with shared, lets another process read it while it is open', () => {
    const file = join(tempDir(), 'parley.db');
    const { database, exclusive, name } = opened(file, { shared: true });
    expect([exclusive, name]).toEqual([false, file]);
    database.exec('create table t (v text)');
    expect(readFromAnotherProcess(file)).toBe('1');
  });

  it('opens a file whose path holds characters a URI gives a meaning to', () => {
    const dir = join(tempDir(), 'a?b#c%20d');
    mkdirSync(dir);
    const file = join(dir, 'parley.db');
    const { database, exclusive } = opened(file);
    database.exec('create table t (v text)');
    expect(exclusive).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(readFromAnotherProcess(file)).toBe('SQLITE_BUSY');
  });

  it('opens it shared, and says so, in a process whose SQLite takes no URI file names', () => {
    const dir = tempDir();
    const file = join(dir, 'parley.db');
    const outcome = runScript(
      dir,
      `import { openSqliteFile } from ${JSON.stringify(SQLITE_FILE_MODULE)};
const warnings: string[] = [];
const { database, exclusive, name } = openSqliteFile(${JSON.stringify(file)}, { onWarning: (m) => warnings.push(m) });
database.exec('create table t (v text)');
console.log(JSON.stringify({ exclusive, name, warnings }));`,
      { ...process.env, SQLITE_USE_URI: '0' },
    );
    expect(outcome).toEqual({
      exclusive: false,
      name: file,
      warnings: [expect.stringMatching(/could not open .* for this process alone .*SQLITE_USE_URI/)],
    });
  });
});
