/**
 * SQLite only: the group conversation rows known to exist and to be shown (not removed). A group message has to
 * create each member's row, or show it again after a remove; once a row is known to be there and shown, the next
 * message of the group need not touch it, which spares a busy group one upsert per member and message. SQLite is
 * one server process, and the only way a row is hidden is {@link ConversationStore.remove}, which forgets it.
 *
 * Kept by conversation, then owner: every message of a group asks about all its members at once
 * ({@link ShownRows.missing}), with one key built for the group rather than one per member.
 */
export class ShownRows {
  readonly #byTarget = new Map<string, Set<string>>();
  readonly #max: number;
  #size = 0;

  /** `max`: rows remembered at most; past it the memory starts over (the rows are then touched once again). */
  constructor(max = 200_000) {
    this.#max = max;
  }

  /** Of these owners' rows for `targetId`, the ones not known to be there and shown, in the order given. */
  missing<T extends { ownerId: string }>(appkey: string, targetId: string, rows: readonly T[]): T[] {
    const owners = this.#byTarget.get(targetKey(appkey, targetId));
    if (!owners) return [...rows];
    const missing: T[] = [];
    for (const row of rows) if (!owners.has(row.ownerId)) missing.push(row);
    return missing;
  }

  /** The row is there and shown (it was just created or shown again). */
  add(appkey: string, ownerId: string, targetId: string): void {
    if (this.#size >= this.#max) {
      this.#byTarget.clear();
      this.#size = 0;
    }
    const key = targetKey(appkey, targetId);
    let owners = this.#byTarget.get(key);
    if (!owners) {
      owners = new Set();
      this.#byTarget.set(key, owners);
    }
    if (owners.has(ownerId)) return;
    owners.add(ownerId);
    this.#size += 1;
  }

  /** The row may be hidden now. */
  forget(appkey: string, ownerId: string, targetId: string): void {
    const key = targetKey(appkey, targetId);
    const owners = this.#byTarget.get(key);
    if (!owners?.delete(ownerId)) return;
    this.#size -= 1;
    if (owners.size === 0) this.#byTarget.delete(key);
  }
}

function targetKey(appkey: string, targetId: string): string {
  return `${appkey}\n${targetId}`;
}
