/**
 * IM-24: which messages (`imMessage`) pushed to one connection its client has not acknowledged (`imAck`), so that a
 * link that died before the server noticed loses nothing. The reference client acknowledges every message it is
 * pushed, in the order they came; a message pushed but never acknowledged may have gone down with the link, and is
 * pushed again when the client comes back with its sid. Parley's SDK sends no `imAck` (IM-23), re-reads its
 * conversations itself (IMC-8) and says so at authorize, so that its connections are not watched; a client that says
 * nothing and acknowledges nothing for {@link FIRST_ACK_WAIT_MS} after its first push is no longer watched either.
 */
import type { ReplayHorizon } from '../store/index.js';

/**
 * How long a connection's first push waits for an acknowledgement before the connection is taken for one that sends
 * none: longer than a dead link takes to be noticed (socket.io's ping interval and timeout, 45 s), so that a client
 * whose very first pushes went down with the link is still covered.
 */
export const FIRST_ACK_WAIT_MS = 60_000;

/** Unacknowledged pushes kept per connection: as many as one replay pushes (IM-24). */
export const DELIVERIES_KEPT = 1000;

/**
 * A connection's own latest sends kept, whatever is acknowledged: a push stored on another node, or in another
 * conversation's batch, may bear a time a little older than a send already made.
 */
export const SENDS_KEPT = 100;

interface Entry {
  id: string;
  ts: number;
}

/** One connection's unacknowledged pushes and own sends. Times are the messages' server times. */
export class DeliveryTracker {
  readonly #now: () => number;
  readonly #stop: () => void;
  /** Pushes not acknowledged yet, in the order they were pushed; the first `#head` are acknowledged. */
  #pushes: Entry[] = [];
  #head = 0;
  /** The oldest time among pushes let go of unacknowledged when more than {@link DELIVERIES_KEPT} waited. */
  #floor: number | undefined;
  /** The latest messages this connection sent, at most {@link SENDS_KEPT}. */
  #sends: Entry[] = [];
  #acked = false;
  #off = false;
  #firstPushAt = 0;

  /** `stop` is called once, when the connection is taken for one that never acknowledges. */
  constructor(now: () => number, stop: () => void) {
    this.#now = now;
    this.#stop = stop;
  }

  /** Whether the connection is still watched. */
  get watching(): boolean {
    return !this.#off;
  }

  /** A message was pushed to the connection. */
  pushed(id: string, ts: number): void {
    if (this.#off) return;
    if (!this.#acked) {
      if (this.#pending() === 0) this.#firstPushAt = this.#now();
      else if (this.#now() - this.#firstPushAt > FIRST_ACK_WAIT_MS) {
        this.#giveUp();
        return;
      }
    }
    this.#pushes.push({ id, ts });
    if (this.#pending() > DELIVERIES_KEPT) {
      const dropped = this.#pushes[this.#head] as Entry;
      this.#floor = Math.min(this.#floor ?? dropped.ts, dropped.ts);
      this.#head += 1;
    }
    this.#compact();
  }

  /**
   * The client acknowledged message `id`: it got every push up to that one, since they came in order on one link.
   * An id never pushed here (or already answered for) changes nothing.
   */
  acked(id: string): void {
    if (this.#off) return;
    this.#acked = true;
    const pushes = this.#pushes;
    for (let i = this.#head; i < pushes.length; i++) {
      if ((pushes[i] as Entry).id !== id) continue;
      this.#head = i + 1;
      this.#floor = undefined;
      this.#compact();
      return;
    }
  }

  /** The connection sent message `id`, stored at `ts`. */
  sent(id: string, ts: number): void {
    if (this.#off) return;
    this.#sends.push({ id, ts });
    if (this.#sends.length > SENDS_KEPT) this.#sends.shift();
  }

  /** What a replay must cover if the link went away now, or undefined when every push was acknowledged. */
  horizon(): ReplayHorizon | undefined {
    if (!this.#acked && !this.#off && this.#pending() > 0 && this.#now() - this.#firstPushAt > FIRST_ACK_WAIT_MS) {
      this.#giveUp();
    }
    if (this.#off || (this.#pending() === 0 && this.#floor === undefined)) return undefined;
    const from = this.#oldest();
    return { from, except: this.#sends.filter((s) => s.ts >= from).map((s) => s.id) };
  }

  /** The oldest time among the unacknowledged pushes: they leave in about the order of their times, not exactly. */
  #oldest(): number {
    let oldest = this.#floor ?? Number.POSITIVE_INFINITY;
    for (let i = this.#head; i < this.#pushes.length; i++) oldest = Math.min(oldest, (this.#pushes[i] as Entry).ts);
    return oldest;
  }

  #pending(): number {
    return this.#pushes.length - this.#head;
  }

  #compact(): void {
    if (this.#head === this.#pushes.length) {
      this.#pushes = [];
      this.#head = 0;
    } else if (this.#head >= 256) {
      this.#pushes = this.#pushes.slice(this.#head);
      this.#head = 0;
    }
  }

  #giveUp(): void {
    this.#off = true;
    this.#pushes = [];
    this.#head = 0;
    this.#sends = [];
    this.#floor = undefined;
    this.#stop();
  }
}
