import {
  LiveSource,
  ParleyError,
  type CsMessage,
  type CsTeam,
  type CsUser,
  type CustomerStatus,
  type ParleyClient,
} from 'parley-im';
import type { ChatLink } from './live';

/** One customer-service conversation as a live value. */
export interface CsChatState {
  /** Oldest first; messages being sent, or failed, come last with their status. */
  messages: readonly CsMessage[];
  loading: boolean;
  /** Whether older messages may exist on the server. */
  hasMore: boolean;
  /** The session as the server tells it (an agent's live session); undefined when it does not (the customer). */
  status: CustomerStatus | undefined;
  error: ParleyError | undefined;
  /** Whether the other side is typing (TYPING-4). */
  typing: boolean;
}

/** What a chat hears while it is watched. */
export interface CsChatListener {
  onMessage: (message: CsMessage) => void;
  onStatus: (status: CustomerStatus) => void;
}

/** Where a chat's messages come from and go to: the customer's side of it, or an agent's. */
export interface CsChannel {
  /** Messages before `lastTimestamp` (the newest when absent), oldest first. */
  history(options: { lastTimestamp?: number; limit: number }): Promise<CsMessage[]>;
  /** Starts hearing new messages (and, for agents, the session status); resolves with how to stop. */
  watch(listener: CsChatListener): Promise<() => void>;
  /** A text message of this conversation, not yet sent. */
  createText(text: string): CsMessage;
  /** Sends a message made by `createText`; rejects when it failed. */
  send(message: CsMessage): Promise<unknown>;
  markRead(): Promise<void>;
  /** Tells the other side I am typing, or stopped (TYPING-4); best effort, never throws. */
  typing(on: boolean): void;
  /** Calls `listener` with whether the other side types, until the returned function is called. */
  watchTyping(listener: (typing: boolean) => void): () => void;
}

/** Messages in the order a chat shows them: sent ones by server time, then those still sending or failed. */
function ordered(messages: readonly CsMessage[]): CsMessage[] {
  const sent = messages.filter((m) => m.status === 'success').sort((a, b) => a.timestamp - b.timestamp);
  return [...sent, ...messages.filter((m) => m.status !== 'success')];
}

/**
 * A customer-service chat: the newest page once the link is up (again after every reconnect, merged by message
 * id), older pages on `loadMore()`, what the channel hears while watched, and sending with optimistic status.
 */
export class LiveCsChat extends LiveSource<CsChatState> {
  readonly #channel: CsChannel;
  readonly #link: ChatLink;
  readonly #pageSize: number;
  #offs: Array<() => void> = [];
  #stopWatching: Promise<(() => void) | undefined> | undefined;

  constructor(channel: CsChannel, link: ChatLink, pageSize = 20) {
    super({ messages: [], loading: false, hasMore: true, status: undefined, error: undefined, typing: false });
    this.#channel = channel;
    this.#link = link;
    this.#pageSize = pageSize;
  }

  /** Loads the page before the oldest message shown. */
  async loadMore(): Promise<void> {
    const state = this.getSnapshot();
    if (state.loading || !state.hasMore) return;
    const oldest = state.messages.find((m) => m.status === 'success')?.timestamp;
    await this.#fetch(oldest, true);
  }

  /** Sends a text; it shows at once as `sending`, then `success` or `fail`. */
  async sendText(text: string): Promise<CsMessage> {
    return this.#send(this.#channel.createText(text));
  }

  /** Sends a failed text again, as a new message with the same text. */
  async retry(failed: CsMessage): Promise<CsMessage> {
    if (failed.status !== 'fail') throw new ParleyError(400, 'only a failed message can be retried');
    this.#patch({ messages: this.getSnapshot().messages.filter((m) => m.messageId !== failed.messageId) });
    return this.#send(this.#channel.createText((failed.payload as { text?: string } | null)?.text ?? ''));
  }

  /** Marks the conversation read. */
  markRead(): Promise<void> {
    return this.#channel.markRead();
  }

  /** Call on each keystroke in the composer: the other side hears I type. */
  keystroke(): void {
    this.#channel.typing(true);
  }

  /** Call when the composer is emptied: the other side hears I stopped. */
  stopTyping(): void {
    this.#channel.typing(false);
  }

