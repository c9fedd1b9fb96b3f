import type { ParleyClient } from '../client.js';
import { ParleyError } from '../core/errors.js';
import { isOnline } from '../core/status.js';
import type { ConversationList } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/** A customer-service team as one agent sees it, as a live value. */
export interface CsTeamState {
  /** Whether this agent is online for the team; undefined until known. */
  online: boolean | undefined;
  /** Customers waiting for an agent of the team. */
  pending: ConversationList | undefined;
  error: ParleyError | undefined;
}

/**
 * One team of the customer-service console: the agent's online state (kept current by `CS_ONLINE_CHANGED`, also
 * from the agent's other devices) and the pending list (`PENDING_CONVERSATIONS_UPDATED`).
 */
export class LiveCsTeam extends LiveSource<CsTeamState> {
  readonly #client: ParleyClient;
  readonly #teamId: string;
  #offs: Array<() => void> = [];

  constructor(client: ParleyClient, teamId: string) {
    super({ online: undefined, pending: undefined, error: undefined });
    this.#client = client;
    this.#teamId = teamId;
  }

  protected start(): void {
    const im = this.#client.im;
    this.#offs.push(
      im.on('CS_ONLINE_CHANGED', ({ teamId, online }) => {
        if (teamId === this.#teamId) this.#patch({ online });
      }),
    );
    this.#offs.push(im.on('PENDING_CONVERSATIONS_UPDATED', (pending) => this.#patch({ pending })));
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
  }

  /** Reads the online state and the pending list from the server. */
  async refresh(): Promise<void> {
    try {
      const [online, pending] = await Promise.all([
        this.#client.im.csteam(this.#teamId).isOnline(),
        this.#client.im.pendingConversations(),
      ]);
      if (this.active) this.#patch({ online, pending, error: undefined });
    } catch (error) {
      if (this.active) this.#patch({ error: ParleyError.from(error) });
    }
  }

  #patch(changes: Partial<CsTeamState>): void {
    this.set({ ...this.getSnapshot(), ...changes });
  }
}
