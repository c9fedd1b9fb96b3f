import { describe, expect, it } from 'vitest';
import {
  MemoryAddressLimiter,
  REDIS_LIMIT_TIMEOUT_MS,
  RedisAddressLimiter,
  addressKey,
} from '../src/api/product/limits.js';
import { silentLogger } from '../src/logger.js';
import type { RedisClient } from '../src/presence/redis.js';
import { keysUnder, redisClient, redisPrefix, redisUrl } from './redis-support.js';

describe('MemoryAddressLimiter', () => {
  it('MEM-3: gives each address its own burst, refilled per minute', () => {
    const limiter = new MemoryAddressLimiter({ perMinute: 6, burst: 2 });
    expect([limiter.takeNow('a', 0), limiter.takeNow('a', 0), limiter.takeNow('a', 0)]).toEqual([true, true, false]);
    expect(limiter.takeNow('b', 0)).toBe(true);
    expect(limiter.takeNow('a', 9_999)).toBe(false);
    expect(limiter.takeNow('a', 10_000)).toBe(true);
  });

  it('MEM-3: remembers a bounded number of addresses, forgetting the least recently seen', () => {
    const limiter = new MemoryAddressLimiter({ perMinute: 1, burst: 1 }, 2);
    expect(limiter.takeNow('a', 0)).toBe(true);
    expect(limiter.takeNow('b', 0)).toBe(true);
    // `a` is seen again, so `b` is the one forgotten when `c` arrives.
    expect(limiter.takeNow('a', 0)).toBe(false);
    expect(limiter.takeNow('c', 0)).toBe(true);
    expect(limiter.takeNow('a', 0)).toBe(false);
    expect(limiter.takeNow('b', 0)).toBe(true);
  });

  it('MEM-4: the addresses of one IPv6 /64 share a budget', async () => {
    const limiter = new MemoryAddressLimiter({ perMinute: 1, burst: 1 });
    expect(await limiter.take('2001:db8:1:2::a', 0)).toBe(true);
    expect(await limiter.take('2001:db8:1:2:ffff:ffff:ffff:ffff', 0)).toBe(false);
    expect(await limiter.take('2001:db8:1:3::a', 0)).toBe(true);
    // A dual-stack socket's form of an IPv4 address is that address.
    expect(await limiter.take('203.0.113.7', 0)).toBe(true);
    expect(await limiter.take('::ffff:203.0.113.7', 0)).toBe(false);
  });
});

describe('addressKey', () => {
  it('MEM-4: keeps IPv4, takes an IPv6 address to its /64, and leaves anything else as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:DB8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1234')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });
});

/** A client that Redis never answers, or answers with an error. */
function brokenClient(how: 'silent' | 'error'): RedisClient {
  const never = new Promise<never>(() => undefined);
  const run = () => (how === 'silent' ? never : Promise.reject(new Error('READONLY You can not write')));
  return { isReady: true, evalSha: run, eval: run } as unknown as RedisClient;
}

describe('RedisAddressLimiter without Redis', () => {
  const limit = { perMinute: 1, burst: 2 };

  it('MEM-4: counts on this node alone when Redis fails or is not connected', async () => {
    for (const client of [brokenClient('error'), { isReady: false } as unknown as RedisClient]) {
      const limiter = new RedisAddressLimiter({ client, prefix: 'p:', path: 'x', limit, logger: silentLogger() });
      expect([await limiter.take('a', 0), await limiter.take('a', 0), await limiter.take('a', 0)]).toEqual([
        true,
        true,
        false,
      ]);
    }
  });

  it('MEM-4: does not wait for a Redis that does not answer', async () => {
    const limiter = new RedisAddressLimiter({
      client: brokenClient('silent'),
      prefix: 'p:',
      path: 'x',
      limit,
      logger: silentLogger(),
    });
    const started = performance.now();
    expect(await limiter.take('a', 0)).toBe(true);
    // Bounded by the timeout, not by Redis: generous, since a loaded machine adds to any timer.
    expect(performance.now() - started).toBeLessThan(REDIS_LIMIT_TIMEOUT_MS * 10);
  });
});

describe.runIf(Boolean(redisUrl))('RedisAddressLimiter', () => {
  it('MEM-4: two nodes share one budget per address, refilled per minute', async () => {
    const prefix = redisPrefix();
    const limit = { perMinute: 6, burst: 2 };
    const node = async () =>
      new RedisAddressLimiter({
        client: await redisClient(),
        prefix,
        path: 'member/send_code',
        limit,
        logger: silentLogger(),
      });
    const [a, b] = [await node(), await node()];
    expect(await a.take('203.0.113.7', 1_000)).toBe(true);
    expect(await b.take('203.0.113.7', 1_000)).toBe(true);
    expect(await a.take('203.0.113.7', 1_000)).toBe(false);
    expect(await b.take('203.0.113.8', 1_000)).toBe(true);
    // One call a ten seconds, whichever node counts it; a node whose clock is behind refills nothing.
    expect(await b.take('203.0.113.7', 6_000)).toBe(false);
    expect(await a.take('203.0.113.7', 12_000)).toBe(true);
    expect(await b.take('203.0.113.7', 7_000)).toBe(false);
    // The IPv6 addresses of one /64 are one budget across nodes too.
    expect(await a.take('2001:db8::1', 1_000)).toBe(true);
    expect(await b.take('2001:db8::2', 1_000)).toBe(true);
    expect(await a.take('2001:db8::3', 1_000)).toBe(false);
  });

  it('MEM-4: a bucket expires once it would be full again', async () => {
    const prefix = redisPrefix();
    const client = await redisClient();
    const limiter = new RedisAddressLimiter({
      client,
      prefix,
      path: 'member/login',
      limit: { perMinute: 10, burst: 20 },
      logger: silentLogger(),
    });
    await limiter.take('203.0.113.7', 0);
    const [key] = await keysUnder(client, prefix);
    expect(key).toBeDefined();
    const ttl = await client.pTTL(key as string);
    // 20 calls at 10 a minute: full after two minutes.
    expect(ttl).toBeGreaterThan(110_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });
});
