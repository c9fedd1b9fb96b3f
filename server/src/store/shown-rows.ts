/**
 * SQLite only: the group conversation rows known to exist and to be shown (not removed). A group message has to
 * create each member's row, or show it again after a remove; once a row is known to be there and shown, the next
 * message of the group need not touch it, which spares a busy group one upsert per member and message. SQLite is
 * one server process, and the only way a row is hidden is {@link ConversationStore.remove}, which forgets it.
 */
export class ShownRows {
  readonly #keys = new Set<string>();
  readonly #max: number;

  /** `max`: rows remembered at most; past it the memory starts over (the rows are then touched once again). */
  constructor(max = 200_000) {
    this.#max = max;
  }

  /** Whether the row of `ownerId` for `targetId` is known to be there and shown. */
  has(appkey: string, ownerId: string, targetId: string): boolean {
    return this.#keys.has(rowKey(appkey, ownerId, targetId));
  }

  /** The row is there and shown (it was just created or shown again). */
  add(appkey: string, ownerId: string, targetId: string): void {
    if (this.#keys.size >= this.#max) this.#keys.clear();
    this.#keys.add(rowKey(appkey, ownerId, targetId));
  }

  /** The row may be hidden now. */
  forget(appkey: string, ownerId: string, targetId: string): void {
    this.#keys.delete(rowKey(appkey, ownerId, targetId));
  }
}

function rowKey(appkey: string, ownerId: string, targetId: string): string {
  return `${appkey}\n${ownerId}\n${targetId}`;
}
