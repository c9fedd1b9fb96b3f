/** A key's queue: the promise its next task waits for, and how many of its tasks have not settled. */
class Queue {
  tail: Promise<unknown> = Promise.resolve();
  pending = 0;
  /** Called as each task settles: made once for the key, not once for each of its tasks. */
  readonly settled = (): void => {
    this.pending -= 1;
  };
}

/** Keys kept before idle ones are first let go (see {@link KeyedMutex}). */
const SWEEP_AT = 1024;

/**
 * Runs tasks one at a time per key, in arrival order. IM sends of one conversation go through it so that this
 * node assigns timestamps and pushes messages in the same order; the store still guards against other nodes.
 *
 * A key whose tasks have all settled stays until the keys number {@link SWEEP_AT} (or twice what was busy at the
 * last sweep), when every idle key is let go at once: a busy conversation's key is not removed and added again
 * between two of its messages, and the map's table is not rebuilt for it each time (a rebuilt table outlives the
 * young generation, and only a full collection takes it back).
 */
export class KeyedMutex {
  readonly #queues = new Map<string, Queue>();
  #sweepAt = SWEEP_AT;

  /** Keys held: those with tasks under way, and idle ones not yet let go. */
  get size(): number {
    return this.#queues.size;
  }

  /** Runs `task` after every task queued earlier under `key`; its failure does not block later ones. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      if (this.#queues.size >= this.#sweepAt) this.#sweep();
      queue = new Queue();
      this.#queues.set(key, queue);
    }
    const result = queue.tail.then(task, task);
    queue.pending += 1;
    queue.tail = result.then(queue.settled, queue.settled);
    return result;
  }

  /** Lets every idle key go; the next sweep comes when the keys number twice those still busy, or more. */
  #sweep(): void {
    for (const [key, queue] of this.#queues) if (queue.pending === 0) this.#queues.delete(key);
    this.#sweepAt = Math.max(SWEEP_AT, this.#queues.size * 2);
  }
}
