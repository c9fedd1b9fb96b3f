import { CODES, REQUEST_TIMEOUTS, isOkAck, type Permissions, type RequestKind } from '../protocol/index.js';
import { ParleyError } from './errors.js';
import type { TimerHandle, Timers } from './timers.js';

/** The permission a request needs: `write` to publish or send, `read` to subscribe or read, or none. */
export type Permission = 'none' | 'read' | 'write';

/** One request to the server. */
export interface RequestSpec {
  /** Wire event name. */
  event: string;
  /** Wire params. */
  params: Record<string, unknown>;
  /** Resend and give-up timeouts. @default 'request' */
  kind?: RequestKind;
  /** What the request needs from the authorize reply. @default 'none' */
  permission?: Permission;
  /** Put the resend count in `params.retried`, so the server can de-duplicate publishes. @default false */
  countRetries?: boolean;
}

/** Where the connection is, as the request manager sees it. */
export type ChannelState = 'ready' | 'waiting' | 'disconnected' | 'failed';

/** What the request manager needs from the connection. */
export interface RequestChannel {
  state(): ChannelState;
  permissions(): Permissions;
  emit(event: string, params: unknown, ack: (reply: unknown) => void): void;
}

interface Entry {
  readonly id: number;
  readonly spec: RequestSpec;
  phase: 'outgoing' | 'pending';
  retried: number;
  /** When the request fails with 408, on the timers' clock. */
  readonly deadline: number;
  /** The one timer of the request: the next resend while pending, else the deadline. */
  timer: TimerHandle | undefined;
  readonly resolve: (ack: Record<string, unknown>) => void;
  readonly reject: (error: ParleyError) => void;
}

/**
 * Keeps outgoing requests (buffered while the connection is not ready) and pending ones (emitted, awaiting
 * their ack). A pending request is emitted again every single timeout, and fails with 408 once its total
 * timeout has passed. Requests settle exactly once; closing settles all of them.
 */
export class RequestManager {
  readonly #channel: RequestChannel;
  readonly #timers: Timers;
  // Insertion order is creation order: flushing keeps the order in which callers asked.
  readonly #entries = new Map<number, Entry>();
  #nextId = 1;

  constructor(channel: RequestChannel, timers: Timers) {
    this.#channel = channel;
    this.#timers = timers;
  }

  /** Sends a request; resolves with the whole successful ack, rejects with a {@link ParleyError}. */
  send(spec: RequestSpec): Promise<Record<string, unknown>> {
    const state = this.#channel.state();
    if (state === 'disconnected') return Promise.reject(ParleyError.of(CODES.NOT_CONNECTED, 'connectFirst'));
    if (state === 'failed') return Promise.reject(ParleyError.of(CODES.TIMEOUT, 'connectFailed'));
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const entry: Entry = {
        id,
        spec,
        phase: 'outgoing',
        retried: 0,
        deadline: this.#timers.now() + REQUEST_TIMEOUTS[spec.kind ?? 'request'].total,
        timer: undefined,
        resolve,
        reject,
      };
      this.#entries.set(id, entry);
      if (state === 'ready') this.#dispatch(entry);
      else this.#arm(entry);
    });
  }

  /** Number of requests not yet settled. */
  get size(): number {
    return this.#entries.size;
  }

  /** The connection is ready (authorized): emit everything outgoing, oldest first. */
  flush(): void {
    for (const entry of [...this.#entries.values()]) {
      if (entry.phase === 'outgoing' && this.#entries.has(entry.id)) this.#dispatch(entry);
    }
  }

  /** The link went down: pending requests wait again, to be emitted once the connection is back. */
  suspend(): void {
    for (const entry of this.#entries.values()) {
      entry.phase = 'outgoing';
      this.#arm(entry);
    }
  }

  /** Rejects every request not yet settled with `error`. */
  settleAll(error: ParleyError): void {
    for (const id of [...this.#entries.keys()]) this.#settle(id, error);
  }

  #dispatch(entry: Entry): void {
    const perms = this.#channel.permissions();
    const need = entry.spec.permission ?? 'none';
    if ((need === 'read' && !perms.read) || (need === 'write' && !perms.write)) {
      this.#settle(entry.id, ParleyError.of(CODES.UNAUTHORIZED, 'noPermission'));
      return;
    }
    entry.phase = 'pending';
    const params = entry.spec.countRetries ? { ...entry.spec.params, retried: entry.retried } : entry.spec.params;
    entry.retried += 1;
    this.#arm(entry);
    this.#channel.emit(entry.spec.event, params, (reply) => {
      if (isOkAck(reply)) this.#settle(entry.id, undefined, reply as Record<string, unknown>);
      else this.#settle(entry.id, ParleyError.fromAck(reply));
    });
  }

  #settle(id: number, error: ParleyError | undefined, ack?: Record<string, unknown>): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    if (entry.timer !== undefined) this.#timers.clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(ack ?? {});
  }

  /**
   * (Re)sets the request's one timer: a pending request is emitted again every single timeout, an outgoing one
   * waits for the connection; either fails once the total timeout has passed. One timer instead of one for each:
   * every message sent makes a request, and most are acked long before either.
   */
  #arm(entry: Entry): void {
    if (entry.timer !== undefined) this.#timers.clearTimeout(entry.timer);
    const left = entry.deadline - this.#timers.now();
    const single = REQUEST_TIMEOUTS[entry.spec.kind ?? 'request'].single;
    const pending = entry.phase === 'pending' && single < left;
    entry.timer = this.#timers.setTimeout(
      () => {
        entry.timer = undefined;
        if (!this.#entries.has(entry.id)) return;
        if (!pending) this.#settle(entry.id, ParleyError.of(CODES.TIMEOUT, 'timeout'));
        else if (this.#channel.state() === 'ready') this.#dispatch(entry);
        else {
          entry.phase = 'outgoing';
          this.#arm(entry);
        }
      },
      pending ? single : Math.max(0, left),
    );
  }
}
