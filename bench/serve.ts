/**
 * A benchmark server in a process of its own: `node --import tsx bench/serve.ts parley|raw` prints one JSON line
 * `{"url": ...}` once listening, answers `'usage'` on its IPC channel with its {@link ServerUsage} so far, and closes
 * on SIGTERM or when the channel closes (the scenario is gone). See {@link startServerProcess}.
 *
 * With `BENCH_SERVER_PROFILE=<dir>` it profiles its CPU from the moment it listens (module loading and compiling
 * left out), starts the profile over on `'restart-profile'` (a scenario sends it once warm), and writes
 * `<dir>/<kind>-<pid>.cpuprofile` when it closes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import type { ServerUsage } from './server-process.js';
import { startBenchServer } from './parley-server.js';
import { startRawServer } from './raw-im.js';
import { processWrites, threadCpuMicros, watchPauses } from './stats.js';

const kind = process.argv[2];
const server = kind === 'raw' ? await startRawServer() : await startBenchServer();
const profiler = await startProfiler(process.env.BENCH_SERVER_PROFILE);
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
// What held the loop since the last answer: its longest delay, the collector's pauses.
const pauses = watchPauses();

// The scenario asks what the process has used so far, to tell each step's cost per message.
process.on('message', (message) => {
  if (message === 'restart-profile') void profiler?.restart();
  if (message !== 'usage') return;
  const { user, system } = process.cpuUsage();
  const usage: ServerUsage = {
    cpuMicros: user + system,
    mainThreadCpuMicros: threadCpuMicros(),
    writes: processWrites(),
    pauses: pauses.take(),
  };
  process.send?.(usage);
});
/** Closes the server and exits; a close that hangs does not keep the process (or its temporary store) alive. */
const shutDown = () => {
  setTimeout(() => process.exit(1), 5000).unref();
  void (profiler?.write() ?? Promise.resolve()).then(() => server.close()).then(() => process.exit(0));
};
process.once('SIGTERM', shutDown);
// The scenario is gone (it ended or was killed without closing this server): do not outlive it.
process.once('disconnect', shutDown);
