/**
 * The server's storage cost per group message, alone: `node --import tsx bench/store-cost.ts`. The SQLite store
 * (a temporary file, WAL, its checkpointer thread running, as a server has it) stores group messages through
 * `messages.send`, in batches of `STORE_COST_BATCH` (11: what the server's loop gathers per turn at about 3 000
 * messages a second in `im-chat`), a hundred groups of ten sending in turn at random. It prints one JSON line: CPU
 * microseconds per message for the whole process and for its main thread alone (Linux), the write calls per
 * message, and the bytes per message its scavenges promoted to the old generation (what outlives two of them is
 * garbage only a full collection takes back). On `im-chat`'s two cores what the whole process spends is what limits
 * the ratio (docs/benchmarks.md); the main thread's share says what a change of thread would move. Thread CPU is
 * read in clock ticks of 10 ms (Linux's usual 100 Hz). Message ids are the SDK's (`timeOrderedHexId`);
 * `STORE_COST_IDS=random` sends random ones, as the reference client does. `STORE_COST_SCENE=private` stores the
 * private messages of one pair instead, as `im-latency` does (with `STORE_COST_BATCH=1`: one message a commit, what
 * its server gathers at 1 000/s). Run it more than once (`STORE_COST_RUNS`), on a quiet machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../server/src/store/index.js';
import { randomBytes } from 'node:crypto';
import { GCProfiler } from 'node:v8';
import { timeOrderedHexId } from '../src/core/ids.js';
import { processWrites, promotedBytes, round3, threadCpuMicros } from './stats.js';

const GROUPS = 100;
const GROUP_SIZE = 10;
const BATCH = Number(process.env.STORE_COST_BATCH ?? 11);
/** Enough for the tables to grow past the page cache's first pages and the code to be compiled. */
const WARMUP = Number(process.env.STORE_COST_WARMUP ?? 30_000);
const MESSAGES = Number(process.env.STORE_COST_MESSAGES ?? 60_000);
const RUNS = Number(process.env.STORE_COST_RUNS ?? 3);
const IDS = process.env.STORE_COST_IDS === 'random' ? 'random' : 'sdk';
const SCENE = process.env.STORE_COST_SCENE === 'private' ? 'private' : 'group';
const newId = IDS === 'random' ? () => randomBytes(16).toString('hex') : () => timeOrderedHexId();

const dir = mkdtempSync(join(tmpdir(), 'parley-store-cost-'));
const store = await openStore({
  sqlite: join(dir, 'store.db'),
  dataDir: dir,
  databaseUrl: undefined,
  databaseSchema: undefined,
});

/**
 * One private message of `alice` and `bob`, either way at random, as the message service hands it to the store
 * (`STORE_COST_SCENE=private`: what `im-latency` stores).
 */
function sendPrivate(): Promise<unknown> {
  const [senderId, targetId] = Math.random() < 0.5 ? ['alice', 'bob'] : ['bob', 'alice'];
  const senderData = `{"n":"${senderId}"}`;
  return store.messages.send({
    message: {
      appkey: 'bench',
      convKey: 'private:alice:bob',
      scene: 'private',
      messageId: newId(),
      senderId,
      targetId,
      type: 'text',
      payload: '{"text":"hi"}',
      senderData,
    },
    now: Date.now(),
    rows: [
      { ownerId: senderId, targetId, data: null },
      { ownerId: targetId, targetId: senderId, data: senderData },
    ],
    readerId: senderId,
    stored: () => undefined,
  });
}

/** One group message from a random member of a random group, as the message service hands it to the store. */
function sendGroup(): Promise<unknown> {
  const group = Math.floor(Math.random() * GROUPS);
  const sender = `u${group * GROUP_SIZE + Math.floor(Math.random() * GROUP_SIZE)}`;
  const rows = Array.from({ length: GROUP_SIZE }, (_, k) => ({
    ownerId: `u${group * GROUP_SIZE + k}`,
    targetId: `g${group}`,
    data: '{}',
  }));
  return store.messages.send({
    message: {
      appkey: 'bench',
      convKey: `group:g${group}`,
      scene: 'group',
      messageId: newId(),
      senderId: sender,
      targetId: `g${group}`,
      type: 'text',
      payload: '{"text":"hi"}',
      senderData: `{"n":"${sender}"}`,
    },
    now: Date.now(),
    rows,
    readerId: sender,
    stored: () => undefined,
  });
}

async function sendMany(count: number): Promise<void> {
  for (let sent = 0; sent < count; sent += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, count - sent) }, SCENE === 'private' ? sendPrivate : sendGroup),
    );
  }
}

await sendMany(WARMUP);
const runs: Array<{ process: number; main: number | null; writes: number | null; promoted: number }> = [];
for (let run = 0; run < RUNS; run++) {
  const gcs = new GCProfiler();
  gcs.start();
  const cpu = process.cpuUsage();
  const main = threadCpuMicros();
  const writes = processWrites()?.calls ?? null;
  await sendMany(MESSAGES);
  const used = process.cpuUsage(cpu);
  const mainAfter = threadCpuMicros();
  const writesAfter = processWrites()?.calls ?? null;
  runs.push({
    process: (used.user + used.system) / MESSAGES,
    main: main !== null && mainAfter !== null ? (mainAfter - main) / MESSAGES : null,
    writes: writes !== null && writesAfter !== null ? (writesAfter - writes) / MESSAGES : null,
    promoted: promotedBytes(gcs.stop().statistics) / MESSAGES,
  });
}
await store.close();
rmSync(dir, { recursive: true, force: true });
// Noise only ever adds: the least of the runs counts.
const least = (pick: (r: (typeof runs)[number]) => number | null) => {
  const values = runs.map(pick).filter((v): v is number => v !== null);
  return values.length > 0 ? round3(Math.min(...values)) : null;
};
console.log(
  JSON.stringify({
    bench: 'store-cost',
    batch: BATCH,
    scene: SCENE,
    ids: IDS,
    messages: MESSAGES,
    runs: RUNS,
    process_cpu_us_per_message: least((r) => r.process),
    main_thread_cpu_us_per_message: least((r) => r.main),
    write_calls_per_message: least((r) => r.writes),
    promoted_bytes_per_message: least((r) => r.promoted),
  }),
);
