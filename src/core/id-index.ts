/**
 * A map from string ids to values for the hot paths of a busy client (every member of a group looks up, stores and
 * forgets an id for every message): open addressing over a hash of each id that is computed here once per call and
 * kept in a typed array, so that a probe reads small integers and compares a stored id only when its hash matches.
 * Removal moves the later entries of its run back (linear probing without markers for deleted entries), so a map
 * that forgets as often as it learns, as a bounded cache does, never fills up with dead entries and never rebuilds
 * itself for them; it grows, by doubling, only when it holds more.
 */
export class IdIndex<V> {
  #mask: number;
  #ids: Array<string | undefined>;
  #values: Array<V | undefined>;
  /** Each slot's id hash; meaningful only where `#ids` holds an id. */
  #hashes: Int32Array;
  #size = 0;

  constructor() {
    const slots = 8;
    this.#mask = slots - 1;
    this.#ids = new Array<string | undefined>(slots).fill(undefined);
    this.#values = new Array<V | undefined>(slots).fill(undefined);
    this.#hashes = new Int32Array(slots);
  }

  /** Number of ids held. */
  get size(): number {
    return this.#size;
  }

  /** The value of `id`, if held. */
  get(id: string): V | undefined {
    const slot = this.#find(id, hashId(id));
    return slot < 0 ? undefined : this.#values[slot];
  }

  /** Whether `id` is held. */
  has(id: string): boolean {
    return this.#find(id, hashId(id)) >= 0;
  }

  /** Stores `value` under `id`, replacing what was there. */
  set(id: string, value: V): void {
    const hash = hashId(id);
    const found = this.#find(id, hash);
    if (found >= 0) {
      this.#values[found] = value;
      return;
    }
    // At most half full, so that probe runs stay short.
    if ((this.#size + 1) * 2 > this.#mask + 1) this.#grow();
    let slot = hash & this.#mask;
    while (this.#ids[slot] !== undefined) slot = (slot + 1) & this.#mask;
    this.#ids[slot] = id;
    this.#values[slot] = value;
    this.#hashes[slot] = hash;
    this.#size += 1;
  }

  /** Forgets `id`; returns whether it was held. */
  delete(id: string): boolean {
    const slot = this.#find(id, hashId(id));
    if (slot < 0) return false;
    this.#vacate(slot);
    this.#size -= 1;
    return true;
  }

  /** Forgets everything. */
  clear(): void {
    this.#ids.fill(undefined);
    this.#values.fill(undefined);
    this.#size = 0;
  }

  #find(id: string, hash: number): number {
    const mask = this.#mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.#ids[slot];
      if (held === undefined) return -1;
      if (this.#hashes[slot] === hash && held === id) return slot;
    }
  }

  /** Empties `slot` and moves later entries of its run back where their probe paths allow. */
  #vacate(slot: number): void {
    const mask = this.#mask;
    let hole = slot;
    for (let next = (hole + 1) & mask; this.#ids[next] !== undefined; next = (next + 1) & mask) {
      if (staysInRun((this.#hashes[next] as number) & mask, hole, next)) continue;
      this.#ids[hole] = this.#ids[next];
      this.#values[hole] = this.#values[next];
      this.#hashes[hole] = this.#hashes[next] as number;
      hole = next;
    }
    this.#ids[hole] = undefined;
    this.#values[hole] = undefined;
  }

  #grow(): void {
    const ids = this.#ids;
    const values = this.#values;
    const hashes = this.#hashes;
    const slots = (this.#mask + 1) * 2;
    this.#mask = slots - 1;
    this.#ids = new Array<string | undefined>(slots).fill(undefined);
    this.#values = new Array<V | undefined>(slots).fill(undefined);
    this.#hashes = new Int32Array(slots);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (id === undefined) continue;
      const hash = hashes[i] as number;
      let slot = hash & this.#mask;
      while (this.#ids[slot] !== undefined) slot = (slot + 1) & this.#mask;
      this.#ids[slot] = id;
      this.#values[slot] = values[i];
      this.#hashes[slot] = hash;
    }
  }
}

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
