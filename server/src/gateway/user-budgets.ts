import type { RateLimitConfig } from '../config.js';
import { TokenBucket } from './rate-limit.js';

/** A user's connections on one node share this many times one connection's request budget (WIRE-9). */
export const USER_BUDGET_FACTOR = 3;

/**
 * WIRE-9: one request budget per user of an app on this node, shared by all of the user's connections here, so that
 * opening more connections does not buy more requests. An entry lives while the user has a connection on the node.
 * It also counts those connections, for WIRE-10's bound.
 */
export class UserBudgets {
  readonly #limit: RateLimitConfig;
  readonly #entries = new Map<string, { bucket: TokenBucket; connections: Set<string> }>();

  constructor(limit: RateLimitConfig) {
    this.#limit = {
      perSecond: limit.perSecond * USER_BUDGET_FACTOR,
      burst: limit.burst * USER_BUDGET_FACTOR,
    };
  }

  /** The shared budget of the user, with `connectionId` counted among its connections. */
  attach(appkey: string, userId: string, connectionId: string, now: number): TokenBucket {
    const key = `${appkey}\n${userId}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { bucket: new TokenBucket({ ...this.#limit, now }), connections: new Set() };
      this.#entries.set(key, entry);
    }
    entry.connections.add(connectionId);
    return entry.bucket;
  }

  /**
   * WIRE-10: counts `connectionId` among the user's connections and returns their budget, unless the user already
   * has `max` other connections here: then undefined, and nothing is counted.
   */
  claim(appkey: string, userId: string, connectionId: string, max: number, now: number): TokenBucket | undefined {
    const entry = this.#entries.get(`${appkey}\n${userId}`);
    if (entry && entry.connections.size >= max && !entry.connections.has(connectionId)) return undefined;
    return this.attach(appkey, userId, connectionId, now);
  }

  /** `connectionId` is no longer one of the user's; the budget goes with the user's last connection here. */
  detach(appkey: string, userId: string, connectionId: string): void {
    const key = `${appkey}\n${userId}`;
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.connections.delete(connectionId);
    if (entry.connections.size === 0) this.#entries.delete(key);
  }

  /** How many users have a budget now (for tests). */
  get size(): number {
    return this.#entries.size;
  }
}
