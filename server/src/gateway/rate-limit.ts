/**
 * A token bucket: holds up to `burst` tokens, refills `perSecond` per second, and each request takes one.
 * Time comes in as an argument so that tests drive it without waiting.
 */
export class TokenBucket {
  readonly #perMs: number;
  readonly #burst: number;
  #tokens: number;
  #updatedAt: number;

  constructor(params: { perSecond: number; burst: number; now: number }) {
    this.#perMs = params.perSecond / 1000;
    this.#burst = params.burst;
    this.#tokens = params.burst;
    this.#updatedAt = params.now;
  }

  /** Takes a token if one is left at `now`; false means the request is over the limit. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.#burst, this.#tokens + elapsed * this.#perMs);
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
