import { RECONNECT } from '../protocol/index.js';

/** Reconnect schedule settings. */
export interface BackoffOptions {
  /** First delay, in ms. @default 1000 */
  initialDelay: number;
  /** Largest delay, in ms. @default 5000 */
  maxDelay: number;
  /** Growth per attempt. @default 2 */
  factor: number;
  /** Random spread as a fraction of the delay, 0 to 1. @default 0.5 */
  jitter: number;
}

/** The reconnect schedule of the spec: 1000 ms growing to a 5000 ms cap, jitter 0.5. */
export const defaultBackoff: BackoffOptions = {
  initialDelay: RECONNECT.initialDelay,
  maxDelay: RECONNECT.maxDelay,
  factor: RECONNECT.factor,
  jitter: RECONNECT.jitter,
};

/**
 * Delay before reconnect attempt `attempt` (0-based): `initialDelay * factor^attempt`, moved by up to
 * `jitter` of itself either way, then capped at `maxDelay`. `random` returns a number in [0, 1).
 * The result lies in `[base * (1 - jitter), min(maxDelay, base * (1 + jitter))]` where base is uncapped.
 */
export function backoffDelay(attempt: number, random: () => number, options: BackoffOptions = defaultBackoff): number {
  const base = options.initialDelay * Math.pow(options.factor, Math.max(0, attempt));
  const spread = base * options.jitter * (2 * random() - 1);
  return Math.floor(Math.min(options.maxDelay, base + spread));
}
