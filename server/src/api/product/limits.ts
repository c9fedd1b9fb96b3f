import ipaddr from 'ipaddr.js';
import { TokenBucket } from '../../gateway/rate-limit.js';
import type { Logger } from '../../logger.js';
import { type RedisClient, RedisScript, redisKey } from '../../presence/redis.js';

/** How often one address may call a limited product path: `burst` at once, refilled at `perMinute`. */
export interface AddressLimit {
  perMinute: number;
  burst: number;
}

/**
 * MEM-3: the limits per client address of the login paths, on top of the store's limits per phone (MEM-1, MEM-2):
 * they bound the codes one address can have sent to many phones, and its guesses across them. Counting the banners'
 * ads (`ad/click`) is limited the same way, so that one address cannot inflate an ad's counts at will.
 */
export const PRODUCT_ADDRESS_LIMITS = {
  'member/send_code': { perMinute: 5, burst: 10 },
  'member/login': { perMinute: 10, burst: 20 },
  // Sign-in by QR code: a login page on a wide screen asks for a new code every two minutes and polls it every two
  // seconds; an office behind one address has several such pages open.
  'member/qr_login': { perMinute: 30, burst: 30 },
  'member/qr_login_status': { perMinute: 600, burst: 120 },
  // Counting the banners' ads: an app shows a banner of at most ten and counts each ad once a session.
  'ad/click': { perMinute: 120, burst: 60 },
  // The weather page and the city chooser ask an outside provider: one address may not spend its quota.
  'index/tianqi': { perMinute: 30, burst: 20 },
  'index/city': { perMinute: 30, burst: 20 },
  'index/city_search': { perMinute: 60, burst: 30 },
} as const satisfies Record<string, AddressLimit>;

/**
 * MEM-12: every call of the product API from one address, whatever its path, on top of the path's own limit: an app
 * opens with a dozen calls and a member scrolling makes a few a second, so that this bounds only what scripts do (a
 * feed read out page by page, the API flooded from one address), an office or a carrier's NAT of many members behind
 * one address included.
 */
export const PRODUCT_ADDRESS_OVERALL = { perMinute: 1_200, burst: 600 } as const satisfies AddressLimit;

/**
 * MEM-12: searches (a call with a `keyword`: articles, members, cities) from one address: each reads an index (or a
 * table, on a PostgreSQL without `pg_trgm`) rather than a page of the newest rows.
 */
export const PRODUCT_ADDRESS_SEARCH = { perMinute: 60, burst: 30 } as const satisfies AddressLimit;

/** The budgets {@link PRODUCT_ADDRESS_OVERALL} and {@link PRODUCT_ADDRESS_SEARCH} are kept under (Redis keys). */
export const OVERALL_LIMIT_NAME = '*';
export const SEARCH_LIMIT_NAME = '*search';

/**
 * LIVE-7, LIVE-12: the limits per member of paths a member could flood from many addresses: a live room's chat, and
 * requests to join its anchor on stage (each one an event to the anchor). The budgets
 * are kept as the limits per address are (in memory, or in Redis with several nodes), under `member:<id>`.
 */
export const PRODUCT_MEMBER_LIMITS = {
  'live/say': { perMinute: 20, burst: 5 },
  'live/link_request': { perMinute: 10, burst: 5 },
} as const satisfies Record<string, AddressLimit>;

/** Most addresses a {@link MemoryAddressLimiter} remembers; the least recently seen is forgotten first. */
export const ADDRESS_LIMITER_MAX = 10_000;

/**
 * MEM-4: what a client address is limited as. An IPv4 address is itself; an IPv6 address is its /64 network, since
 * one subscriber is given a whole /64 and picks addresses in it at will; an IPv4 address written as IPv6
 * (`::ffff:203.0.113.7`, what a dual-stack socket reports) is the IPv4 address. Anything else is kept as given.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}

/** Budgets per client address for one limited path (MEM-3). */
export interface AddressLimiter {
  /** Takes one call from the budget of `address` (grouped by {@link addressKey}) at `now`; false when it is spent. */
  take(address: string, now: number): Promise<boolean>;
}

