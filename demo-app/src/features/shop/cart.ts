/** Where the cart is kept on this device (spec §3 "Cart: local list of product ids, most recent last, no duplicates"). */
export const CART_KEY = 'cart';

/** The product ids stored as `raw`, each once, most recent last; none when what is stored is not a list of ids. */
export function parseCart(raw: string | null): string[] {
  try {
    const stored: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(stored)) return [];
    // A later copy of an id is the more recent one: keep that.
    const ids = stored.filter((item): item is string => typeof item === 'string' && item !== '');
    return ids.filter((id, index) => ids.lastIndexOf(id) === index);
  } catch {
    return [];
  }
}

/** `ids` with `id` as the most recent: last, and only there. */
export function withProduct(ids: readonly string[], id: string): string[] {
  return [...ids.filter((item) => item !== id), id];
}

/** Options of {@link Cart}. */
export interface CartOptions {
  /**
   * Where the list is kept, under {@link CART_KEY}.
   * @default localStorage
   */
  storage?: Storage;
  /**
   * Where changes made in other tabs are announced (its `storage` events); none to ignore them.
   * @default window
   */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
}

/**
 * The cart: product ids kept in storage, most recent last, no duplicates. Framework-free, with `subscribe` and
 * `getSnapshot` for `useSyncExternalStore`; the snapshot is read from storage, so a change made elsewhere (another
 * tab, a cleared storage) shows too.
 */
export class Cart {
  readonly #storage: Storage;
  readonly #events: CartOptions['events'];
  readonly #listeners = new Set<() => void>();
  /** What storage held when {@link Cart.getSnapshot} last parsed it, and what it parsed to. */
  #raw: string | null | undefined;
  #ids: readonly string[] = [];

  constructor({ storage = localStorage, events = window }: CartOptions = {}) {
    this.#storage = storage;
    this.#events = events;
  }

  /** Calls `listener` after each change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    // Other tabs are listened to only while someone here listens.
    if (this.#listeners.size === 0) this.#events?.addEventListener('storage', this.#onStorage);
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#events?.removeEventListener('storage', this.#onStorage);
    };
  };

  /** The ids, most recent last: the same array until the stored list changes. */
  readonly getSnapshot = (): readonly string[] => {
    const raw = this.#storage.getItem(CART_KEY);
    if (raw !== this.#raw) {
      this.#raw = raw;
      this.#ids = parseCart(raw);
    }
    return this.#ids;
  };

  /** How many products the cart holds: the shared app state's cart count (spec §3). */
  get count(): number {
    return this.getSnapshot().length;
  }

  /** Puts product `id` in the cart as the most recent; one already there moves last. */
  add(id: string): void {
    this.#write(withProduct(this.getSnapshot(), id));
  }

  /** Takes products `ids` out of the cart (after they were bought, or by hand). */
  remove(ids: readonly string[]): void {
    const gone = new Set(ids);
    this.#write(this.getSnapshot().filter((id) => !gone.has(id)));
  }

  #write(ids: readonly string[]): void {
    this.#storage.setItem(CART_KEY, JSON.stringify(ids));
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  readonly #onStorage = (event: StorageEvent): void => {
    // `key` is null when another tab cleared the whole storage.
    if (event.key === CART_KEY || event.key === null) this.#notify();
  };
}
