/**
 * Redis fixtures: the suites that need Redis run when PARLEY_TEST_REDIS names a server. Each test gets a key prefix
 * of its own, so that test files running in parallel on one Redis never meet, and every key under it is deleted
 * after the test.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import type { RedisClient } from '../src/presence/redis.js';
import { defer } from './helpers.js';

/** The Redis the suites run against, if any. */
export const redisUrl = process.env['PARLEY_TEST_REDIS'];

/** A connected client of the test Redis, closed after the test. */
export async function redisClient(): Promise<RedisClient> {
  const client: RedisClient = createClient({ url: redisUrl });
  await client.connect();
  defer(async () => {
    if (client.isOpen) await client.quit();
  });
  return client;
}

/**
 * A fresh key prefix; every key under it is deleted after the test, once what the test started later (servers,
 * clients) has closed.
 */
export function redisPrefix(): string {
  const prefix = `parley-test-${randomBytes(6).toString('hex')}:`;
  defer(async () => {
    const client: RedisClient = createClient({ url: redisUrl });
    await client.connect();
    try {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 200 })) {
        if (keys.length > 0) await client.del(keys);
      }
    } finally {
      await client.quit();
    }
  });
  return prefix;
}

/** The keys under `prefix` that exist now. */
export async function keysUnder(client: RedisClient, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 200 })) found.push(...keys);
  return found.sort();
}