/** Token buckets per client address, in memory on this node, the least recently seen forgotten past a bound. */
export class MemoryAddressLimiter implements AddressLimiter {
  readonly #limit: AddressLimit;
  readonly #max: number;
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(limit: AddressLimit, max = ADDRESS_LIMITER_MAX) {
    this.#limit = limit;
    this.#max = max;
  }

  /** See {@link AddressLimiter.take}; answers at once. */
  takeNow(address: string, now: number): boolean {
    const key = addressKey(address);
    let bucket = this.#buckets.get(key);
    if (bucket) {
      // Most recently seen last: a Map keeps insertion order.
      this.#buckets.delete(key);
    } else {
      bucket = new TokenBucket({ perSecond: this.#limit.perMinute / 60, burst: this.#limit.burst, now });
      if (this.#buckets.size >= this.#max) this.#buckets.delete(this.#buckets.keys().next().value as string);
    }
    this.#buckets.set(key, bucket);
    return bucket.take(now);
  }

  take(address: string, now: number): Promise<boolean> {
    return Promise.resolve(this.takeNow(address, now));
  }
}

/**
 * One token bucket in a Redis hash: `t` the tokens left, `a` when they were counted (milliseconds). The time only
 * moves forward, so that nodes whose clocks differ a little cannot refill a bucket twice. The key expires once the
 * bucket would be full again, when it means no more than a missing one.
 */
const TAKE_SCRIPT = new RedisScript(`
local state = redis.call('HMGET', KEYS[1], 't', 'a')
local now = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) * perMs)
  at = now
end
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(at))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return taken
`);

/** How long a limit waits for Redis before this node's own budget decides. */
export const REDIS_LIMIT_TIMEOUT_MS = 500;

/**
 * MEM-4: the budgets of one path shared by every node through Redis, so that more nodes do not give an address more
 * calls. While Redis is away (not connected, an error, or no answer within {@link REDIS_LIMIT_TIMEOUT_MS}), this
 * node's own budgets decide, so that logins go on without it.
 */
export class RedisAddressLimiter implements AddressLimiter {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #path: string;
  readonly #perMs: number;
  readonly #burst: number;
  /** When an untouched bucket is full again, and its key can go. */
  readonly #fullAfterMs: number;
  readonly #fallback: MemoryAddressLimiter;
  readonly #logger: Logger;

  constructor(params: { client: RedisClient; prefix: string; path: string; limit: AddressLimit; logger: Logger }) {
    this.#client = params.client;
    this.#prefix = params.prefix;
    this.#path = params.path;
    this.#perMs = params.limit.perMinute / 60_000;
    this.#burst = params.limit.burst;
    this.#fullAfterMs = Math.ceil(this.#burst / this.#perMs);
    this.#fallback = new MemoryAddressLimiter(params.limit);
    this.#logger = params.logger;
  }

  async take(address: string, now: number): Promise<boolean> {
    const key = redisKey(this.#prefix, 'limit', this.#path, addressKey(address));
    // node-redis holds commands while it reconnects: a login must not wait for that.
    if (!this.#client.isReady) return this.#fallback.takeNow(address, now);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), REDIS_LIMIT_TIMEOUT_MS);
    });
    try {
      const args = [String(now), String(this.#perMs), String(this.#burst), String(this.#fullAfterMs)];
      const taken = await Promise.race([TAKE_SCRIPT.run(this.#client, [key], args), late]);
      if (taken !== 'late') return taken === 1;
      this.#logger.warn({ path: this.#path }, 'redis did not answer a limit in time; this node counts alone');
    } catch (err) {
      this.#logger.warn({ err, path: this.#path }, 'redis failed a limit; this node counts alone');
    } finally {
      clearTimeout(timer);
    }
    return this.#fallback.takeNow(address, now);
  }
}
