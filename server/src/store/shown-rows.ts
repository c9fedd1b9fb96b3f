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

/**
 * SQLite only: the private conversation rows known to exist, to be shown (not removed) and, when known, the data
 * they hold. A private message touches both sides' rows: it creates them, shows them again after a remove, gives
 * the receiver's row the sender's user data (IM-6) and moves both rows' time. Once both rows are known to be there
 * and shown with the data the message would write, only the conversation's time moves, and that is left to its
 * head (see `LaterWrites.moveHead`), which spares each message two upserts and their pages of the log.
 *
 * The rows' data changes only through a send and their `removed` only through a send or
 * {@link ConversationStore.remove}; the store's asynchronous send path and `remove` forget the rows they write.
 */
export class PrivateRows {
  /** By row key: the row's data as last written, or null when a write kept whatever data the row had. */
  readonly #rows = new Map<string, string | null>();
  readonly #max: number;

  /** `max`: rows remembered at most; past it the memory starts over (the rows are then touched once again). */
  constructor(max = 200_000) {
    this.#max = max;
  }

  /** How many rows are remembered. */
  get size(): number {
    return this.#rows.size;
  }

  /**
   * Whether each row is known to be there and shown, with its `data` when it has one (null: a message that keeps
   * the row's data).
   */
  allShown(appkey: string, rows: readonly { ownerId: string; targetId: string; data: string | null }[]): boolean {
    for (const { ownerId, targetId, data } of rows) {
      const known = this.#rows.get(rowKey(appkey, ownerId, targetId));
      if (known === undefined || (data !== null && known !== data)) return false;
    }
    return true;
  }

  /** The row was just written, shown, with `data` (null: its data was kept, whatever it was). */
  add(appkey: string, ownerId: string, targetId: string, data: string | null): void {
    const key = rowKey(appkey, ownerId, targetId);
    if (data === null && this.#rows.has(key)) return;
    if (this.#rows.size >= this.#max && !this.#rows.has(key)) this.#rows.clear();
    this.#rows.set(key, data);
  }

  /** The row may be hidden now, or hold other data. */
  forget(appkey: string, ownerId: string, targetId: string): void {
    this.#rows.delete(rowKey(appkey, ownerId, targetId));
  }
}

/** Every part but the last led by its length, so that ids holding any character cannot collide. */
function rowKey(appkey: string, ownerId: string, targetId: string): string {
  return `${appkey.length}:${appkey}${ownerId.length}:${ownerId}${targetId}`;
}
