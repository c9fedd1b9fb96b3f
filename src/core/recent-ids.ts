import { IdIndex, hashId } from './id-index.js';

/**
 * Remembers the last `capacity` ids seen, to drop pushes that arrive twice (IM message ids, pub/sub guids): a ring
 * of the ids in arrival order over an {@link IdIndex}. Every member of a busy group runs {@link RecentIds.add} for
 * every message, on state that is cold by then; the index answers from typed arrays and never rebuilds itself for
 * the ids it forgets, where a `Set` took three lookups per id over stored strings and rebuilt itself in bursts.
 */
export class RecentIds {
  readonly #capacity: number;
  readonly #index: IdIndex<true>;
  /** The ids in arrival order, as a ring: position `#next` holds the oldest once the ring is full. */
  readonly #ring: string[] = [];
  /** Each ring position's id hash: the oldest id leaves without its text being read again. */
  readonly #hashes: Int32Array;
  #next = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
    // Sized for one more than the capacity: the new id goes in before the oldest leaves.
    this.#index = new IdIndex(this.#capacity + 1);
    this.#hashes = new Int32Array(this.#capacity);
  }

  /** Records `id`; returns false if it was already among the recent ones. */
  add(id: string): boolean {
    const hash = hashId(id);
    if (!this.#index.add(id, true, hash)) return false;
    if (this.#ring.length < this.#capacity) {
      this.#hashes[this.#ring.length] = hash;
      this.#ring.push(id);
      return true;
    }
    const oldest = this.#next;
    this.#index.delete(this.#ring[oldest] as string, this.#hashes[oldest]);
    this.#ring[oldest] = id;
    this.#hashes[oldest] = hash;
    this.#next = oldest + 1 === this.#capacity ? 0 : oldest + 1;
    return true;
  }

  /** Whether `id` is among the recent ones. */
  has(id: string): boolean {
    return this.#index.has(id);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ring.length;
  }
}
