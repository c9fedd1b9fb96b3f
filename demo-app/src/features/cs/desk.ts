import {
  LiveConversations,
  LiveCsTeam,
  LiveSource,
  type Conversation,
  type CsMessage,
  type CsUser,
  type ParleyClient,
  type ParleyError,
} from 'parley-im';
import { LiveCsChat, agentChannel } from './chat';
import { clientLink, type Live } from './live';

/** A customer in the console: waiting in the pending list, or one of mine. */
export interface DeskCustomer {
  id: string;
  /** The customer's data (name, avatar), as they connected with it. */
  data: Record<string, unknown>;
  lastMessage: CsMessage | undefined;
  unread: number;
  /** For mine: the conversation ended for me (I ended it, or handed the customer to someone else). */
  ended: boolean;
}

/** One team of the console as a live value. */
export interface DeskState {
  /** Whether I am online in the team; undefined until known. */
  online: boolean | undefined;
  /** Customers waiting for an agent, newest first. */
  pending: readonly DeskCustomer[];
  /** Customers I accepted or was handed, newest first; ended ones stay until removed. */
  mine: readonly DeskCustomer[];
  /** Why the state could not be read, if it could not. */
  error: ParleyError | undefined;
}

/**
 * What the agent console needs of one team (spec §6: an agent goes online or offline per team, may accept,
 * transfer or end). {@link createSdkDesk} is the SDK's; the console's tests use one in memory.
 */
export interface CsDesk {
  readonly teamId: string;
  /** The agent's own user id. */
  readonly me: string;
  readonly state: Live<DeskState>;
  setOnline(online: boolean): Promise<void>;
  /** Accepts a pending (or free) customer. */
  accept(customer: CsUser): Promise<void>;
  /** Ends my session with a customer. */
  end(customerId: string): Promise<void>;
  /** Hands a customer I serve to another online agent of the team. */
  transfer(customerId: string, agentId: string): Promise<void>;
  /** The team's other online agents: whom a customer can be handed to. */
  otherAgents(): Promise<CsUser[]>;
  /** A customer's conversation with the team, with their status, live while subscribed. */
  chat(customer: CsUser): LiveCsChat;
}

function deskCustomer(c: Conversation): DeskCustomer {
  return {
    id: String(c.id),
    data: c.data,
    lastMessage: c.lastMessage as CsMessage,
    unread: c.unread,
    ended: c.ended ?? false,
  };
}

/** The console state from the SDK's live values: the team (online, pending) and my conversations. */
class SdkDeskState extends LiveSource<DeskState> {
  readonly #team: LiveCsTeam;
  readonly #conversations: LiveConversations;
  readonly #teamId: string;
  #offs: Array<() => void> = [];

  constructor(client: ParleyClient, teamId: string) {
    super({ online: undefined, pending: [], mine: [], error: undefined });
    this.#team = new LiveCsTeam(client, teamId);
    this.#conversations = new LiveConversations(client);
    this.#teamId = teamId;
  }

  protected start(): void {
    const update = () => this.#update();
    this.#offs = [this.#team.subscribe(update), this.#conversations.subscribe(update)];
    this.#update();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
  }

  #update(): void {
    const team = this.#team.getSnapshot();
    const list = this.#conversations.getSnapshot().list;
    const ofTeam = (c: Conversation) => c.type === 'cs' && c.teamId === this.#teamId && c.id !== this.#teamId;
    this.set({
      online: team.online,
      pending: (team.pending?.conversations ?? []).filter(ofTeam).map(deskCustomer),
      mine: (list?.conversations ?? [])
        .filter(ofTeam)
        .sort((a, b) => b.lastMessage.timestamp - a.lastMessage.timestamp)
        .map(deskCustomer),
      error: team.error,
    });
  }
}

/** The console's desk over the SDK for agent `me` in `teamId`, going online with the team's and the agent's data. */
export function createSdkDesk(options: {
  client: ParleyClient;
  me: string;
  teamId: string;
  teamData: Record<string, unknown>;
  agentData: Record<string, unknown>;
}): CsDesk {
  const { client, me, teamId, teamData, agentData } = options;
  const team = client.im.csteam(teamId);
  const link = clientLink(client);
  return {
    teamId,
    me,
    state: new SdkDeskState(client, teamId),
    setOnline: (online) => (online ? team.online({ teamData, agentData }) : team.offline()),
    accept: async (customer) => {
      // The server wants the customer's data non-empty (CS-7); a customer who connected without any gets a name.
      const data = Object.keys(customer.data).length > 0 ? customer.data : { name: customer.id };
      await team.accept({ customer: { id: customer.id, data } });
    },
    end: async (customerId) => {
      await team.end({ id: customerId });
    },
    transfer: async (customerId, agentId) => {
      await team.transfer({ customerId, agentId });
    },
    otherAgents: async () => (await team.agents()).filter((a) => a.id !== me),
    chat: (customer) => new LiveCsChat(agentChannel(client, team, customer), link),
  };
}
