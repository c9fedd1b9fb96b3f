import { HEX_ID_WORDS, packHexId, sameHexId } from './hex-ids.js';

/**
 * Remembers the last `capacity` ids seen, to drop pushes that arrive twice (IM message ids, pub/sub guids).
 *
 * Every member of a busy group runs {@link RecentIds.add} for every message, on state that is cold by then (one
 * client among many in a process, or a tab that was idle). A `Set` with a ring of its ids took three hash lookups
 * per id (has, add, and delete of the oldest), each reading stored strings elsewhere in memory, and left deleted
 * entries that it rehashes away in bursts. Here an open-addressing table of small integers, keyed by a hash of the
 * id that this class computes once per id, answers from a typed array; a stored string is only read when its
 * hash matches. Removal shifts the entries after it back (linear probing without tombstones), so the table never
 * fills up with deleted entries and needs no rebuilding. The slots hold ring positions, so no array of values or of
 * ids is kept beside them, and the oldest id leaves by its kept hash without its text being read again. The table
 * and each position's hash and slot share one typed array (6.4 KB for 300 ids): one object to reach, not three.
 * Ids of 32 hexadecimal digits, as this SDK makes them, are kept as words in a typed array rather than as strings
 * (see `hex-ids.ts`), so that a client's window holds no object per id.
 */
export class RecentIds {
  readonly #capacity: number;
  /** The table's size minus one: a power of two of at least twice the capacity. */
  readonly #mask: number;
  /**
   * All the numbers in one array, so that an id touches one object and, per ring position, one stretch of memory:
   * first the table (`#mask + 1` slots, each the ring position of the id that lives there, or {@link EMPTY}),
   * then each ring position's id hash and the slot it lives in, side by side (see {@link RecentIds.#hashAt}).
   */
  readonly #cells: Int32Array;
  /**
   * The ids in arrival order, as a ring: position `#next` holds the oldest once the ring is full. An id of 32
   * hexadecimal digits (a message id this SDK made) is null here and kept as words in `#words` instead.
   */
  readonly #ring: Array<string | null> = [];
  /** Each ring position's id as words ({@link HEX_ID_WORDS} a position), for those the ring has as null. */
  readonly #words: Int32Array;
  #next = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
    let size = 8;
    while (size < this.#capacity * 2) size *= 2;
    this.#mask = size - 1;
    this.#cells = new Int32Array(size + 2 * this.#capacity);
    this.#cells.fill(EMPTY, 0, size);
    this.#words = new Int32Array(this.#capacity * HEX_ID_WORDS);
  }

  /** Records `id`; returns false if it was already among the recent ones. */
  add(id: string): boolean {
    const hash = hashId(id);
    const hex = packHexId(id, PROBE, 0);
    if (this.#find(id, hash, hex) !== EMPTY) return false;
    const cells = this.#cells;
    const kept = hex ? null : id;
    let position: number;
    if (this.#ring.length < this.#capacity) {
      position = this.#ring.length;
      this.#ring.push(kept);
    } else {
      position = this.#next;
      this.#next = position + 1 === this.#capacity ? 0 : position + 1;
      // The oldest id leaves first, so that the new one's slot is looked up in the table as it is after that.
      this.#vacate(cells[this.#hashAt(position) + 1] as number);
      this.#ring[position] = kept;
    }
    if (hex) this.#words.set(PROBE, position * HEX_ID_WORDS);
    let slot = hash & this.#mask;
    while (cells[slot] !== EMPTY) slot = (slot + 1) & this.#mask;
    const at = this.#hashAt(position);
    cells[at] = hash;
    cells[at + 1] = slot;
    cells[slot] = position;
    return true;
  }

  /** Whether `id` is among the recent ones. */
  has(id: string): boolean {
    return this.#find(id, hashId(id), packHexId(id, PROBE, 0)) !== EMPTY;
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ring.length;
  }

  /** Where ring position `position` keeps its id's hash; the id's slot follows it. */
  #hashAt(position: number): number {
    return this.#mask + 1 + 2 * position;
  }

  /** The ring position of `id`, or {@link EMPTY}; `hex` says whether its words are in {@link PROBE}. */
  #find(id: string, hash: number, hex: boolean): number {
    const cells = this.#cells;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const at = cells[slot] as number;
      if (at === EMPTY) return at;
      if (cells[this.#hashAt(at)] !== hash) continue;
      const kept = this.#ring[at];
      if (kept === null ? hex && sameHexId(this.#words, at * HEX_ID_WORDS, PROBE, 0) : kept === id) return at;
    }
  }

  /** Empties `slot` and moves later entries of its run back where their probe paths allow ({@link staysInRun}). */
  #vacate(slot: number): void {
    const cells = this.#cells;
    const mask = this.#mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; cells[next] !== EMPTY; next = (next + 1) & mask) {
      const at = cells[next] as number;
      const hashAt = this.#hashAt(at);
      if (staysInRun((cells[hashAt] as number) & mask, hole, next)) continue;
      cells[hole] = at;
      cells[hashAt + 1] = hole;
      hole = next;
    }
    cells[hole] = EMPTY;
  }
}

const EMPTY = -1;

/** The words of the id being added or looked up, when it has them. */
const PROBE = new Int32Array(HEX_ID_WORDS);

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
