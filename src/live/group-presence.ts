import type { ParleyClient } from '../client.js';
import { ParleyError } from '../core/errors.js';
import { isOnline } from '../core/status.js';
import type { GroupPresenceEvent, OnlineUser } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/** Who of a group is online, as a live value. */
export interface GroupPresenceState {
  /** How many members of the group are online; undefined until known. */
  onlineCount: number | undefined;
  /** The online members with their data, as here-now lists them and presence events change them. */
  members: readonly OnlineUser[];
  error: ParleyError | undefined;
}

/**
 * A group's presence: the online count and members, read when the connection is up and kept current by
 * `GROUP_PRESENCE`. Subscribes to the group's presence while watched, and unsubscribes when the last watcher leaves.
 */
export class LiveGroupPresence extends LiveSource<GroupPresenceState> {
  readonly #client: ParleyClient;
  readonly #groupId: string;
  #offs: Array<() => void> = [];

  constructor(client: ParleyClient, groupId: string | number) {
    super({ onlineCount: undefined, members: [], error: undefined });
    this.#client = client;
    this.#groupId = String(groupId);
  }

  /** Reads the count and the members from the server. */
  async refresh(): Promise<void> {
    const im = this.#client.im;
    const groupId = this.#groupId;
    try {
      await im.subscribeGroupPresence({ groupIds: [groupId] });
      const [onlineCount, members] = await Promise.all([
        im.groupOnlineCount({ groupId }),
        im.groupHereNow({ groupId }),
      ]);
      if (this.active) this.set({ onlineCount, members, error: undefined });
    } catch (error) {
      if (this.active) this.set({ ...this.getSnapshot(), error: ParleyError.from(error) });
    }
  }

  protected start(): void {
    this.#offs.push(
      this.#client.im.on('GROUP_PRESENCE', (event) => {
        if (event.groupId === this.#groupId) this.#apply(event);
      }),
    );
    this.#offs.push(
      this.#client.on('connectionStatus', ({ status }) => {
        if (isOnline(status)) void this.refresh();
      }),
    );
    if (isOnline(this.#client.getConnectionStatus())) void this.refresh();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
    if (isOnline(this.#client.getConnectionStatus())) {
      // Best effort: a lost link ends the subscription's use anyway, and the server drops it with the session.
      this.#client.im.unsubscribeGroupPresence({ groupId: this.#groupId }).catch(() => undefined);
    }
  }

  #apply({ action, id, data, groupOnlineCount }: GroupPresenceEvent): void {
    const others = this.getSnapshot().members.filter((m) => m.id !== id);
    const here = action === 'online' || action === 'join';
    this.set({ onlineCount: groupOnlineCount, members: here ? [...others, { id, data }] : others, error: undefined });
  }
}
