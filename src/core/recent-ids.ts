/** Remembers the last `capacity` ids seen, to drop pushes that arrive twice (IM message ids, pub/sub guids). */
export class RecentIds {
  readonly #capacity: number;
  readonly #ids = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records `id`; returns false if it was already among the recent ones. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next().value as string;
      this.#ids.delete(oldest);
    }
    return true;
  }

  /** Whether `id` is among the recent ones. */
  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ids.size;
  }
}
