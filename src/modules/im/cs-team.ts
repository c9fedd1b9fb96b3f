import {
  CLIENT_EVENTS,
  LIMITS,
  utf8ByteLength,
  type CsUser,
  type CustomerStatus,
  type WireCustomerStatus,
} from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import { statusFromWire, type CsAgent } from './cs-agent.js';
import type { ImState } from './state.js';
import type { AudioMessageOptions, FileMessageOptions, ImageMessageOptions, VideoMessageOptions } from './media.js';
import type { PublishNotification } from '../pubsub/types.js';
import type { CsMessage, Message, MessageTarget, OnlineUser } from './types.js';
import { validateId } from './validate.js';
import type { ImWire } from './wire.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where an agent's message goes: a customer of the team. */
export interface CsCustomerTarget {
  type?: 'cs';
  /** The customer. */
  id: string | number;
  /** The customer's data, for the conversation list. */
  data?: Record<string, unknown>;
}

/** What a csteam needs from `client.im`. */
export interface CsTeamDeps {
  agent: CsAgent;
  state: ImState;
  wire: ImWire;
  /** Builds messages the way `client.im` does, so that `sendMessage` knows them. */
  im: {
    createTextMessage(options: { text: string; to: MessageTarget; notification?: PublishNotification }): Message;
    createCustomMessage(options: {
      type: string;
      payload: unknown;
      to: MessageTarget;
      notification?: PublishNotification;
    }): Message;
    createImageMessage(options: ImageMessageOptions): Message;
    createFileMessage(options: FileMessageOptions): Message;
    createAudioMessage(options: AudioMessageOptions): Message;
    createVideoMessage(options: VideoMessageOptions): Message;
    keystroke(options: { type: 'cs'; id: string; teamId: string }): Promise<void>;
    stopTyping(options: { type: 'cs'; id: string; teamId: string }): Promise<void>;
    typingUsers(options: { type: 'cs'; id: string; teamId: string }): OnlineUser[];
  };
}

/** The options of one of `client.im`'s file message creators, addressed to a customer of the team instead. */
export type CsFileOptions<Options extends FileMessageOptions> = Omit<Options, 'to'> & { to: CsCustomerTarget };

/**
 * A customer-service team as one agent works in it: `client.im.csteam(teamId)`. Going online makes the user an
 * agent of the team; only its online agents accept, end or transfer customers.
 */
export class CsTeam {
  /** The team. */
  readonly teamId: string;
  readonly #deps: CsTeamDeps;

  /** @internal Made by `client.im.csteam(teamId)`. */
  constructor(teamId: string, deps: CsTeamDeps) {
    this.teamId = teamId;
    this.#deps = deps;
  }

  /** Whether I am online in this team (on any device). */
  async isOnline(): Promise<boolean> {
    this.#me();
    return (await this.#deps.agent.teams()).has(this.teamId);
  }

  /**
   * Goes online in the team with the team's and my data as customers will see them. In an app that requires access
   * tokens, `accessToken` is a token from your app server naming the team (CS-15); without it the server answers 401.
   */
  async online(options: {
    teamData: Record<string, unknown>;
    agentData: Record<string, unknown>;
    accessToken?: string;
  }): Promise<void> {
    this.#me();
    if (!isPlainObject(options?.teamData) || !isPlainObject(options.agentData)) {
      throw ParleyError.badRequest('csDataNotObjects');
    }
    const teamData = JSON.stringify(options.teamData);
    const agentData = JSON.stringify(options.agentData);
    if (utf8ByteLength(teamData) > LIMITS.userDataMaxBytes || utf8ByteLength(agentData) > LIMITS.userDataMaxBytes) {
      throw ParleyError.badRequest('dataTooLong');
    }
    await this.#deps.wire.call(
      CLIENT_EVENTS.csOnline,
      {
        teamId: this.teamId,
        teamData,
        agentData,
        at: options.accessToken,
      },
      'write',
    );
    await this.#deps.agent.setOnline(this.teamId, true);
  }

  /** Goes offline in the team; refused while I still hold accepted customers there. Empties my pending list of it. */
  async offline(): Promise<void> {
    this.#me();
    await this.#deps.wire.call(CLIENT_EVENTS.csOffline, { teamId: this.teamId }, 'write');
    await this.#deps.agent.setOnline(this.teamId, false);
  }

