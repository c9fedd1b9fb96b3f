import type { Logger } from '../logger.js';

/** One acked qos-1 message of a session. */
export interface AckEntry {
  sid: string;
  guid: string;
}

/** How long acks gather before they are written: a message to many subscribers is acked by all within a few ms. */
const ACK_BATCH_MS = 20;
/** Written at once when this many gather. */
const ACK_BATCH_MAX = 2000;

/**
 * Gathers qos-1 acks and writes them in batches (PUB-8): one store write per batch, not per ack. An ack still
 * unwritten when the node stops means one redelivery, which the client drops by guid.
 */
export class AckBatcher {
  readonly #write: (entries: AckEntry[]) => Promise<void>;
  readonly #logger: Logger;
  #queued: AckEntry[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(write: (entries: AckEntry[]) => Promise<void>, logger: Logger) {
    this.#write = write;
    this.#logger = logger;
  }

  /** Queues an ack. */
  add(entry: AckEntry): void {
    this.#queued.push(entry);
    if (this.#queued.length >= ACK_BATCH_MAX) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), ACK_BATCH_MS);
  }

  /** Writes what is queued; resolves once every ack queued so far is written (or its write failed and was logged). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const entries = this.#queued;
    this.#queued = [];
    if (entries.length > 0) {
      this.#writing = this.#writing
        .then(() => this.#write(entries))
        .catch((err: unknown) => this.#logger.error({ err, count: entries.length }, 'writing qos-1 acks failed'));
    }
    return this.#writing;
  }
}
