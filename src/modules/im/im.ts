import { CLIENT_EVENTS, CODES, type WireNotification } from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import type { Subscribable } from '../../core/emitter.js';
import { ParleyError } from '../../core/errors.js';
import {
  buildMessage,
  copyMessage,
  recalledBy,
  toPublishRequest,
  validateCustom,
  validateTarget,
  validateText,
} from './message.js';
import { defaultUploadHttp, type UploadHttp } from '../upload/http.js';
import { Uploader } from '../upload/uploader.js';
import { prepareMedia, type PendingUpload, type RichKind, type VideoMessageOptions } from './media.js';
import type { AudioMessageOptions, FileMessageOptions, ImageMessageOptions } from './media.js';
import { listenToPushes } from './inbox.js';
import { ImState, type Me } from './state.js';
import { loadConversations, resync } from './sync.js';
import {
  conversationOf,
  type ConversationList,
  type ConversationRef,
  type ImEvents,
  type Message,
  type MessageTarget,
  type OnlineUser,
  type TextPayload,
} from './types.js';
import { historyLimit, validateBatch, validateConversation, validateId, validateRef } from './validate.js';
import { ImWire, teamOf } from './wire.js';
import { ImGroupsAndPresence } from './groups-presence.js';
import { Outbox } from './outbox.js';
import { CsAgent } from './cs-agent.js';
import { CsTeam } from './cs-team.js';
import { Typing } from './typing.js';
import { systemTimers, type Timers } from '../../core/timers.js';
import type { PublishNotification } from '../pubsub/types.js';
import { validateNotification } from '../pubsub/validate.js';

/**
 * A conversation to type in: a private chat, a group, or a customer-service conversation (`id` the team for a
 * customer; the customer, with `teamId`, for an agent).
 */
export interface TypingOptions {
  type: 'private' | 'group' | 'cs';
  id: string | number;
  teamId?: string | number;
}

/**
 * `client.im`: private and group chat, the conversation list, history, read marks, recall and delete, groups
 * and presence. Promise-based, with the reference's method and event names.
 */
export class Im extends ImGroupsAndPresence {
  readonly #connection: Connection;
  readonly #state: ImState;
  readonly #wire: ImWire;
  readonly #outbox: Outbox;
  readonly #targets = new WeakMap<Message, MessageTarget>();
  readonly #now: () => number;
  readonly #cs: CsAgent;
  readonly #typing: Typing;
  readonly #uploads = new WeakMap<Message, PendingUpload>();
  /** IM-26: the notifications messages were created with, sent with them. */
  readonly #notifications = new WeakMap<Message, WireNotification>();
  #meOf: { input: object; me: Me } | undefined;
  /** Uploads the files of rich messages; also usable alone, e.g. for an app's own uploads. */
  readonly uploader: Uploader;

