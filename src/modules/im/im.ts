import { CLIENT_EVENTS, CODES, LIMITS } from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import type { Subscribable } from '../../core/emitter.js';
import { ParleyError } from '../../core/errors.js';
import { isOnline } from '../../core/status.js';
import { buildMessage, toPublishRequest, validateCustom, validateTarget, validateText } from './message.js';
import { listenToPushes } from './inbox.js';
import { ImState, type Me } from './state.js';
import { loadConversations, resync } from './sync.js';
import {
  conversationOf,
  type ConversationList,
  type ImEvents,
  type Message,
  type MessageTarget,
  type OnlineUser,
  type TextPayload,
} from './types.js';
import { validateBatch, validateConversation, validateId, validateIds, validateRef } from './validate.js';
import { ImWire } from './wire.js';

/**
 * `client.im`: private and group chat, the conversation list, history, read marks, recall and delete, groups
 * and presence. Promise-based, with the reference's method and event names.
 */
export class Im {
  readonly #connection: Connection;
  readonly #state: ImState;
  readonly #wire: ImWire;
  readonly #targets = new WeakMap<Message, MessageTarget>();
  readonly #now: () => number;

  constructor(connection: Connection, now: () => number) {
    this.#connection = connection;
    this.#now = now;
    this.#state = new ImState(() => this.#me());
    this.#wire = new ImWire(connection.requests);
    this.#state.fetchData = (ref) => this.#wire.data(ref);
    listenToPushes(connection, this.#state);
    connection.events.on('connectionStatus', ({ status }) => {
      if (status === 'reconnecting') this.#state.beginOutage();
      if (status === 'reconnected' || status === 'expired_reconnected') void resync(this.#state, this.#wire);
      if (status === 'disconnected' || status === 'connect_failed') this.#state.clear();
    });
  }

  /** Listens to an IM event; returns the unsubscribe function. */
  get on(): Subscribable<ImEvents>['on'] {
    return (event, listener) => this.#state.events.on(event, listener);
  }

  /** Removes a listener. */
  get off(): Subscribable<ImEvents>['off'] {
    return (event, listener) => this.#state.events.off(event, listener);
  }

  /** A text message to `to`, not yet sent. */
  createTextMessage(options: { text: string; to: MessageTarget }): Message {
    const me = this.#me();
    const text = validateText(options?.text);
    const to = validateTarget(options?.to, me.id);
    return this.#build('text', { text } satisfies TextPayload, to);
  }

  /** A message of an app's own `type` with any object, string or number `payload`. */
  createCustomMessage(options: { type: string; payload: unknown; to: MessageTarget }): Message {
    const me = this.#me();
    const { type, payload } = validateCustom(options?.type, options?.payload);
    const to = validateTarget(options?.to, me.id);
    return this.#build(type, payload, to);
  }

  /**
   * Sends a message created by this client. Its status goes `sending`, then `success` with the server's timestamp,
   * or `fail`. While the connection is down the message waits and goes out on reconnect, in order.
   */
  async sendMessage(options: { message: Message; accessToken?: string }): Promise<Message> {
    this.#me();
    const message = options?.message;
    if (typeof message !== 'object' || message === null)
      throw new ParleyError(CODES.BAD_REQUEST, 'it is an empty message.');
    const to = this.#targets.get(message);
    if (message.status !== 'new' || !to) throw ParleyError.badRequest('sentOnce');
    const request = toPublishRequest(message, to, options.accessToken);
    message.status = 'sending';
    this.#state.record({ ...message }, { incoming: false, data: to.data ?? {} });
    this.#state.emitConversations();
    try {
      const ack = await this.#publish(request);
      message.status = 'success';
      message.timestamp = ack.timestamp;
    } catch (error) {
      message.status = 'fail';
      this.#state.replace({ ...message });
      this.#state.emitConversations();
      throw ParleyError.from(error);
    }
    this.#state.replace({ ...message });
    this.#state.cache(conversationOf(message, message.senderId)).advanceOffset(message.senderId, message.timestamp);
    this.#state.emitConversations();
    return message;
  }

  /**
   * Messages of a conversation older than `lastTimestamp` (exclusive; the newest when absent), oldest first, at most
   * `limit` (default 10, at most 30). Served from the local cache when it holds them, else from the server.
   */
  async history(options: {
    type: 'private' | 'group';
    id: string | number;
    lastTimestamp?: number;
    limit?: number;
  }): Promise<Message[]> {
    this.#me();
    const ref = validateRef(options);
    const limit = Math.min(
      LIMITS.historyMaxLimit,
      Math.max(1, Math.floor(options.limit ?? LIMITS.historyDefaultLimit)),
    );
    const before =
      typeof options.lastTimestamp === 'number' && options.lastTimestamp > 0 ? options.lastTimestamp : undefined;
    const cache = this.#state.cache(ref);
    const held =
      before === undefined
        ? [...cache.all()]
        : cache.all().filter((m) => m.status === 'success' && m.timestamp < before);
    const oldest = cache.oldestSuccessTime();
    if (held.length >= limit) return held.slice(-limit);
    if (cache.complete && (before === undefined || before > oldest)) return held;
    const cursor = held.length > 0 ? oldest : before;
    const need = limit - held.length;
    const page = await this.#wire.history(ref, cursor, need);
    const me = this.#me().id;
    for (const o of page.offsets) cache.advanceOffset(o.userId, o.offset);
    const otherOffset = ref.type === 'private' ? (cache.offsets.get(ref.id) ?? 0) : 0;
    const messages = page.messages.map((m) =>
      m.scene === 'private' && m.senderId === me && m.timestamp <= otherOffset ? { ...m, read: true } : m,
    );
    const contiguous =
      held.length > 0 || (cache.size === 0 && before === undefined) || (before !== undefined && before === oldest);
    if (contiguous) cache.prepend(messages, messages.length < need);
    return [...messages, ...held];
  }

  /** The conversation list: at most 200, pinned first, then newest first, with unread counts. */
  async latestConversations(): Promise<ConversationList> {
    this.#me();
    if (!this.#state.conversations.loaded) await loadConversations(this.#state, this.#wire);
    return this.#state.conversations.snapshot();
  }

  /** Marks everything in a conversation read, here and on the user's other devices, and tells the other side. */
  async markMessageAsRead(options: { type: 'private' | 'group'; id: string | number }): Promise<void> {
    const me = this.#me().id;
    const ref = validateRef(options);
    const cache = this.#state.cache(ref);
    const last = this.#state.conversations.get(ref)?.lastMessage;
    const time = Math.max(cache.newestSuccessTime(), last?.status === 'success' ? last.timestamp : 0);
    if (time > (cache.offsets.get(me) ?? 0)) {
      await this.#wire.call(CLIENT_EVENTS.imMarkAsRead, { id: ref.id, scene: ref.type, lastTimestamp: time }, 'read');
      cache.advanceOffset(me, time);
    }
    if (this.#state.conversations.update(ref, (c) => ({ ...c, unread: 0 }))) this.#state.emitConversations();
  }

  /** Pins or unpins a conversation of the list. */
  async topConversation(options: { conversation: unknown; top: boolean }): Promise<void> {
    this.#me();
    const ref = validateConversation(options?.conversation);
    if (typeof options.top !== 'boolean') throw ParleyError.badRequest('topNotBoolean');
    if (!this.#state.conversations.get(ref)) throw ParleyError.badRequest('conversationNotFound');
    await this.#wire.call(
      CLIENT_EVENTS.topConversation,
      { type: ref.type, top: options.top, targetId: ref.id },
      'write',
    );
    this.#state.conversations.update(ref, (c) => ({ ...c, top: options.top }));
    this.#state.emitConversations();
  }

  /** Removes a conversation from the list until its next message. */
  async removeConversation(options: { conversation: unknown }): Promise<void> {
    this.#me();
    const ref = validateConversation(options?.conversation);
    if (!this.#state.conversations.get(ref)) throw ParleyError.badRequest('conversationNotFound');
    await this.#wire.call(CLIENT_EVENTS.removeConversation, { type: ref.type, targetId: ref.id }, 'write');
    this.#state.conversations.remove(ref);
    this.#state.emitConversations();
  }

  /** Recalls up to 20 of my own sent messages of one conversation, for everyone. */
  async recallMessage(options: { messages: Message[] }): Promise<Message[]> {
    const me = this.#me();
    const { list, ref } = validateBatch(options?.messages, me.id, 'recallCs');
    list.forEach((m, i) => {
      if (m.status !== 'success')
        throw new ParleyError(CODES.BAD_REQUEST, `message[${i}] is ${m.status} and cannot be recalled`);
      if (m.recalled) throw new ParleyError(CODES.BAD_REQUEST, `message[${i}] has been recalled`);
      if (m.senderId !== me.id) throw ParleyError.badRequest('recallOthers');
    });
    const times = list.map((m) => m.timestamp).sort((a, b) => a - b);
    await this.#wire.call(CLIENT_EVENTS.imRecallMessage, { scene: ref.type, targetId: ref.id, times }, 'write');
    const recaller = { id: me.id, data: me.data };
    const ids = new Set(list.map((m) => m.messageId));
    const recalled = this.#state
      .cache(ref)
      .update((m) => (ids.has(m.messageId) ? { ...m, recalled: true, recaller } : undefined));
    for (const m of list) Object.assign(m, { recalled: true, recaller });
    this.#state.refreshLast(ref);
    this.#state.events.emit('MESSAGE_RECALLED', recalled.length > 0 ? recalled : list);
    this.#state.emitConversations();
    return recalled;
  }

  /** Deletes up to 20 messages of one conversation, for me only (on all my devices). */
  async deleteMessage(options: { messages: Message[] }): Promise<Message[]> {
    const me = this.#me();
    const { list, ref } = validateBatch(options?.messages, me.id, 'deleteCs');
    if (list.some((m) => m.status === 'sending')) throw ParleyError.badRequest('deleteSending');
    const sent = list.filter((m) => m.status === 'success');
    if (sent.length > 0) {
      const times = sent.map((m) => m.timestamp).sort((a, b) => a - b);
      await this.#wire.call(CLIENT_EVENTS.imDeleteMessage, { scene: ref.type, targetId: ref.id, times }, 'write');
    }
    const removed = this.#state.cache(ref).remove(list.map((m) => m.messageId));
    this.#state.refreshLast(ref);
    this.#state.events.emit('MESSAGE_DELETED', removed.length > 0 ? removed : list);
    this.#state.emitConversations();
    return removed;
  }

  /** Joins groups: their messages reach this user from now on, on every device, until unsubscribed. */
  async subscribeGroup(options: { groupIds: Array<string | number>; accessToken?: string }): Promise<void> {
    this.#me();
    const groupIds = validateIds(options?.groupIds);
    await this.#wire.call(CLIENT_EVENTS.subscribeGroups, { groupIds, at: options.accessToken }, 'read');
  }

  /** Leaves a group. */
  async unsubscribeGroup(options: { groupId: string | number }): Promise<void> {
    this.#me();
    await this.#wire.call(
      CLIENT_EVENTS.unsubscribeGroup,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'read',
    );
  }

  /** Receives `USER_PRESENCE` for these users. */
  async subscribeUserPresence(options: { userIds: Array<string | number> }): Promise<void> {
    this.#me();
    await this.#wire.call(CLIENT_EVENTS.subscribeUserPresence, { userIds: validateIds(options?.userIds) }, 'write');
  }

  /** Stops `USER_PRESENCE` for a user. */
  async unsubscribeUserPresence(options: { userId: string | number }): Promise<void> {
    this.#me();
    await this.#wire.call(
      CLIENT_EVENTS.unsubscribeUserPresence,
      { userId: validateId(options?.userId, 'userIdEmpty') },
      'write',
    );
  }

  /** Receives `GROUP_PRESENCE` for these groups. */
  async subscribeGroupPresence(options: { groupIds: Array<string | number> }): Promise<void> {
    this.#me();
    await this.#wire.call(CLIENT_EVENTS.subscribeGroupPresence, { groupIds: validateIds(options?.groupIds) }, 'write');
  }

  /** Stops `GROUP_PRESENCE` for a group. */
  async unsubscribeGroupPresence(options: { groupId: string | number }): Promise<void> {
    this.#me();
    await this.#wire.call(
      CLIENT_EVENTS.unsubscribeGroupPresence,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'write',
    );
  }

  /** Which of these users are online, with their data. */
  async hereNow(options: { userIds: Array<string | number> }): Promise<OnlineUser[]> {
    this.#me();
    const list = await this.#wire.call<unknown>(
      CLIENT_EVENTS.imHereNow,
      { userIds: validateIds(options?.userIds) },
      'read',
      'query',
    );
    return toOnlineUsers(list);
  }

  /** The online members of a group, with their data. */
  async groupHereNow(options: { groupId: string | number }): Promise<OnlineUser[]> {
    this.#me();
    const list = await this.#wire.call<unknown>(
      CLIENT_EVENTS.imGroupHereNow,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'read',
      'query',
    );
    return toOnlineUsers(list);
  }

