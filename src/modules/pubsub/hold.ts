import type { WirePubsubMessage } from '../../protocol/index.js';

/** Messages held at once before they are handed over anyway, in order, so that a lost mark cannot grow memory. */
const HELD_MAX = 5000;

/** An `unsubscribe` waiting for its channel's redeliveries. */
interface Waiting {
  readonly channel: string;
  readonly resolve: () => void;
}

/** A `subscribe` whose redeliveries may still come. */
interface Subscribing {
  /** Its channels, sorted and joined: a mark names the same ones. */
  readonly key: string;
  readonly channels: ReadonlySet<string>;
  acked: boolean;
}

/**
 * PUB-8: holds a channel's pushed messages while redeliveries of it may still come, so that messages reach
 * `onMessage` in the channel's order (by server time) instead of live ones first. A server that marks its
 * redeliveries pushes `PS_REDELIVERED` after those of each `authorize` (every channel of the session) and of each
 * `subscribe` (its channels). Meanwhile messages of those channels wait here; each mark hands over, by time, those
 * no longer held.
 *
 * Holding starts when the link is lost (the next connection's authorize redelivers every channel) and when a
 * `subscribe` is sent (messages may be pushed before its ack, redeliveries after). A server that does not mark gets
 * nothing held.
 */
export class RedeliveryHold {
  readonly #deliver: (message: WirePubsubMessage) => void;
  /** Whether the server marks its redeliveries, as its authorize reply said. */
  #marks = false;
  /** Every channel is held: the link was lost, and the authorize's mark has not come yet. */
  #all = false;
  readonly #subscribing: Subscribing[] = [];
  #held: WirePubsubMessage[] = [];
  /** Those waiting for a channel to be handed over ({@link settled}). */
  #waiting: Waiting[] = [];

  constructor(deliver: (message: WirePubsubMessage) => void) {
    this.#deliver = deliver;
  }

  /** A message was pushed (not a duplicate): handed over now, or held. */
  push(message: WirePubsubMessage): void {
    if (!this.#holds(message.n)) {
      this.#deliver(message);
      return;
    }
    this.#held.push(message);
    if (this.#held.length > HELD_MAX) this.#release(true);
  }

  /** The link was lost: the marks still to come on it never will, and the next authorize redelivers everything. */
  linkLost(): void {
    this.#all = this.#marks;
    for (let i = this.#subscribing.length - 1; i >= 0; i--) {
      // Not yet answered: sent again on the next connection, which marks it there.
      if ((this.#subscribing[i] as Subscribing).acked) this.#subscribing.splice(i, 1);
    }
  }

  /** Authorized: `marks` is what the server said about marking its redeliveries. */
  authorized(marks: boolean): void {
    this.#marks = marks;
    if (marks) return;
    this.#all = false;
    this.#subscribing.length = 0;
    this.#release(false);
  }

  /** A `subscribe` of `channels` is on its way; returns what to call with its outcome. */
  subscribing(channels: readonly string[]): (ok: boolean) => void {
    const entry: Subscribing = { key: keyOf(channels), channels: new Set(channels), acked: false };
    this.#subscribing.push(entry);
    return (ok) => {
      entry.acked = true;
      // Refused: nothing is redelivered. Without marks, nothing says when redeliveries end.
      if (!ok || !this.#marks) this.#done(entry);
    };
  }

  /** `PS_REDELIVERED`: the redeliveries of `channels`, or of the authorize when absent, are out. */
  redelivered(channels: readonly string[] | undefined): void {
    if (channels === undefined) {
      this.#all = false;
    } else {
      // The oldest of that subscribe: one subscribe's mark may come before its ack is taken in.
      const key = keyOf(channels);
      const entry = this.#subscribing.find((s) => s.key === key);
      if (entry) this.#done(entry);
    }
    this.#release(false);
  }

  /**
   * Resolves once `channel` is no longer held, its held messages handed over: at once when it is not held, and when
   * everything is forgotten ({@link clear}).
   */
  settled(channel: string): Promise<void> {
    if (!this.#holds(channel)) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push({ channel, resolve }));
  }

  /** Forgets everything (after `disconnect()`). */
  clear(): void {
    this.#all = false;
    this.#subscribing.length = 0;
    this.#held = [];
    this.#wake();
  }

  #holds(channel: string): boolean {
    if (!this.#marks) return false;
    if (this.#all) return true;
    for (const s of this.#subscribing) if (s.channels.has(channel)) return true;
    return false;
  }

  #done(entry: Subscribing): void {
    const at = this.#subscribing.indexOf(entry);
    if (at >= 0) this.#subscribing.splice(at, 1);
    this.#release(false);
  }

  /** Resolves the waits of channels no longer held. */
  #wake(): void {
    if (this.#waiting.length === 0) return;
    const still: Waiting[] = [];
    for (const w of this.#waiting) {
      if (this.#holds(w.channel)) still.push(w);
      else w.resolve();
    }
    this.#waiting = still;
  }

  /** Hands over, by server time, the held messages of channels no longer held (all of them when `all`). */
  #release(all: boolean): void {
    this.#handOver(all);
    this.#wake();
  }

  #handOver(all: boolean): void {
    if (this.#held.length === 0) return;
    const ready: WirePubsubMessage[] = [];
    const still: WirePubsubMessage[] = [];
    for (const m of this.#held) (all || !this.#holds(m.n) ? ready : still).push(m);
    if (ready.length === 0) return;
    this.#held = still;
    // Stable: one channel's times increase in publish order (PUB-7); equal times keep the order they came in.
    ready.sort((a, b) => a.t - b.t);
    for (const m of ready) {
      try {
        this.#deliver(m);
      } catch (error) {
        // A listener that throws stops none of the others, nor the call that released them; its error is still
        // thrown, uncaught, as a live message's would be.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

function keyOf(channels: readonly string[]): string {
  return [...new Set(channels)].sort().join('\n');
}
