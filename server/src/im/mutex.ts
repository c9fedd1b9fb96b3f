/**
 * Runs tasks one at a time per key, in arrival order. IM sends of one conversation go through it so that this
 * node assigns timestamps and pushes messages in the same order; the store still guards against other nodes.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued earlier under `key`; its failure does not block later ones. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    // Forget the key once the queue drains, so that idle conversations cost nothing.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
