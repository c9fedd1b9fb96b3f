/** A Parley server for benchmarks: an open app, no rate limit, SQLite in a temp file (messages really persisted). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/src/config.js';
import { silentLogger } from '../server/src/logger.js';
import { createParleyServer } from '../server/src/server.js';

/** The bench app: no otp, so clients connect by id. */
export const BENCH_APP = {
  appkey: 'bench',
  secretKey: 'bench-secret',
  name: 'bench',
  requireOtp: false,
  requireAccessToken: false,
};

export async function startBenchServer(): Promise<{ url: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let server: ReturnType<typeof createParleyServer>;
  let url: string;
  try {
    server = createParleyServer(
      {
        ...loadConfig({}),
        port: 0,
        host: '127.0.0.1',
        sqlite: process.env.BENCH_SQLITE ?? join(dir, 'bench.db'),
        apps: [BENCH_APP],
        logLevel: 'silent',
        rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      },
      { logger: silentLogger() },
    );
    ({ url } = await server.listen());
  } catch (error) {
    // A server that does not start (its native module missing, say) leaves no temporary store behind.
    removeDir();
    throw error;
  }
  return {
    url,
    async close() {
      await server.close();
      removeDir();
    },
  };
}
