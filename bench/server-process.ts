/**
 * Runs a benchmark server in a child process, so that it has a core of its own instead of sharing one event loop
 * with a thousand clients: what is measured is the server and the SDK, not one process juggling both. Both sides
 * of a comparison run this way. `BENCH_SERVER_PROFILE=<dir>` writes the server's CPU profile there (see `serve.ts`).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Pauses } from './stats.js';

const ENTRY = fileURLToPath(new URL('./serve.ts', import.meta.url));

/**
 * Node's flags for a benchmark server: those `server/package.json`'s `start` runs Parley's server with (a young
 * generation of 64 MiB a half instead of 16, see docs/benchmarks.md), given to both sides, so that a ratio compares
 * code, not tuning. `BENCH_SERVER_NODE_FLAGS` (space-separated; empty for Node's defaults) replaces them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=64',
  '--heap-growing-percent=100',
  '--no-memory-reducer',
];

/** The flags of this run: {@link SERVER_NODE_FLAGS}, or `BENCH_SERVER_NODE_FLAGS` when set. */
export function serverNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  const given = env.BENCH_SERVER_NODE_FLAGS;
  return given === undefined ? [...SERVER_NODE_FLAGS] : given.split(' ').filter(Boolean);
}

/** What a benchmark server's process has used so far. */
export interface ServerUsage {
  /** CPU time, user and system, all threads, in microseconds. */
  cpuMicros: number;
  /**
   * The main thread's share of it, where the system tells (Linux, in 10 ms ticks): the rest is SQLite's checkpointer,
   * the collector's helpers and libuv's pool.
   */
  mainThreadCpuMicros: number | null;
  /** Write calls and bytes written (sockets and files alike: a stored message is both), where the system tells. */
  writes: { calls: number; bytes: number } | null;
  /** What held its event loop since the previous `usage()`. */
  pauses: Pauses;
  /** The JavaScript heap in use now, bytes. */
  heapUsedBytes: number;
}

/** A benchmark server's process, as {@link startServerProcess} started it. */
export interface ServerProcess {
  url: string;
  /** What the server's process has used so far. */
  usage(): Promise<ServerUsage>;
  /** With `BENCH_SERVER_PROFILE`: the profile starts over here (after a warm-up, say); otherwise nothing. */
  restartProfile(): void;
  close(): Promise<void>;
}

/** Starts `bench/serve.ts` for `kind` and resolves with its URL once it listens. */
export async function startServerProcess(kind: 'parley' | 'raw'): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...serverNodeFlags(), '--import', 'tsx', ENTRY, kind], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`bench server (${kind}) exited with ${String(code)}`)));
  });
  return {
    url,
    usage: () =>
      new Promise<ServerUsage>((resolve, reject) => {
        child.once('message', (answer: Partial<ServerUsage>) => {
          if (typeof answer.cpuMicros === 'number') resolve(answer as ServerUsage);
          else reject(new Error(`bench server (${kind}) answered ${JSON.stringify(answer)}`));
        });
        child.send('usage');
      }),
    restartProfile() {
      if (process.env.BENCH_SERVER_PROFILE || process.env.BENCH_SERVER_HEAP_PROFILE) child.send('restart-profile');
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