  /** The team's online agents. */
  async agents(): Promise<CsUser[]> {
    this.#me();
    const list = await this.#deps.wire.call<unknown>(CLIENT_EVENTS.csAgents, { teamId: this.teamId }, 'read', 'query');
    if (!Array.isArray(list)) return [];
    return (list as Array<{ id?: unknown; data?: unknown }>).map((a) => ({
      id: String(a.id),
      data: parseData(a.data),
    }));
  }

  /** Accepts a customer (pending, or free: that opens a session); resolves with the `CS_ACCEPT` message. */
  async accept(options: { customer: { id: string | number; data: Record<string, unknown> } }): Promise<CsMessage> {
    this.#me();
    const customer = options?.customer;
    // An id is a string or a number, as everywhere; anything else would go out as "[object Object]".
    const id: unknown = isPlainObject(customer) ? customer.id : undefined;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') {
      throw ParleyError.badRequest('csCustomerRequired');
    }
    if (!isPlainObject(customer.data) || Object.keys(customer.data).length === 0) {
      throw ParleyError.badRequest('csCustomerDataEmpty');
    }
    const data = JSON.stringify(customer.data);
    if (utf8ByteLength(data) > LIMITS.userDataMaxBytes) throw ParleyError.badRequest('dataTooLong');
    return this.#deps.agent.act(
      CLIENT_EVENTS.csAccept,
      { teamId: this.teamId, customer: { id: String(id), data } },
      customer.data,
    );
  }

  /** Ends my session with a customer; resolves with the `CS_END` message. */
  async end(options: { id: string | number }): Promise<CsMessage> {
    this.#me();
    const customerId = validateId(options?.id, 'idEmpty');
    return this.#deps.agent.act(CLIENT_EVENTS.csEnd, { customerId, teamId: this.teamId });
  }

  /** Hands a customer I hold to another online agent of the team; resolves with the `CS_TRANSFER` message. */
  async transfer(options: { customerId: string | number; agentId: string | number }): Promise<CsMessage> {
    this.#me();
    const customerId = validateId(options?.customerId, 'idEmpty');
    const agentId = validateId(options?.agentId, 'idEmpty');
    return this.#deps.agent.act(CLIENT_EVENTS.csTransfer, { customerId, teamId: this.teamId, agentId });
  }

  /** A customer's session with the team: FREE, PENDING (with start and sessionId) or ACCEPTED (with the agent). */
  async customerStatus(options: { id: string | number }): Promise<CustomerStatus> {
    this.#me();
    const customerId = validateId(options?.id, 'idEmpty');
    const wire = await this.#deps.wire.call<WireCustomerStatus>(
      CLIENT_EVENTS.csCustomerStatus,
      { customerId, teamId: this.teamId },
      'read',
      'query',
    );
    return statusFromWire(wire);
  }

  /**
   * Watches a customer: every new message of theirs, and their status now and after each change. The watch goes on
   * across a lost link: once reconnected, the messages missed meanwhile come first, in order and once, and a status
   * that changed meanwhile is told (IMC-18).
   */
  async liveSession(options: {
    customerId: string | number;
    onNewMessage: (message: CsMessage) => void;
    onStatusUpdated: (status: CustomerStatus) => void;
  }): Promise<void> {
    this.#me();
    const customerId = validateId(options?.customerId, 'idEmpty');
    if (typeof options.onNewMessage !== 'function' || typeof options.onStatusUpdated !== 'function') {
      throw ParleyError.badRequest('csQueryOptions');
    }
    await this.#deps.agent.liveSession({ ...options, teamId: this.teamId, customerId });
  }

  /** Stops watching. */
  async quitLiveSession(): Promise<void> {
    this.#me();
    return this.#deps.agent.quitLiveSession();
  }

  /** My history with a customer, oldest first: `limit` (default 10, at most 30) before `lastTimestamp`. */
  async history(options: {
    customerId: string | number;
    lastTimestamp?: number;
    limit?: number;
  }): Promise<CsMessage[]> {
    this.#me();
    const customerId = validateId(options?.customerId, 'idEmpty');
    return this.#deps.agent.history({ ...options, teamId: this.teamId, customerId });
  }

  /**
   * Tells a customer I accepted that I am typing to them (TYPING-4): call it on every keystroke, as `im.keystroke`.
   * A customer I have not accepted is refused with 400 `The customer is not accepted by you.`
   */
  async keystroke(options: { customerId: string | number }): Promise<void> {
    await this.#deps.im.keystroke(this.#typingRef(options));
  }

  /** I stopped typing to a customer: heard at once, if a {@link keystroke} told I was typing. */
  async stopTyping(options: { customerId: string | number }): Promise<void> {
    await this.#deps.im.stopTyping(this.#typingRef(options));
  }

  /**
   * Whether the customer is typing to me now: them, or nobody (TYPING-4). I hear a customer I accepted, and one who
   * waits for an agent of the team while I am online in it.
   */
  typingUsers(options: { customerId: string | number }): OnlineUser[] {
    return this.#deps.im.typingUsers(this.#typingRef(options));
  }

  #typingRef(options: { customerId: string | number } | undefined) {
    this.#me();
    return { type: 'cs' as const, id: validateId(options?.customerId, 'idEmpty'), teamId: this.teamId };
  }

  /** Marks a customer's conversation read up to its newest message. */
  async markMessageAsRead(options: { customerId: string | number }): Promise<void> {
    this.#me();
    const customerId = validateId(options?.customerId, 'idEmpty');
    const ref = { type: 'cs' as const, id: customerId, teamId: this.teamId };
    const state = this.#deps.state;
    const last = state.conversations.get(ref)?.lastMessage;
    const [newest] = last ? [last] : await this.history({ customerId, limit: 1 }).then((m) => m.slice(-1));
    if (!newest) return;
    await this.#deps.wire.call(
      CLIENT_EVENTS.imMarkAsRead,
      { id: customerId, scene: 'cs', lastTimestamp: newest.timestamp, teamId: this.teamId },
      'read',
    );
    state.cache(ref).advanceOffset(this.#deps.state.me.id, newest.timestamp);
    if (state.conversations.update(ref, (c) => ({ ...c, unread: 0 }))) state.emitConversations();
  }

  /** A text message from me, as an agent of the team, to a customer. */
  createTextMessage(options: { text: string; to: CsCustomerTarget; notification?: PublishNotification }): CsMessage {
    const { text, notification } = options ?? {};
    return this.#deps.im.createTextMessage({ text, notification, to: this.#target(options?.to) }) as CsMessage;
  }

  /** A custom message from me, as an agent of the team, to a customer. */
  createCustomMessage(options: {
    type: string;
    payload: unknown;
    to: CsCustomerTarget;
    notification?: PublishNotification;
  }): CsMessage {
    const { type, payload, notification } = options ?? {};
    return this.#deps.im.createCustomMessage({
      type,
      payload,
      notification,
      to: this.#target(options?.to),
    }) as CsMessage;
  }

  /** An image message from me, as an agent of the team, to a customer; `sendMessage` uploads the file first. */
  createImageMessage(options: CsFileOptions<ImageMessageOptions>): CsMessage {
    return this.#deps.im.createImageMessage({ ...options, to: this.#target(options?.to) }) as CsMessage;
  }

  /** A file message from me, as an agent of the team, to a customer. */
  createFileMessage(options: CsFileOptions<FileMessageOptions>): CsMessage {
    return this.#deps.im.createFileMessage({ ...options, to: this.#target(options?.to) }) as CsMessage;
  }

  /** An audio message from me, as an agent of the team, to a customer. */
  createAudioMessage(options: CsFileOptions<AudioMessageOptions>): CsMessage {
    return this.#deps.im.createAudioMessage({ ...options, to: this.#target(options?.to) }) as CsMessage;
  }

  /** A video message from me, as an agent of the team, to a customer. */
  createVideoMessage(options: CsFileOptions<VideoMessageOptions>): CsMessage {
    return this.#deps.im.createVideoMessage({ ...options, to: this.#target(options?.to) }) as CsMessage;
  }

  /** Throws 409 `Please call connect() first.` while disconnected, like every `client.im` call. */
  #me(): string {
    return this.#deps.state.me.id;
  }

  #target(to: CsCustomerTarget | undefined): MessageTarget {
    if (!isPlainObject(to)) throw ParleyError.badRequest('toRequired');
    if (String(to.id) === this.teamId) throw ParleyError.badRequest('csTargetNotCustomer');
    return { type: 'cs', id: to.id, data: to.data ?? {}, teamId: this.teamId };
  }
}

function parseData(data: unknown): Record<string, unknown> {
  try {
    const value: unknown = typeof data === 'string' ? JSON.parse(data) : data;
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}
