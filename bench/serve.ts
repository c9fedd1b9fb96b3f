/**
 * A benchmark server in a process of its own: `node --import tsx bench/serve.ts parley|raw` prints one JSON line
 * `{"url": ...}` once listening, answers `'usage'` on its IPC channel with its {@link ServerUsage} so far, and closes
 * on SIGTERM or when the channel closes (the scenario is gone). See {@link startServerProcess}.
 *
 * With `BENCH_SERVER_PROFILE=<dir>` it profiles its CPU from the moment it listens (module loading and compiling
 * left out), starts the profile over on `'restart-profile'` (a scenario sends it once warm), and writes
 * `<dir>/<kind>-<pid>.cpuprofile` when it closes. With `BENCH_SERVER_HEAP_PROFILE=<dir>` it samples, over the same
 * span, the allocations that outlived the young generation (see {@link startHeapSampling}). With
 * `BENCH_SERVER_TIMINGS=<dir>` it records what held its thread (see {@link recordTimings}).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import type { ServerUsage } from './server-process.js';
import { startBenchServer } from './parley-server.js';
import { startRawServer } from './raw-im.js';
import { gcKind, processWrites, threadCpuMicros, watchPauses } from './stats.js';

const kind = process.argv[2];
const server = kind === 'raw' ? await startRawServer() : await startBenchServer();
const profiler = await startProfiler(process.env.BENCH_SERVER_PROFILE);
const heapSampler = await startHeapSampling(process.env.BENCH_SERVER_HEAP_PROFILE);
const timings = recordTimings(process.env.BENCH_SERVER_TIMINGS);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);

/** The main thread's CPU profile, to be written to `dir`; nothing when no dir is given. */
async function startProfiler(dir: string | undefined) {
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async restart() {
      await session.post('Profiler.stop');
      await session.post('Profiler.start');
    },
    async write() {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${kind}-${process.pid}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

/**
 * With `dir`, samples the allocations that scavenges did not take back: those promoted to the old generation, which
 * only full collections free (whether they died later or not), and those still young at the end. Written as
 * `<dir>/<kind>-<pid>.heapprofile` (DevTools' Memory panel reads it): where the server's full collections come from.
 */
async function startHeapSampling(dir: string | undefined) {
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  const start = () =>
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
  await start();
  return {
    async restart() {
      await session.post('HeapProfiler.stopSampling');
      await start();
    },
    async write() {
      // What the young generation holds is in the profile until a scavenge takes it back: with `--expose-gc` among
      // the server's flags, two scavenges leave only what outlives them (whatever that is, it would be promoted).
      const gc = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
      gc?.({ type: 'minor' });
      gc?.({ type: 'minor' });
      const { profile } = await session.post('HeapProfiler.stopSampling');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${kind}-${process.pid}.heapprofile`), JSON.stringify(profile));
    },
  };
}

/**
 * With `dir`, records in wall-clock time what held the server's thread: every step of Parley's SQLite store (the
 * `parley:store` diagnostics channel: send batches with their pushes, later writes, log restarts), each turn of the
 * event loop that came more than 5 ms late, and each collection over 2 ms; written to `<dir>/<kind>-<pid>.timings`
 * as one JSON object a line when the server closes. Beside a client's latencies, it tells which hold made a tail.
 */
function recordTimings(dir: string | undefined) {
  if (!dir) return undefined;
  const lines: string[] = [];
  const record = (what: object, at = performance.timeOrigin + performance.now()) =>
    lines.push(JSON.stringify({ at: Math.round(at * 10) / 10, ...what }));
  const onStore = (message: unknown) => record(message as object);
  subscribe('parley:store', onStore);
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 6) record({ kind: 'loop-late', ms: now - last - 1 }, performance.timeOrigin + last);
    last = now;
  }, 1);
  timer.unref();
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > 2) {
        const detail = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail;
        record({ kind: 'gc', gc: gcKind(detail?.kind), ms: entry.duration }, performance.timeOrigin + entry.startTime);
      }
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  return {
    write() {
      clearInterval(timer);
      gc.disconnect();
      unsubscribe('parley:store', onStore);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${kind}-${process.pid}.timings`), lines.join('\n') + '\n');
    },
  };
}
// What held the loop since the last answer: its longest delay, the collector's pauses.
const pauses = watchPauses();

// The scenario asks what the process has used so far, to tell each step's cost per message.
process.on('message', (message) => {
  if (message === 'restart-profile') {
    void profiler?.restart();
    void heapSampler?.restart();
  }
  if (message !== 'usage') return;
  const { user, system } = process.cpuUsage();
  const usage: ServerUsage = {
    cpuMicros: user + system,
    mainThreadCpuMicros: threadCpuMicros(),
    writes: processWrites(),
    pauses: pauses.take(),
    heapUsedBytes: process.memoryUsage().heapUsed,
  };
  process.send?.(usage);
});
/** Closes the server and exits; a close that hangs does not keep the process (or its temporary store) alive. */
const shutDown = () => {
  setTimeout(() => process.exit(1), 5000).unref();
  timings?.write();
  void Promise.all([profiler?.write(), heapSampler?.write()])
    .then(() => server.close())
    .then(() => process.exit(0));
};
process.once('SIGTERM', shutDown);
// The scenario is gone (it ended or was killed without closing this server): do not outlive it.
process.once('disconnect', shutDown);
