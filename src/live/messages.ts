import type { ParleyClient } from '../client.js';
import { ParleyError } from '../core/errors.js';
import { isOnline } from '../core/status.js';
import type { Message, MessageTarget } from '../modules/im/types.js';
import { LiveSource } from './source.js';

/** One conversation's messages as a live value. */
export interface MessagesState {
  /** Oldest first; messages being sent or failed are included with their status. */
  messages: readonly Message[];
  loading: boolean;
  /** Whether older messages may exist on the server. */
  hasMore: boolean;
  error: ParleyError | undefined;
}

/** The conversation a live message list shows. */
export interface ConversationTarget {
  type: 'private' | 'group';
  id: string;
  /** Data about the other user or the group, sent with new messages for the conversation list. */
  data?: Record<string, unknown>;
}

/**
 * A conversation's messages: the newest page when the connection is up, older pages on `loadMore()`, live
 * updates from events, and sending with optimistic status; a failed message can be retried.
 */
export class LiveMessages extends LiveSource<MessagesState> {
  readonly #client: ParleyClient;
  readonly #target: ConversationTarget;
  readonly #pageSize: number;
  #offs: Array<() => void> = [];
  #loaded = false;

  constructor(client: ParleyClient, target: ConversationTarget, pageSize = 20) {
    super({ messages: [], loading: false, hasMore: true, error: undefined });
    this.#client = client;
    this.#target = { ...target, id: String(target.id) };
    this.#pageSize = pageSize;
  }

  /** Loads the page before the oldest message shown. */
  async loadMore(): Promise<void> {
    const state = this.getSnapshot();
    if (state.loading || !state.hasMore) return;
    const oldest = state.messages.find((m) => m.status === 'success')?.timestamp;
    this.#patch({ loading: true, error: undefined });
    try {
      const page = await this.#client.im.history({
        type: this.#target.type,
        id: this.#target.id,
        limit: this.#pageSize,
        ...(oldest === undefined ? {} : { lastTimestamp: oldest }),
      });
      const known = new Set(this.getSnapshot().messages.map((m) => m.messageId));
      const older = page.filter((m) => !known.has(m.messageId));
      this.#patch({
        messages: [...older, ...this.getSnapshot().messages],
        loading: false,
        hasMore: page.length >= this.#pageSize,
      });
    } catch (error) {
      this.#patch({ loading: false, error: ParleyError.from(error) });
    }
  }

  /** Sends a text message; it shows at once as `sending`, then `success` or `fail`. */
  async sendText(text: string): Promise<Message> {
    const to: MessageTarget = { type: this.#target.type, id: this.#target.id, data: this.#target.data ?? {} };
    return this.#send(this.#client.im.createTextMessage({ text, to }));
  }

  /** Sends a failed message again, as a new message with the same content. */
  async retry(failed: Message): Promise<Message> {
    if (failed.status !== 'fail') throw new ParleyError(400, 'only a failed message can be retried');
    await this.#client.im.deleteMessage({ messages: [failed] });
    this.#patch({ messages: this.getSnapshot().messages.filter((m) => m.messageId !== failed.messageId) });
    const to: MessageTarget = { type: this.#target.type, id: this.#target.id, data: this.#target.data ?? {} };
    const message =
      failed.type === 'text'
        ? this.#client.im.createTextMessage({ text: (failed.payload as { text: string }).text, to })
        : this.#client.im.createCustomMessage({ type: failed.type, payload: failed.payload, to });
    return this.#send(message);
  }

  /** Marks the conversation read. */
  markRead(): Promise<void> {
    return this.#client.im.markMessageAsRead({ type: this.#target.type, id: this.#target.id });
  }

  protected start(): void {
    const im = this.#client.im;
    const mine = (m: Message) => this.#belongs(m);
    this.#offs.push(im.on('PRIVATE_MESSAGE_RECEIVED', (m) => mine(m) && this.#upsert(m)));
    this.#offs.push(im.on('GROUP_MESSAGE_RECEIVED', (m) => mine(m) && this.#upsert(m)));
    for (const event of ['MESSAGE_RECALLED', 'MESSAGE_READ'] as const) {
      this.#offs.push(im.on(event, (list) => list.filter(mine).forEach((m) => this.#replace(m))));
    }
    this.#offs.push(
      im.on('MESSAGE_DELETED', (list) => {
        const gone = new Set(list.filter(mine).map((m) => m.messageId));
        if (gone.size > 0) this.#patch({ messages: this.getSnapshot().messages.filter((m) => !gone.has(m.messageId)) });
      }),
    );
    this.#offs.push(
      this.#client.on('connectionStatus', ({ status }) => {
        if (isOnline(status) && !this.#loaded) void this.#first();
      }),
    );
    if (isOnline(this.#client.getConnectionStatus())) void this.#first();
  }

  protected stop(): void {
    for (const off of this.#offs) off();
    this.#offs = [];
  }

  async #first(): Promise<void> {
    this.#loaded = true;
    await this.loadMore();
  }

  async #send(message: Message): Promise<Message> {
    this.#upsert({ ...message, status: 'sending' });
    try {
      await this.#client.im.sendMessage({ message });
    } catch (error) {
      this.#replace({ ...message });
      throw ParleyError.from(error);
    }
    this.#replace({ ...message });
    return message;
  }

  #belongs(m: Message): boolean {
    const me = String(this.#client.user?.id ?? '');
    const id = this.#target.id;
    if (this.#target.type === 'group') return m.scene === 'group' && m.groupId === id;
    return (
      m.scene === 'private' &&
      ((m.senderId === id && m.receiverId === me) || (m.senderId === me && m.receiverId === id))
    );
  }

  #upsert(message: Message): void {
    const messages = this.getSnapshot().messages;
    if (messages.some((m) => m.messageId === message.messageId)) this.#replace(message);
    else this.#patch({ messages: [...messages, message] });
  }

  #replace(message: Message): void {
    const messages = this.getSnapshot().messages;
    if (!messages.some((m) => m.messageId === message.messageId)) return;
    this.#patch({ messages: messages.map((m) => (m.messageId === message.messageId ? { ...message } : m)) });
  }

  #patch(changes: Partial<MessagesState>): void {
    this.set({ ...this.getSnapshot(), ...changes });
  }
}
