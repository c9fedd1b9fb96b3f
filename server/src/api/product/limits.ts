import { TokenBucket } from '../../gateway/rate-limit.js';

/** How often one address may call a limited product path: `burst` at once, refilled at `perMinute`. */
export interface AddressLimit {
  perMinute: number;
  burst: number;
}

/**
 * MEM-3: the limits per client address of the login paths, on top of the store's limits per phone (MEM-1, MEM-2):
 * they bound the codes one address can have sent to many phones, and its guesses across them.
 */
export const PRODUCT_ADDRESS_LIMITS = {
  'member/send_code': { perMinute: 5, burst: 10 },
  'member/login': { perMinute: 10, burst: 20 },
} as const satisfies Record<string, AddressLimit>;

/** Most addresses an {@link AddressLimiter} remembers; the least recently seen is forgotten first. */
export const ADDRESS_LIMITER_MAX = 10_000;

/** Token buckets per client address, in memory on this node, the least recently seen forgotten past a bound. */
export class AddressLimiter {
  readonly #limit: AddressLimit;
  readonly #max: number;
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(limit: AddressLimit, max = ADDRESS_LIMITER_MAX) {
    this.#limit = limit;
    this.#max = max;
  }

  /** Takes one call from the address's budget at `now`; false when it is spent. */
  take(address: string, now: number): boolean {
    let bucket = this.#buckets.get(address);
    if (bucket) {
      // Most recently seen last: a Map keeps insertion order.
      this.#buckets.delete(address);
    } else {
      bucket = new TokenBucket({ perSecond: this.#limit.perMinute / 60, burst: this.#limit.burst, now });
      if (this.#buckets.size >= this.#max) this.#buckets.delete(this.#buckets.keys().next().value as string);
    }
    this.#buckets.set(address, bucket);
    return bucket.take(now);
  }
}