  protected start(): void {
    this.#offs.push(this.#channel.watchTyping((typing) => this.#patch({ typing })));
    this.#offs.push(this.#link.onOnline(() => this.#sync()));
    if (this.#link.isOnline()) this.#sync();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
    this.#unwatch();
  }

  /** Newest page and a fresh watch: a new connection has heard nothing of what the old one watched. */
  #sync(): void {
    this.#unwatch();
    const watching = this.#channel
      .watch({
        onMessage: (m) => this.#upsert(m),
        onStatus: (status) => this.#patch({ status }),
      })
      .catch((error: unknown) => {
        this.#patch({ error: ParleyError.from(error) });
        return undefined;
      });
    this.#stopWatching = watching;
    void this.#fetch(undefined, false);
  }

  #unwatch(): void {
    const watching = this.#stopWatching;
    this.#stopWatching = undefined;
    void watching?.then((stop) => stop?.());
  }

  async #fetch(before: number | undefined, older: boolean): Promise<void> {
    this.#patch({ loading: true, error: undefined });
    try {
      const page = await this.#channel.history({
        limit: this.#pageSize,
        ...(before === undefined ? {} : { lastTimestamp: before }),
      });
      const known = new Map(this.getSnapshot().messages.map((m) => [m.messageId, m]));
      for (const m of page) if (!known.has(m.messageId)) known.set(m.messageId, m);
      this.#patch({
        messages: ordered([...known.values()]),
        loading: false,
        ...(older || this.getSnapshot().messages.length === 0 ? { hasMore: page.length >= this.#pageSize } : {}),
      });
    } catch (error) {
      this.#patch({ loading: false, error: ParleyError.from(error) });
    }
  }

  async #send(message: CsMessage): Promise<CsMessage> {
    this.#upsert({ ...message, status: 'sending' });
    try {
      await this.#channel.send(message);
    } catch (error) {
      this.#upsert({ ...message, status: 'fail' });
      throw ParleyError.from(error);
    }
    this.#upsert({ ...message, status: 'success' });
    return message;
  }

  #upsert(message: CsMessage): void {
    const others = this.getSnapshot().messages.filter((m) => m.messageId !== message.messageId);
    this.#patch({ messages: ordered([...others, { ...message }]) });
  }

  #patch(changes: Partial<CsChatState>): void {
    this.set({ ...this.getSnapshot(), ...changes });
  }
}

/** The customer's side: their own conversation with a team (`client.im`, `to: {type: 'cs', id: teamId}`). */
export function customerChannel(client: ParleyClient, teamId: string, teamData: Record<string, unknown>): CsChannel {
  const im = client.im;
  const to = { type: 'cs' as const, id: teamId, data: teamData };
  return {
    history: (options) => im.history({ type: 'cs', id: teamId, ...options }) as Promise<CsMessage[]>,
    watch: ({ onMessage }) =>
      Promise.resolve(
        im.on('CS_MESSAGE_RECEIVED', (m) => {
          if (m.teamId === teamId) onMessage(m);
        }),
      ),
    createText: (text) => im.createTextMessage({ text, to }) as CsMessage,
    send: (message) => im.sendMessage({ message }),
    markRead: () => im.markMessageAsRead({ type: 'cs', id: teamId }),
    typing: (on) => {
      const ref = { type: 'cs' as const, id: teamId };
      void (on ? im.keystroke(ref) : im.stopTyping(ref)).catch(() => undefined);
    },
    watchTyping: (listener) =>
      im.on('TYPING', ({ conversation, users }) => {
        if (conversation.type === 'cs' && conversation.id === teamId) listener(users.length > 0);
      }),
  };
}

/**
 * An agent's side of one customer's conversation: the history of the team with them, and a live session that
 * hears every message of the customer and their status (one live session per connection).
 */
export function agentChannel(client: ParleyClient, team: CsTeam, customer: CsUser): CsChannel {
  const customerId = customer.id;
  return {
    history: (options) => team.history({ customerId, ...options }),
    async watch({ onMessage, onStatus }) {
      let watching = true;
      await team.liveSession({
        customerId,
        onNewMessage: (m) => watching && onMessage(m),
        onStatusUpdated: (s) => watching && onStatus(s),
      });
      return () => {
        watching = false;
        void team.quitLiveSession().catch(() => undefined);
      };
    },
    createText: (text) => team.createTextMessage({ text, to: { id: customerId, data: customer.data } }),
    send: (message) => client.im.sendMessage({ message }),
    markRead: () => team.markMessageAsRead({ customerId }),
    typing: (on) => void (on ? team.keystroke({ customerId }) : team.stopTyping({ customerId })).catch(() => undefined),
    watchTyping: (listener) =>
      client.im.on('TYPING', ({ conversation, users }) => {
        if (conversation.type === 'cs' && conversation.id === customerId && conversation.teamId === team.teamId) {
          listener(users.length > 0);
        }
      }),
  };
}
