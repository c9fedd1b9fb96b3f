import { CODES, MESSAGES } from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import { ParleyError } from '../../core/errors.js';
import { isOnline } from '../../core/status.js';
import type { ImWire } from './wire.js';

/**
 * Sends `publishIM` requests through the outbox (IMC-3): a send waits while the link is down and is tried again,
 * with the same messageId, when the link dropped before its ack.
 */
export class Outbox {
  readonly #connection: Connection;
  readonly #wire: ImWire;

  constructor(connection: Connection, wire: ImWire) {
    this.#connection = connection;
    this.#wire = wire;
  }

  /** Sends one message; resolves with the server's ack. */
  send(request: Parameters<ImWire['publish']>[0]): ReturnType<ImWire['publish']> {
    // Online, the request goes out at once: no extra turn of the microtask queue for every message sent.
    const sent = isOnline(this.#connection.status)
      ? this.#wire.publish(request)
      : this.#online().then(() => this.#wire.publish(request));
    return sent.catch((error: unknown) => {
      const linkTrouble =
        error instanceof ParleyError && error.code === CODES.TIMEOUT && !isOnline(this.#connection.status);
      if (!linkTrouble || this.#connection.status === 'connect_failed') throw error;
      // The link dropped before the ack: the same messageId again once it is back (the server de-duplicates).
      return this.send(request);
    });
  }

  /**
   * Runs `work` (a message's upload) once the link is up, and again from the start when it failed while the link
   * went down meanwhile (IMC-3): a media message sent while reconnecting waits for the link as a text does, rather
   * than failing when its upload token is not answered in time. An abort, or a failure while the link is up, is final.
   */
  async whenOnline<T>(work: () => Promise<T>): Promise<T> {
    await this.#online();
    try {
      return await work();
    } catch (error) {
      const status = this.#connection.status;
      const linkTrouble = status === 'reconnecting' || status === 'connecting';
      const aborted = error instanceof ParleyError && error.content === MESSAGES.uploadAborted;
      if (!linkTrouble || aborted) throw error;
      return this.whenOnline(work);
    }
  }

  #online(): Promise<void> {
    const status = this.#connection.status;
    if (isOnline(status)) return Promise.resolve();
    if (status === 'disconnected' || status === 'disconnecting' || status === 'connect_failed') {
      return Promise.reject(ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst'));
    }
    return new Promise((resolve, reject) => {
      const off = this.#connection.events.on('connectionStatus', ({ status: next }) => {
        if (isOnline(next)) {
          off();
          resolve();
        } else if (next === 'disconnected' || next === 'connect_failed') {
          off();
          reject(ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst'));
        }
      });
    });
  }
}
