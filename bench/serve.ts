/**
 * A benchmark server in a process of its own: `node --import tsx bench/serve.ts parley|raw` prints one JSON line
 * `{"url": ...}` once listening, answers `'cpu'` on its IPC channel with `{cpuMicros}` and closes on SIGTERM. See
 * {@link startServerProcess}.
 */
import { startBenchServer } from './parley-server.js';
import { startRawServer } from './raw-im.js';

const kind = process.argv[2];
const server = kind === 'raw' ? await startRawServer() : await startBenchServer();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
// The scenario asks for the CPU time used so far, to tell each step's cost per message.
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuMicros: user + system });
});
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
