import { channel } from 'node:diagnostics_channel';

/**
 * What the SQLite store did on the server's thread, and for how long: a batch of sends stored in one transaction
 * and then pushed, the later writes made in one transaction (later-writes.ts), the log started over by the server's
 * own connection (checkpointer.ts). Each holds the event loop for its whole duration, so these are what to look at
 * when the loop is held longer than expected.
 */
export type StoreTiming =
  | {
      kind: 'send-batch';
      /** Sends stored in the batch's transaction. */
      messages: number;
      /** The transaction, from its first statement to its commit, in milliseconds. */
      storeMs: number;
      /** What came after the commit: pushing each stored message and settling each send, in milliseconds. */
      pushMs: number;
    }
  | {
      kind: 'later-writes';
      /** Read offsets and group heads written. */
      writes: number;
      ms: number;
    }
  | { kind: 'log-restart'; ms: number };

/**
 * The diagnostics channel `parley:store`: subscribe with `diagnostics_channel.subscribe('parley:store', fn)` to
 * receive a {@link StoreTiming} for each of the store's synchronous steps. Nothing is measured while nobody listens.
 */
export const storeTimings = channel('parley:store');

/** The clock the timings read: `performance.now()`, but only while someone listens; 0 otherwise. */
export function timingStart(): number {
  return storeTimings.hasSubscribers ? performance.now() : 0;
}

/** Publishes a timing made from `start` (see {@link timingStart}); nothing when nobody listened at the start. */
export function publishTiming(start: number, timing: (elapsedMs: number) => StoreTiming): void {
  if (start === 0 || !storeTimings.hasSubscribers) return;
  storeTimings.publish(timing(performance.now() - start));
}
