/** Slots each connection's tracker has before it keeps the rest in a map. */
const SLOTS = 4;

/**
 * IM-3: the answers of one connection's sends under way, by guid, so that a re-send of one of them gets the first's
 * answer instead of going through the store again.
 *
 * A connection has one send under way most of the time, a few in a burst. The server's one map of every send under
 * way added a key for each message and removed it when the send settled; a map that lives in the old generation
 * rebuilds its table as keys come and go, and each rebuilt table is made in the old generation, which only a full
 * collection takes back: at 2 000 messages a second that map alone was most of what the server promoted. Here each
 * connection has a few slots of two arrays made once, whose entries are overwritten; only more sends under way than
 * that, at once, go to a map, which keeps its table while the slots serve.
 */
export class SendsUnderWay<T> {
  readonly #guids: Array<string | undefined> = Array.from({ length: SLOTS }, () => undefined);
  readonly #answers: Array<T | undefined> = Array.from({ length: SLOTS }, () => undefined);
  /** The sends under way beyond the slots, by guid; made on first need. */
  #more: Map<string, T> | undefined;

  /** The answer of the send of `guid` under way, if any. */
  get(guid: string): T | undefined {
    for (let i = 0; i < SLOTS; i++) if (this.#guids[i] === guid) return this.#answers[i];
    return this.#more?.get(guid);
  }

  /** A send of `guid` is under way; its answer is `answer`. */
  add(guid: string, answer: T): void {
    for (let i = 0; i < SLOTS; i++) {
      if (this.#answers[i] !== undefined) continue;
      this.#guids[i] = guid;
      this.#answers[i] = answer;
      return;
    }
    (this.#more ??= new Map()).set(guid, answer);
  }

  /** The send of `guid` whose answer is `answer` settled. */
  settled(guid: string, answer: T): void {
    for (let i = 0; i < SLOTS; i++) {
      if (this.#answers[i] !== answer) continue;
      this.#guids[i] = undefined;
      this.#answers[i] = undefined;
      return;
    }
    if (this.#more?.get(guid) === answer) this.#more.delete(guid);
  }

  /** How many sends are under way. */
  get size(): number {
    let size = this.#more?.size ?? 0;
    for (let i = 0; i < SLOTS; i++) if (this.#answers[i] !== undefined) size += 1;
    return size;
  }
}
