import { EventEmitter } from 'eventemitter3';

/** A map from event name to the one context object its listeners receive. */
export type EventMap = { [event: string]: unknown };

/** A listener of event `K` in map `M`. */
export type Listener<M extends EventMap, K extends keyof M> = (context: M[K]) => void;

/**
 * A typed emitter. `on()` returns its own unsubscribe function. Only the owner can `emit`: hand out the
 * {@link Subscribable} view to users.
 */
export class TypedEmitter<M extends EventMap> {
  readonly #emitter = new EventEmitter();

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof M & string>(event: K, listener: Listener<M, K>): () => void {
    this.#emitter.on(event, listener);
    return () => {
      this.#emitter.off(event, listener);
    };
  }

  /** Adds a listener called at most once; returns a function that removes it. */
  once<K extends keyof M & string>(event: K, listener: Listener<M, K>): () => void {
    this.#emitter.once(event, listener);
    return () => {
      this.#emitter.off(event, listener);
    };
  }

  /** Removes a listener. */
  off<K extends keyof M & string>(event: K, listener: Listener<M, K>): void {
    this.#emitter.off(event, listener);
  }

  /** Calls every listener of `event` with `context`. */
  emit<K extends keyof M & string>(event: K, context: M[K]): void {
    this.#emitter.emit(event, context);
  }

  /** Number of listeners of `event`. */
  listenerCount<K extends keyof M & string>(event: K): number {
    return this.#emitter.listenerCount(event);
  }

  /** Removes every listener. */
  clear(): void {
    this.#emitter.removeAllListeners();
  }
}

/** The listening half of a {@link TypedEmitter}. */
export type Subscribable<M extends EventMap> = Pick<TypedEmitter<M>, 'on' | 'once' | 'off'>;
