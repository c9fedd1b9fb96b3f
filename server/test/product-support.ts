/** Fixtures for the product API tests: a server with a recording SMS provider and a clock the test moves. */
import { createDevSmsProvider } from '../src/members/sms.js';
import { silentLogger } from '../src/logger.js';
import type { ServerConfig } from '../src/config.js';
import { createParleyServer } from '../src/server.js';
import { SECURE_APP, defer, testConfig } from './helpers.js';

/**
 * A started server whose product API issues otps for SECURE_APP, with its SMS outbox and clock; `overrides` change
 * its config.
 */
export async function startProductServer(start = 1_700_000_000_000, overrides: Partial<ServerConfig> = {}) {
  let time = start;
  const sms = createDevSmsProvider(silentLogger());
  const server = createParleyServer(testConfig({ productAppkey: SECURE_APP.appkey, ...overrides }), {
    logger: silentLogger(),
    now: () => time,
    sms,
  });
  defer(() => server.close());
  const { url } = await server.listen();
  return {
    url,
    server,
    sms,
    /** Moves the server's clock forward. */
    advance(ms: number) {
      time += ms;
    },
    now: () => time,
    /** POSTs a product API call and returns the JSON answer. */
    // Answers are loosely typed on purpose: each test checks the fields it cares about.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async call(path: string, body: unknown): Promise<Record<string, any>> {
      const res = await fetch(`${url}/index.php/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, ...((await res.json()) as Record<string, unknown>) };
    },
  };
}

/** A mainland number for tests. */
export const PHONE = '13800138000';