  /** How many members of a group are online. */
  async groupOnlineCount(options: { groupId: string | number }): Promise<number> {
    this.#me();
    const content = await this.#wire.call<{ count?: unknown } | number>(
      CLIENT_EVENTS.imGroupOnlineCount,
      { groupId: validateId(options?.groupId, 'groupIdEmpty') },
      'read',
      'query',
    );
    return typeof content === 'number' ? content : Number(content?.count ?? 0);
  }

  #build(type: string, payload: unknown, to: MessageTarget): Message {
    const message = buildMessage({ type, payload, to, me: this.#me(), now: this.#now() });
    this.#targets.set(message, to);
    return message;
  }

  /** Sends through the outbox: waits while the link is down, and tries again if the link dropped mid-send. */
  async #publish(request: Parameters<ImWire['publish']>[0]): Promise<{ timestamp: number }> {
    for (;;) {
      await this.#online();
      try {
        return await this.#wire.publish(request);
      } catch (error) {
        const linkTrouble =
          error instanceof ParleyError && error.code === CODES.TIMEOUT && !isOnline(this.#connection.status);
        if (!linkTrouble || this.#connection.status === 'connect_failed') throw error;
      }
    }
  }

  #online(): Promise<void> {
    const status = this.#connection.status;
    if (isOnline(status)) return Promise.resolve();
    if (status === 'disconnected' || status === 'disconnecting' || status === 'connect_failed') {
      return Promise.reject(ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst'));
    }
    return new Promise((resolve, reject) => {
      const off = this.#connection.events.on('connectionStatus', ({ status: next }) => {
        if (isOnline(next)) {
          off();
          resolve();
        } else if (next === 'disconnected' || next === 'connect_failed') {
          off();
          reject(ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst'));
        }
      });
    });
  }

  #me(): Me {
    const input = this.#connection.input;
    if (this.#connection.status === 'disconnected' || input?.id === undefined) {
      throw ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst');
    }
    return { id: String(input.id), data: input.data ?? {} };
  }
}

function toOnlineUsers(list: unknown): OnlineUser[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry: { userId?: unknown; userData?: unknown }) => {
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = typeof entry.userData === 'string' ? JSON.parse(entry.userData) : entry.userData;
      if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
    } catch {
      data = {};
    }
    return { id: String(entry.userId), data };
  });
}
