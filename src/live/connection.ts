import type { ParleyClient } from '../client.js';
import type { ConnectionStatus } from '../core/status.js';
import { LiveSource } from './source.js';

/** The client's connection status as a live value. */
export class LiveConnectionStatus extends LiveSource<ConnectionStatus> {
  readonly #client: ParleyClient;
  #off: (() => void) | undefined;

  constructor(client: ParleyClient) {
    super(client.getConnectionStatus());
    this.#client = client;
  }

  protected start(): void {
    this.set(this.#client.getConnectionStatus());
    this.#off = this.#client.on('connectionStatus', ({ status }) => this.set(status));
  }

  protected stop(): void {
    this.#off?.();
    this.#off = undefined;
  }
}
