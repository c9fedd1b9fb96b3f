/**
 * Runs a benchmark server in a child process, so that it has a core of its own instead of sharing one event loop
 * with a thousand clients: what is measured is the server and the SDK, not one process juggling both. Both sides
 * of a comparison run this way. `BENCH_SERVER_PROFILE=<dir>` writes the server's CPU profile there.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** Starts `bench/serve.ts` for `kind` and resolves with its URL once it listens. */
export async function startServerProcess(kind: 'parley' | 'raw'): Promise<{ url: string; close(): Promise<void> }> {
  const profile = process.env.BENCH_SERVER_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', ENTRY, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`bench server (${kind}) exited with ${String(code)}`)));
  });
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
