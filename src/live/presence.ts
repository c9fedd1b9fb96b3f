import type { ParleyClient } from '../client.js';
import { isOnline } from '../core/status.js';
import { LiveSource } from './source.js';

/** Who of a set of users is online, as a live value. */
export class LivePresence extends LiveSource<Readonly<Record<string, boolean>>> {
  readonly #client: ParleyClient;
  readonly #userIds: string[];
  #offs: Array<() => void> = [];

  constructor(client: ParleyClient, userIds: readonly (string | number)[]) {
    super({});
    this.#client = client;
    this.#userIds = [...new Set(userIds.map(String))];
  }

  protected start(): void {
    if (this.#userIds.length === 0) return;
    const im = this.#client.im;
    this.#offs.push(
      im.on('USER_PRESENCE', ({ id, action }) => {
        if (this.#userIds.includes(id)) this.set({ ...this.getSnapshot(), [id]: action === 'online' });
      }),
    );
    this.#offs.push(
      this.#client.on('connectionStatus', ({ status }) => {
        if (isOnline(status)) void this.#refresh();
      }),
    );
    if (isOnline(this.#client.getConnectionStatus())) void this.#refresh();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
  }

  async #refresh(): Promise<void> {
    const im = this.#client.im;
    try {
      await im.subscribeUserPresence({ userIds: this.#userIds });
      const online = new Set((await im.hereNow({ userIds: this.#userIds })).map((u) => u.id));
      if (this.active) this.set(Object.fromEntries(this.#userIds.map((id) => [id, online.has(id)])));
    } catch {
      // Presence is best effort: the next connection refreshes it.
    }
  }
}
