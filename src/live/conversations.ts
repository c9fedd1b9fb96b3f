import type { ParleyClient } from '../client.js';
import { ParleyError } from '../core/errors.js';
import { isOnline } from '../core/status.js';
import type { ConversationList } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/** The conversation list as a live value. */
export interface ConversationsState {
  /** The list, once loaded. */
  list: ConversationList | undefined;
  loading: boolean;
  error: ParleyError | undefined;
}

/**
 * The conversation list, loaded when the connection is up and kept current by `CONVERSATIONS_UPDATED`. Loads
 * again after a new connection.
 */
export class LiveConversations extends LiveSource<ConversationsState> {
  readonly #client: ParleyClient;
  #offs: Array<() => void> = [];

  constructor(client: ParleyClient) {
    super({ list: undefined, loading: false, error: undefined });
    this.#client = client;
  }

  protected start(): void {
    const im = this.#client.im;
    this.#offs.push(im.on('CONVERSATIONS_UPDATED', (list) => this.set({ list, loading: false, error: undefined })));
    this.#offs.push(
      this.#client.on('connectionStatus', ({ status }) => {
        if (status === 'connected') void this.#load();
      }),
    );
    if (isOnline(this.#client.getConnectionStatus())) void this.#load();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
  }

  /** Loads the list again, e.g. after `error`; settles once it is loaded or failed (never rejects). */
  refresh(): Promise<void> {
    return this.#load();
  }

  async #load(): Promise<void> {
    this.set({ ...this.getSnapshot(), loading: true, error: undefined });
    try {
      const list = await this.#client.im.latestConversations();
      if (this.active) this.set({ list, loading: false, error: undefined });
    } catch (error) {
      if (this.active) this.set({ ...this.getSnapshot(), loading: false, error: ParleyError.from(error) });
    }
  }
}
