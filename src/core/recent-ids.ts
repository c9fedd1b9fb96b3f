/**
 * Remembers the last `capacity` ids seen, to drop pushes that arrive twice (IM message ids, pub/sub guids).
 *
 * Every member of a busy group runs {@link RecentIds.add} for every message, on state that is cold by then (one
 * client among many in a process, or a tab that was idle). A `Set` with a ring of its ids took three hash lookups
 * per id (has, add, and delete of the oldest), each reading stored strings elsewhere in memory, and left deleted
 * entries that it rehashes away in bursts. Here an open-addressing table of small integers, keyed by a hash of the
 * id that this class computes once per id, answers from two typed arrays; a stored string is only read when its
 * hash matches. Removal shifts the entries after it back (linear probing without tombstones), so the table never
 * fills up with deleted entries and needs no rebuilding. The slots hold ring positions, so no array of values or of
 * ids is kept beside them (4 KB a client), and the oldest id leaves by its kept hash without its text being read
 * again.
 */
export class RecentIds {
  readonly #capacity: number;
  /** `#slots.length - 1`; the table has a power-of-two size of at least twice the capacity. */
  readonly #mask: number;
  /** The table: the ring position of the id that lives here, or {@link EMPTY}. */
  readonly #slots: Int32Array;
  /** The ids in arrival order, as a ring: position `#next` holds the oldest once the ring is full. */
  readonly #ring: string[] = [];
  /** Each ring position's id hash, and the table slot it lives in. */
  readonly #hashes: Int32Array;
  readonly #slotOf: Int32Array;
  #next = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
    let size = 8;
    while (size < this.#capacity * 2) size *= 2;
    this.#mask = size - 1;
    this.#slots = new Int32Array(size).fill(EMPTY);
    this.#hashes = new Int32Array(this.#capacity);
    this.#slotOf = new Int32Array(this.#capacity);
  }

  /** Records `id`; returns false if it was already among the recent ones. */
  add(id: string): boolean {
    const hash = hashId(id);
    if (this.#find(id, hash) !== EMPTY) return false;
    let position: number;
    if (this.#ring.length < this.#capacity) {
      position = this.#ring.length;
      this.#ring.push(id);
    } else {
      position = this.#next;
      this.#next = position + 1 === this.#capacity ? 0 : position + 1;
      // The oldest id leaves first, so that the new one's slot is looked up in the table as it is after that.
      this.#vacate(this.#slotOf[position] as number);
      this.#ring[position] = id;
    }
    let slot = hash & this.#mask;
    while (this.#slots[slot] !== EMPTY) slot = (slot + 1) & this.#mask;
    this.#hashes[position] = hash;
    this.#slotOf[position] = slot;
    this.#slots[slot] = position;
    return true;
  }

  /** Whether `id` is among the recent ones. */
  has(id: string): boolean {
    return this.#find(id, hashId(id)) !== EMPTY;
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ring.length;
  }

  /** The ring position of `id`, or {@link EMPTY}. */
  #find(id: string, hash: number): number {
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = this.#slots[slot] as number;
      if (at === EMPTY || (this.#hashes[at] === hash && this.#ring[at] === id)) return at;
    }
  }

  /** Empties `slot` and moves later entries of its run back where their probe paths allow ({@link staysInRun}). */
  #vacate(slot: number): void {
    const mask = this.#mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; this.#slots[next] !== EMPTY; next = (next + 1) & mask) {
      const at = this.#slots[next] as number;
      if (staysInRun((this.#hashes[at] as number) & mask, hole, next)) continue;
      this.#slots[hole] = at;
      this.#slotOf[at] = hole;
      hole = next;
    }
    this.#slots[hole] = EMPTY;
  }
}

const EMPTY = -1;

/**
 * Linear probing without deleted-entry markers: when slot `hole` empties, the entry at `next` (later in the same run)
 * stays where it is if its home slot lies cyclically in (hole, next], since a lookup from its home would otherwise
 * meet the hole first; else it moves back into the hole.
 */
export function staysInRun(home: number, hole: number, next: number): boolean {
  return hole <= next ? home > hole && home <= next : home > hole || home <= next;
}

/** FNV-1a over an id's UTF-16 code units: 32 bits, computed without touching any other memory. */
export function hashId(id: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash;
}
