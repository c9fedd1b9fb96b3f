import {
  CLIENT_EVENTS,
  CLIENT_NOTICES,
  CS_MESSAGE_TYPES,
  LIMITS,
  SERVER_PUSHES,
  nextCustomerStatus,
  readWireImMessage,
  type CustomerStatus,
  type WireCsEventAck,
  type WireCustomerStatus,
  type WirePendingConversation,
  wantsImAck,
} from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import { ConversationStore } from './conversations.js';
import { arrived } from './inbox.js';
import { customerOf, transitionOf } from './cs-message.js';
import { fromWire } from './message.js';
import type { ImState } from './state.js';
import { conversationOf, type ConversationList, type CsMessage } from './types.js';
import { historyLimit } from './validate.js';
import type { ImWire } from './wire.js';

/** A live session: one customer of one team watched by this client (`csteam().liveSession`). */
export interface LiveSessionOptions {
  teamId: string;
  customerId: string;
  /** Every message of the customer's conversation from now on, pending, accepted or someone else's. */
  onNewMessage: (message: CsMessage) => void;
  /** The customer's status, once at the start and after every change. */
  onStatusUpdated: (status: CustomerStatus) => void;
}

function parseObject(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A customer status from its wire form (the agent's data is a JSON string there). */
export function statusFromWire(wire: Partial<WireCustomerStatus> | undefined): CustomerStatus {
  if (wire?.status === 'PENDING') {
    return { status: 'PENDING', start: Number(wire.start), sessionId: Number(wire.sessionId) };
  }
  if (wire?.status === 'ACCEPTED') {
    return {
      status: 'ACCEPTED',
      start: Number(wire.start),
      sessionId: Number(wire.sessionId),
      agent: { id: String(wire.agent?.id), data: parseObject(wire.agent?.data) },
    };
  }
  return wire?.sessionId === undefined ? { status: 'FREE' } : { status: 'FREE', sessionId: Number(wire.sessionId) };
}

/** Pages of history read to catch a live session up after a reconnect: 300 messages at most. */
const LIVE_CATCH_UP_PAGES = 10;

/** A live session as this client keeps it. */
type LiveWatch = LiveSessionOptions & {
  status: CustomerStatus;
  /**
   * The server time of the newest message handed to `onNewMessage`, else of the conversation's newest when the session
   * started; undefined when that could not be read (then a reconnect restores the session without a catch-up).
   */
  newest: number | undefined;
  /** Messages pushed while the session is being restored, handed over with the catch-up, in order. */
  held: CsMessage[] | undefined;
};

/**
 * The agent side of customer service behind `client.im`: the teams this user is online in, the pending list, the
 * live session, and the customer-service pushes. `csteam(teamId)` objects are thin views over it.
 */
export class CsAgent {
  readonly #connection: Connection;
  readonly #state: ImState;
  readonly #wire: ImWire;
  /** The pending customers of my teams; loaded on first ask, kept current from pushes. */
  readonly pending = new ConversationStore();
  #teams: Promise<Set<string>> | undefined;
  #live: LiveWatch | undefined;

  constructor(connection: Connection, state: ImState, wire: ImWire) {
    this.#connection = connection;
    this.#state = state;
    this.#wire = wire;
    connection.pushes.on(SERVER_PUSHES.csOnlineChanged, (payload) => this.#onOnlineChanged(payload));
    connection.events.on('connectionStatus', ({ status }) => {
      // Which teams I am online in is asked again after the link comes back (another device may have changed it).
      if (status === 'reconnecting') this.#teams = undefined;
      if ((status === 'reconnected' || status === 'expired_reconnected') && this.pending.loaded) {
        void this.loadPending().catch(() => undefined);
      }
      if (status === 'reconnected' || status === 'expired_reconnected') void this.#restoreLive();
      if (status === 'disconnected' || status === 'connect_failed') {
        this.#teams = undefined;
        this.#live = undefined;
        this.pending.clear();
      }
    });
  }

  /** The teams I am online in (`CS_MY_TEAMS`, asked once per connection). */
  teams(): Promise<Set<string>> {
    this.#teams ??= this.#wire
      .call<unknown>(CLIENT_EVENTS.csMyTeams, {}, 'read', 'query')
      .then((list) => new Set(Array.isArray(list) ? list.map(String) : []));
    const asked = this.#teams;
    asked.catch(() => {
      if (this.#teams === asked) this.#teams = undefined;
    });
    return asked;
  }

  /** Records a change of my teams made here or pushed from another device. */
  async setOnline(teamId: string, online: boolean): Promise<void> {
    const teams = await this.teams();
    if (online) teams.add(teamId);
    else teams.delete(teamId);
    this.#state.events.emit('CS_ONLINE_CHANGED', { teamId, online });
    if (online) await this.loadPending();
    else this.#dropPending(teamId);
  }

  /** `CS_PENDING_CONVERSATION`: the pending list from the server, then kept current from pushes. */
  async loadPending(): Promise<ConversationList> {
    const items = await this.#wire.call<WirePendingConversation[] | undefined>(
      CLIENT_EVENTS.csPendingConversation,
      {},
      'read',
      'query',
    );
    const me = this.#state.me.id;
    const conversations = (Array.isArray(items) ? items : []).map((item) => {
      const lastMessage = fromWire({ ...item.lastMessage, t: 'cs' }) as CsMessage;
      const ref = conversationOf(lastMessage, me);
      return {
        type: 'cs' as const,
        id: ref.id,
        teamId: lastMessage.teamId,
        data: parseObject(item.customerData),
        unread: typeof item.unread === 'number' ? item.unread : 1,
        lastMessage,
        top: false,
      };
    });
    this.pending.replaceAll(conversations);
    this.pending.loaded = true;
    this.#emitPending();
    return this.pending.snapshot();
  }

  /** Applies a session event this client caused (the ack of accept, end or transfer), as if it had been pushed. */
  applyOwn(wire: WireCsEventAck | undefined): CsMessage {
    if (!wire?.message) throw new Error('CS ack without a message');
    const message = fromWire({ ...wire.message, t: 'cs' }) as CsMessage;
    this.#state.recent.add(message.messageId);
    this.#receive(message);
    return message;
  }

  /** Starts watching a customer; the previous live session, if any, ends here. */
  async liveSession(options: LiveSessionOptions): Promise<void> {
    // The conversation's newest message before the watch starts: what a catch-up after a reconnect starts from.
    const ref = { type: 'cs' as const, id: options.customerId, teamId: options.teamId };
    const newest = await this.#wire.history(ref, undefined, 1).then(
      ({ messages }) => messages.at(-1)?.timestamp ?? 0,
      () => undefined,
    );
    const content = await this.#wire.call<{ customerStatus?: WireCustomerStatus }>(
      CLIENT_EVENTS.csLiveSession,
      { teamId: options.teamId, customerId: options.customerId },
      'write',
    );
    const status = statusFromWire(content?.customerStatus);
    this.#live = { ...options, status, newest, held: undefined };
    options.onStatusUpdated(status);
  }

  /**
   * IMC-18: the server keeps a live session per connection, so after the link comes back it is asked again; the
   * customer's status, if it changed meanwhile, goes to `onStatusUpdated`, and the messages missed go to
   * `onNewMessage` in order, each once, before those pushed since.
   */
  async #restoreLive(): Promise<void> {
    const live = this.#live;
    if (!live) return;
    const heard = JSON.stringify(live.status);
    // A link that drops again while a restore is under way: the pushes held so far stay held for this one.
    live.held ??= [];
    try {
      const content = await this.#wire.call<{ customerStatus?: WireCustomerStatus }>(
        CLIENT_EVENTS.csLiveSession,
        { teamId: live.teamId, customerId: live.customerId },
        'write',
      );
      const missed = await this.#missedBy(live);
      if (this.#live !== live) return;
      const status = statusFromWire(content?.customerStatus);
      const held = live.held ?? [];
      live.held = undefined;
      const seen = new Set<string>();
      const messages = [...missed, ...held]
        .filter((m) => !seen.has(m.messageId) && seen.add(m.messageId))
        .sort((a, b) => a.timestamp - b.timestamp);
      for (const message of messages) this.#handLive(live, message, false);
      // The server's status now, told once if it is not the one last told (whatever the missed messages did).
      live.status = status;
      if (JSON.stringify(status) !== heard) live.onStatusUpdated(status);
    } catch {
      // The link went again, or the session was refused: the next reconnect tries again; pushes flow meanwhile.
      if (live.held) {
        const held = live.held;
        live.held = undefined;
        for (const message of held) this.#handLive(live, message, true);
      }
    }
  }

  /** The customer's messages newer than the last one the live session handed over, oldest first. */
  async #missedBy(live: LiveWatch): Promise<CsMessage[]> {
    const ref = { type: 'cs' as const, id: live.customerId, teamId: live.teamId };
    const missed: CsMessage[] = [];
    const after = live.newest;
    if (after === undefined) return missed;
    let before: number | undefined;
    for (let page = 0; page < LIVE_CATCH_UP_PAGES; page++) {
      const { messages } = await this.#wire.history(ref, before, LIMITS.historyMaxLimit);
      const newer = (messages as CsMessage[]).filter((m) => m.timestamp > after);
      missed.unshift(...newer);
      if (newer.length < messages.length || messages.length < LIMITS.historyMaxLimit) break;
      before = messages[0]?.timestamp;
    }
    return missed;
  }

  /** Stops the live session. */
  async quitLiveSession(): Promise<void> {
    const live = this.#live;
    if (!live) return;
    this.#live = undefined;
    await this.#wire.call(CLIENT_EVENTS.csQuitLive, { teamId: live.teamId, customerId: live.customerId }, 'write');
  }

  /** `CS_ACCEPT`, `CS_END` or `CS_TRANSFER`: the resulting message, applied locally. */
  async act(event: string, params: Record<string, unknown>, data?: Record<string, unknown>): Promise<CsMessage> {
    const message = this.applyOwn(await this.#wire.call<WireCsEventAck>(event, params, 'write'));
    // An accept names the customer's data: the conversation shows it without asking the server.
    const ref = conversationOf(message, this.#state.me.id);
    if (data && this.#state.conversations.update(ref, (c) => ({ ...c, data }))) this.#state.emitConversations();
    return message;
  }

  /** An agent's history with one customer: straight from the server, oldest first (no cache, as the reference). */
  async history(params: {
    teamId: string;
    customerId: string;
    lastTimestamp?: number;
    limit?: number;
  }): Promise<CsMessage[]> {
    const limit = historyLimit(params.limit);
    const before =
      typeof params.lastTimestamp === 'number' && params.lastTimestamp > 0 ? params.lastTimestamp : undefined;
    const page = await this.#wire.history({ type: 'cs', id: params.customerId, teamId: params.teamId }, before, limit);
    return page.messages as CsMessage[];
  }

  /** A pushed IM message of the scene `cs`: the chat inbox hands those over (inbox.ts). */
  receivePush(payload: unknown): void {
    const wire = readWireImMessage(payload);
    if (!wire || wire.t !== 'cs') return;
    if (wantsImAck(this.#connection.moduleData)) this.#connection.notify(CLIENT_NOTICES.imAck, { publishGuid: wire.i });
    if (!this.#state.recent.add(wire.i)) return;
    this.#receive(fromWire(wire) as CsMessage);
  }

  #receive(message: CsMessage): void {
    const state = this.#state;
    const me = state.me.id;
    if (customerOf(message) !== me) {
      this.#updateLive(message);
      this.#updatePending(message);
    }
    if (state.held) state.held.push(message);
    else arrived(state, message);
  }

  #updateLive(message: CsMessage): void {
    const live = this.#live;
    if (!live || live.teamId !== message.teamId || live.customerId !== customerOf(message)) return;
    if (live.held) live.held.push(message);
    else this.#handLive(live, message, true);
  }

  /** Hands one message to the live session, once and in order (a conversation's server times only go up). */
  #handLive(live: LiveWatch, message: CsMessage, follow: boolean): void {
    if (live.newest !== undefined && message.timestamp <= live.newest) return;
    live.newest = message.timestamp;
    live.onNewMessage(message);
    if (!follow) return;
    const next = nextCustomerStatus(live.status, transitionOf(message));
    if (next === live.status) return;
    live.status = next;
    live.onStatusUpdated(next);
  }

  /** CS-7: a pending message joins or updates the list; an accept (or anything accepted) takes the customer out. */
  #updatePending(message: CsMessage): void {
    if (!this.pending.loaded) return;
    const ref = conversationOf(message, this.#state.me.id);
    if (message.accepted || message.type === CS_MESSAGE_TYPES.accept) {
      if (this.pending.remove(ref)) this.#emitPending();
      return;
    }
    const updated = this.pending.update(ref, (c) => ({ ...c, lastMessage: message, unread: c.unread + 1 }));
    if (!updated) {
      this.pending.put({
        type: 'cs',
        id: ref.id,
        teamId: message.teamId,
        data: message.senderData,
        unread: 1,
        lastMessage: message,
        top: false,
      });
    }
    this.#emitPending();
  }

  #dropPending(teamId: string): void {
    const before = this.pending.snapshot().conversations.length;
    for (const c of this.pending.snapshot().conversations) {
      if (c.teamId === teamId) this.pending.remove({ type: 'cs', id: c.id as string, teamId });
    }
    if (this.pending.snapshot().conversations.length !== before) this.#emitPending();
  }

  #onOnlineChanged(payload: unknown): void {
    const change = payload as { teamId?: unknown; online?: unknown } | null;
    if (typeof change?.teamId !== 'string' || typeof change.online !== 'boolean') return;
    void this.setOnline(change.teamId, change.online).catch(() => undefined);
  }

  #emitPending(): void {
    if (this.pending.loaded) this.#state.events.emit('PENDING_CONVERSATIONS_UPDATED', this.pending.snapshot());
  }
}