  constructor(connection: Connection, now: () => number, options: { uploadHttp?: UploadHttp; timers?: Timers } = {}) {
    super();
    this.#connection = connection;
    this.#now = now;
    this.uploader = new Uploader(connection.requests, options.uploadHttp ?? defaultUploadHttp);
    this.#state = new ImState(() => this.#me());
    this.#wire = new ImWire(connection.requests);
    this.#outbox = new Outbox(connection, this.#wire);
    this.#cs = new CsAgent(connection, this.#state, this.#wire);
    this.#state.fetchData = (ref) => this.#wire.data(ref);
    this.#state.fetchPage = (ref, limit) => this.#wire.history(ref, undefined, limit);
    listenToPushes(connection, this.#state, (payload) => this.#cs.receivePush(payload));
    this.#typing = new Typing(connection, this.#state, options.timers ?? systemTimers);
    connection.events.on('connectionStatus', ({ status }) => {
      // Typing stops being heard with the link: a stop sent meanwhile would be lost (TYPING-3).
      if (status === 'reconnecting' || status === 'disconnected' || status === 'connect_failed') this.#typing.clear();
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

  /**
   * A text message to `to`, not yet sent. A `notification` (title at most 32 characters, body at most 50) goes with
   * the message to its receivers' pushes, for native clients to show; every `create*Message` takes one.
   */
  createTextMessage(options: { text: string; to: MessageTarget; notification?: PublishNotification }): Message {
    const me = this.#me();
    const text = validateText(options?.text);
    const to = validateTarget(options?.to, me.id);
    return this.#build('text', { text } satisfies TextPayload, to, options.notification);
  }

  /** A message of an app's own `type` with any object, string or number `payload`. */
  createCustomMessage(options: {
    type: string;
    payload: unknown;
    to: MessageTarget;
    notification?: PublishNotification;
  }): Message {
    const me = this.#me();
    const { type, payload } = validateCustom(options?.type, options?.payload);
    const to = validateTarget(options?.to, me.id);
    return this.#build(type, payload, to, options.notification);
  }

  /** An image message (gif, jpg, png, jpeg); `sendMessage` uploads the file first (UP-5). */
  createImageMessage(options: ImageMessageOptions): Message {
    return this.#buildRich('image', options);
  }

  /** A file message of any type; `sendMessage` uploads it first, to be served as a download. */
  createFileMessage(options: FileMessageOptions): Message {
    return this.#buildRich('file', options);
  }

  /** An audio message (mp3, ogg, wav, wma, ape, acc, mpeg); `sendMessage` uploads the file first. */
  createAudioMessage(options: AudioMessageOptions): Message {
    return this.#buildRich('audio', options);
  }

  /** A video message (avi, mov, rmvb, rm, flv, mp4, 3gp, quicktime); `sendMessage` uploads it and its thumbnail. */
  createVideoMessage(options: VideoMessageOptions): Message {
    return this.#buildRich('video', options);
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
    const upload = this.#uploads.get(message);
    const notification = this.#notifications.get(message);
    message.status = 'sending';
    this.#typing.sent(conversationOf(message, message.senderId));
    this.#state.record(copyMessage(message), { incoming: false, data: to.data ?? {} });
    this.#state.emitConversations();
    let ack: Awaited<ReturnType<Outbox['send']>>;
    try {
      if (upload) {
        // UP-6: the file goes up while the message is `sending`, once the link is up (IMC-3); the payload then holds
        // its URL.
        this.#uploads.delete(message);
        message.payload = await this.#outbox.whenOnline(() => upload.run(this.uploader));
        this.#state.replace(copyMessage(message));
      }
      // A payload over the 3 KB is refused here, after `sending`, so that the message ends `fail` like any refused
      // send (IMC-2). Without an upload nothing is awaited before the outbox takes it, which keeps the sends' order.
      ack = await this.#outbox.send(toPublishRequest(message, to, options.accessToken, notification));
      message.status = 'success';
      message.timestamp = ack.timestamp;
      if (message.scene === 'cs' && ack.sessionId !== undefined) message.sessionId = Number(ack.sessionId);
    } catch (error) {
      message.status = 'fail';
      this.#state.replace(copyMessage(message));
      this.#state.emitConversations();
      throw ParleyError.from(error);
    }
    this.#state.replace(copyMessage(message));
    const ref = conversationOf(message, message.senderId);
    this.#state.readUpTo(ref, message.timestamp);
    // IM-22: sent from outside the group, which the server neither lists to me nor lets me read (IM-9, IM-16).
    if (ack.member === false && ref.type === 'group') this.#forget(ref.id);
    this.#state.emitConversations();
    return message;
  }

  /**
   * Messages of a conversation older than `lastTimestamp` (exclusive; the newest when absent), oldest first, at most
   * `limit` (default 10, at most 30; one that is not a number means the default). Served from the local cache when it
   * holds them, else from the server; asked while the SDK catches up after a reconnect (IMC-8), once that is done.
   * The messages are new objects each time, equal to those the events gave (the cache keeps their fields, IMC-10).
   */
  async history(options: {
    type: 'private' | 'group' | 'cs';
    id: string | number;
    lastTimestamp?: number;
    limit?: number;
  }): Promise<Message[]> {
    this.#me();
    const ref = validateRef(options);
    const limit = historyLimit(options.limit);
    const before =
      typeof options.lastTimestamp === 'number' && options.lastTimestamp > 0 ? options.lastTimestamp : undefined;
    await this.#state.syncing;
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
    const messages = this.#state.takePage(ref, await this.#wire.history(ref, cursor, need));
    const newest = held.length === 0 && cache.size === 0 && before === undefined;
    const contiguous = held.length > 0 || newest || (before !== undefined && before === oldest);
    if (contiguous) cache.prepend(messages, messages.length < need);
    // Some may not have been pushed to this client yet: their pushes are their arrival.
    if (newest) this.#state.pagedNewest(ref, messages);
    // The page may have marked some of those held read (IMC-6): answered as the cache has them now.
    const now = new Map(cache.all().map((m) => [m.messageId, m]));
    return [...messages, ...held.map((m) => now.get(m.messageId) ?? m)];
  }

  /** Agents: the pending customers of the teams I am online in, newest first (`PENDING_CONVERSATIONS_UPDATED`). */
  async pendingConversations(): Promise<ConversationList> {
    this.#me();
    return this.#cs.pending.loaded ? this.#cs.pending.snapshot() : this.#cs.loadPending();
  }

  /** A customer-service team as an agent works in it: online/offline, accept, end, transfer, live sessions. */
  csteam(teamId: string | number): CsTeam {
    return new CsTeam(validateId(teamId, 'idEmpty'), {
      agent: this.#cs,
      state: this.#state,
      wire: this.#wire,
      im: this,
    });
  }

  /**
   * The conversation list: at most 200, pinned first, then newest first, with unread counts. Asked while the SDK
   * catches up after a reconnect (IMC-8), it answers once that is done.
   */
  async latestConversations(): Promise<ConversationList> {
    this.#me();
    await this.#listReady();
    return this.#state.conversations.snapshot();
  }

  /**
   * Marks everything in a conversation read, here and on the user's other devices, and tells the other side. Asked
   * while the SDK catches up after a reconnect (IMC-8), it marks what that brought too.
   */
  /**
   * Tells the other side of a private chat, or the group's other members, that I am typing there (TYPING-1): call it
   * on every keystroke. It goes out at most once every 3 seconds per conversation; 5 seconds after the last
   * keystroke, or at {@link stopTyping}, they hear I stopped, and a message I send there ends it too. As a customer,
   * `{type: 'cs', id: teamId}` tells the agent who accepted me, or while I wait for one every online agent of the
   * team (TYPING-4; agents use their csteam's `keystroke`).
   * Only while connected (otherwise rejects with 409 `Please connect first`); group typing needs membership (401).
   */
  async keystroke(options: TypingOptions): Promise<void> {
    const me = this.#me();
    await this.#typing.keystroke(Typing.ref(options, me.id));
  }

  /** I stopped typing in a conversation: heard at once, if a {@link keystroke} told I was typing. */
  async stopTyping(options: TypingOptions): Promise<void> {
    const me = this.#me();
    await this.#typing.stop(Typing.ref(options, me.id));
  }

  /**
   * Who is typing in a conversation with me now, first to start first (the `TYPING` event tells of each change).
   * Someone is typing until they stop, send a message there, or are not heard from for 6 seconds.
   */
  typingUsers(options: TypingOptions): OnlineUser[] {
    const me = this.#me();
    return this.#typing.users(Typing.ref(options, me.id));
  }

  async markMessageAsRead(options: { type: 'private' | 'group' | 'cs'; id: string | number }): Promise<void> {
    const me = this.#me().id;
    const ref = validateRef(options);
    await this.#state.syncing;
    const cache = this.#state.cache(ref);
    const last = this.#state.conversations.get(ref)?.lastMessage;
    const time = Math.max(cache.newestSuccessTime(), last?.status === 'success' ? last.timestamp : 0);
    if (time > (cache.offsets.get(me) ?? 0)) {
      await this.#wire.call(
        CLIENT_EVENTS.imMarkAsRead,
        { id: ref.id, scene: ref.type, lastTimestamp: time, ...teamOf(ref) },
        'read',
      );
      cache.advanceOffset(me, time);
    }
    if (this.#state.conversations.update(ref, (c) => ({ ...c, unread: 0 }))) this.#state.emitConversations();
  }

  /** Pins or unpins a conversation of the list. */
  async topConversation(options: { conversation: unknown; top: boolean }): Promise<void> {
    this.#me();
    const ref = validateConversation(options?.conversation);
    if (typeof options.top !== 'boolean') throw ParleyError.badRequest('topNotBoolean');
    await this.#listReady();
    this.#assertListed(ref);
    await this.#wire.call(
      CLIENT_EVENTS.topConversation,
      { type: ref.type, top: options.top, targetId: ref.id, ...teamOf(ref) },
      'write',
    );
    this.#state.redoAfterLoads(() => this.#state.conversations.update(ref, (c) => ({ ...c, top: options.top })));
    this.#state.emitConversations();
  }

  /** Removes a conversation from the list until its next message, and unpins it; what was unread stays unread. */
  async removeConversation(options: { conversation: unknown }): Promise<void> {
    this.#me();
    const ref = validateConversation(options?.conversation);
    await this.#listReady();
    this.#assertListed(ref);
    await this.#wire.call(
      CLIENT_EVENTS.removeConversation,
      { type: ref.type, targetId: ref.id, ...teamOf(ref) },
      'write',
    );
    this.#state.redoAfterLoads(() => this.#state.conversations.remove(ref));
    this.#state.emitConversations();
  }

  /**
   * Throws unless `ref` is in the conversation list: a customer an agent's pending list holds is refused in the
   * reference's words for it (a pending one cannot be topped or removed), any other with `conversationNotFound`.
   */
  #assertListed(ref: ConversationRef): void {
    if (this.#state.conversations.get(ref)) return;
    if (ref.type === 'cs' && this.#cs.pending.get(ref)) throw ParleyError.badRequest('csPendingConversation');
    throw ParleyError.badRequest('conversationNotFound');
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
    const recalled = this.#state.cache(ref).update((m) => (ids.has(m.messageId) ? recalledBy(m, recaller) : undefined));
    for (const m of list) Object.assign(m, { recalled: true, recaller });
    this.#state.refreshLast(ref);
    this.#state.events.emit('MESSAGE_RECALLED', recalled.length > 0 ? recalled : list);
    this.#state.emitConversations();
    return recalled;
  }

  /**
   * Deletes up to 20 messages of one conversation, for me only (on all my devices). Resolves once the conversation
   * list shows the new last message, or no longer lists a conversation left without one (IM-16).
   */
  async deleteMessage(options: { messages: Message[] }): Promise<Message[]> {
    const me = this.#me();
    const { list, ref } = validateBatch(options?.messages, me.id, 'deleteCs');
    if (list.some((m) => m.status === 'sending')) throw ParleyError.badRequest('deleteSending');
    const sent = list.filter((m) => m.status === 'success');
    const cache = this.#state.cache(ref);
    // Neither sent nor kept here (messages created and never sent): there is nothing to delete anywhere.
    if (sent.length === 0 && !list.some((m) => cache.holds(m))) throw ParleyError.badRequest('nothingToDelete');
    if (sent.length > 0) {
      const times = sent.map((m) => m.timestamp).sort((a, b) => a - b);
      await this.#wire.call(CLIENT_EVENTS.imDeleteMessage, { scene: ref.type, targetId: ref.id, times }, 'write');
    }
    cache.deleted(sent.map((m) => m.timestamp));
    const removed = cache.remove(list.map((m) => m.messageId));
    // Resolved once the list is fixed, when the conversation's new last message had to come from the server.
    await this.#state.dropped(ref, removed);
    this.#state.events.emit('MESSAGE_DELETED', removed.length > 0 ? removed : list);
    this.#state.emitConversations();
    return removed;
  }

  #buildRich(kind: RichKind, options: unknown): Message {
    const me = this.#me();
    const { payload, upload } = prepareMedia(kind, options as Parameters<typeof prepareMedia>[1]);
    const { to, notification } = options as { to?: unknown; notification?: unknown };
    const message = this.#build(kind, payload, validateTarget(to, me.id), notification);
    this.#uploads.set(message, upload);
    return message;
  }

  /** @throws ParleyError 400 for a notification over its limits (IM-26), before the message exists. */
  #build(type: string, payload: unknown, to: MessageTarget, notification?: unknown): Message {
    const nt = validateNotification(notification);
    const message = buildMessage({ type, payload, to, me: this.#me(), now: this.#now() });
    this.#targets.set(message, to);
    if (nt) this.#notifications.set(message, nt);
    return message;
  }

  /** @internal */
  protected get imWire(): ImWire {
    return this.#wire;
  }

  /** @internal */
  protected requireUser(): Me {
    return this.#me();
  }

  /** @internal */
  protected async membershipChanged(change: { left: string } | { joined: readonly string[] }): Promise<void> {
    // Messages held while the SDK catches up after a reconnect (IMC-8) come first: those of a group just left too.
    await this.#state.syncing;
    const conversations = this.#state.conversations;
    if ('left' in change) {
      if (this.#forget(change.left)) this.#state.emitConversations();
      return;
    }
    if (!conversations.loaded) return;
    // Joined groups may have messages already: the server lists them now, with their unread counts.
    if (change.joined.some((id) => !conversations.get({ type: 'group', id }))) {
      await loadConversations(this.#state, this.#wire);
    }
  }

  /** The list, caught up after a reconnect (IMC-8) and loaded once: what pins and removals look conversations up in. */
  async #listReady(): Promise<void> {
    await this.#state.syncing;
    if (!this.#state.conversations.loaded) await loadConversations(this.#state, this.#wire);
  }

  /** Takes a group I am not a member of off the list and out of the caches; says whether it was listed. */
  #forget(groupId: string): boolean {
    // Messages sent while away never reach this client: a cache kept across would have a gap after a new join.
    this.#state.cache({ type: 'group', id: groupId }).reset();
    let listed = false;
    this.#state.redoAfterLoads(() => {
      listed = this.#state.conversations.remove({ type: 'group', id: groupId }) || listed;
    });
    return listed;
  }

  #me(): Me {
    const input = this.#connection.input;
    if (this.#connection.status === 'disconnected' || input?.id === undefined) {
      throw ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst');
    }
    // Asked several times for every message that arrives: one object per connect, not per question.
    if (this.#meOf?.input !== input) this.#meOf = { input, me: { id: String(input.id), data: input.data ?? {} } };
    return this.#meOf.me;
  }
}
