/**
 * A benchmark server in a process of its own: `node --import tsx bench/serve.ts parley|raw` prints one JSON line
 * `{"url": ...}` once listening and closes on SIGTERM. See {@link startServerProcess}.
 */
import { startBenchServer } from './parley-server.js';
import { startRawServer } from './raw-im.js';

const kind = process.argv[2];
const server = kind === 'raw' ? await startRawServer() : await startBenchServer();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
