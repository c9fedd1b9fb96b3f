/** Remembers the last `capacity` ids seen, to drop pushes that arrive twice (IM message ids, pub/sub guids). */
export class RecentIds {
  readonly #capacity: number;
  readonly #ids = new Set<string>();
  /** The same ids in arrival order, as a ring: the slot at `#next` holds the oldest once the ring is full. */
  readonly #ring: string[] = [];
  #next = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records `id`; returns false if it was already among the recent ones. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ring.length < this.#capacity) {
      this.#ring.push(id);
      return true;
    }
    this.#ids.delete(this.#ring[this.#next] as string);
    this.#ring[this.#next] = id;
    this.#next = (this.#next + 1) % this.#capacity;
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
