/**
 * A framework-free live value: `subscribe` and `getSnapshot`, as React's `useSyncExternalStore` (and most UI
 * libraries) expect. Work starts with the first subscriber and stops with the last, so a screen that is not shown
 * costs nothing.
 */
export abstract class LiveSource<T> {
  readonly #listeners = new Set<() => void>();
  #snapshot: T;

  constructor(initial: T) {
    this.#snapshot = initial;
  }

  /** The current value; the same object until it changes. */
  readonly getSnapshot = (): T => this.#snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.start();
    return () => {
      if (!this.#listeners.delete(listener)) return;
      if (this.#listeners.size === 0) this.stop();
    };
  };

  /** Whether anyone listens. */
  protected get active(): boolean {
    return this.#listeners.size > 0;
  }

  /** Replaces the value and tells the listeners. */
  protected set(next: T): void {
    if (Object.is(next, this.#snapshot)) return;
    this.#snapshot = next;
    for (const listener of [...this.#listeners]) listener();
  }

  /** The first subscriber arrived. */
  protected abstract start(): void;
  /** The last subscriber left. */
  protected abstract stop(): void;
}
