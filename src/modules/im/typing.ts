import { CLIENT_EVENTS, CODES, SERVER_PUSHES, TYPING, type WireTyping } from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import { ParleyError } from '../../core/errors.js';
import type { TimerHandle, Timers } from '../../core/timers.js';
import { parseObject } from './message.js';
import type { ImState } from './state.js';
import {
  conversationOf,
  keyOf,
  type ConversationRef,
  type Message,
  type OnlineUser,
  type TypingEvent,
} from './types.js';
import { validateId, validateRef } from './validate.js';

/** The statuses in which a typing notice goes out. */
const LIVE: ReadonlySet<string> = new Set(['connected', 'reconnected', 'expired_reconnected']);

/** What I told of one conversation: when, and the timer that tells I stopped. */
interface Mine {
  ref: ConversationRef;
  sentAt: number;
  idle: TimerHandle;
}

/** Someone typing in one conversation, until their timer runs out. */
interface Typer {
  user: OnlineUser;
  expiry: TimerHandle;
}

/**
 * Typing indicators (TYPING-1..TYPING-3): mine told to the other side at most once every {@link TYPING.refreshMs},
 * and stopped after {@link TYPING.idleMs} without a keystroke; others' kept until they stop, send a message, or are
 * not heard from for {@link TYPING.expireMs}. Nothing is stored: who types is only worth telling now.
 */
export class Typing {
  readonly #connection: Connection;
  readonly #state: ImState;
  readonly #timers: Timers;
  readonly #mine = new Map<string, Mine>();
  readonly #others = new Map<string, { ref: ConversationRef; typers: Map<string, Typer> }>();

  constructor(connection: Connection, state: ImState, timers: Timers) {
    this.#connection = connection;
    this.#state = state;
    this.#timers = timers;
    connection.pushes.on(SERVER_PUSHES.imTyping, (payload) => this.#pushed(payload));
    // A message from a typer ends their typing there (TYPING-3).
    state.events.on('PRIVATE_MESSAGE_RECEIVED', (m) => this.#wrote(m));
    state.events.on('GROUP_MESSAGE_RECEIVED', (m) => this.#wrote(m));
    state.events.on('CS_MESSAGE_RECEIVED', (m) => this.#wrote(m));
  }

  /**
   * Checks a conversation for typing: a private chat (not with myself), a group, or a customer-service conversation:
   * the team's for a customer (`id` the team), a customer's for an agent (`id` the customer, `teamId` the team).
   */
  static ref(options: unknown, me: string): ConversationRef {
    const ref = validateRef(options);
    if (ref.type === 'private' && ref.id === me) throw ParleyError.badRequest('toSelf');
    const teamId = (options as { teamId?: unknown }).teamId;
    if (ref.type === 'cs' && teamId !== undefined && teamId !== null) {
      return { type: 'cs', id: ref.id, teamId: validateId(teamId, 'idEmpty') };
    }
    return ref;
  }

  /**
   * I typed in `ref`: the other side hears I am typing, at most once every {@link TYPING.refreshMs}; after
   * {@link TYPING.idleMs} without another keystroke, it hears I stopped.
   */
  async keystroke(ref: ConversationRef): Promise<void> {
    const key = keyOf(ref);
    const now = this.#timers.now();
    const mine = this.#mine.get(key);
    if (mine) this.#timers.clearTimeout(mine.idle);
    const idle = this.#timers.setTimeout(() => void this.stop(ref).catch(() => undefined), TYPING.idleMs);
    if (mine && now - mine.sentAt < TYPING.refreshMs) {
      mine.idle = idle;
      return;
    }
    this.#mine.set(key, { ref, sentAt: now, idle });
    try {
      await this.#tell(ref, true);
    } catch (error) {
      // Not heard: the next keystroke tries again, and no stop follows.
      this.#forget(key);
      throw error;
    }
  }

  /** I stopped typing in `ref`: the other side hears it at once, if it heard I was typing. */
  async stop(ref: ConversationRef): Promise<void> {
    if (!this.#forget(keyOf(ref))) return;
    await this.#tell(ref, false);
  }

  /**
   * I sent a message to `ref`: my typing there is over, which its receivers tell from the message itself; but an
   * agent's SDK fires no event for each customer's message, so a customer tells the stop.
   */
  sent(ref: ConversationRef): void {
    if (ref.type === 'cs' && ref.teamId === ref.id) void this.stop(ref).catch(() => undefined);
    else this.#forget(keyOf(ref));
  }

  /** Who is typing in `ref` now, first to start first. */
  users(ref: ConversationRef): OnlineUser[] {
    return [...(this.#others.get(keyOf(ref))?.typers.values() ?? [])].map((t) => t.user);
  }

  /** The connection is gone: nobody is heard typing, and nothing of mine is pending. */
  clear(): void {
    for (const key of [...this.#mine.keys()]) this.#forget(key);
    for (const { ref, typers } of [...this.#others.values()]) {
      for (const id of [...typers.keys()]) this.#stopped(ref, id);
    }
  }

  #forget(key: string): boolean {
    const mine = this.#mine.get(key);
    if (!mine) return false;
    this.#timers.clearTimeout(mine.idle);
    this.#mine.delete(key);
    return true;
  }

  async #tell(ref: ConversationRef, typing: boolean): Promise<void> {
    // Only while connected: a typing notice that waited for a reconnect would tell of the past.
    if (!LIVE.has(this.#connection.status)) {
      throw ParleyError.of(CODES.NOT_CONNECTED, 'connectFirst');
    }
    await this.#connection.requests.send({
      event: CLIENT_EVENTS.imTyping,
      params:
        ref.type === 'cs' && ref.teamId !== undefined && ref.teamId !== ref.id
          ? { scene: ref.type, targetId: String(ref.id), typing, teamId: ref.teamId }
          : { scene: ref.type, targetId: String(ref.id), typing },
      kind: 'request',
      permission: 'write',
    });
  }

  #pushed(payload: unknown): void {
    const push = payload as Partial<WireTyping> | null;
    if (!push || typeof push.userId !== 'string' || push.targetId === undefined) return;
    if (push.userId === this.#state.me.id) return;
    const id = String(push.targetId);
    let ref: ConversationRef;
    if (push.scene === 'private' || push.scene === 'group') ref = { type: push.scene, id };
    else if (push.scene === 'cs')
      ref = { type: 'cs', id, teamId: push.teamId === undefined ? id : String(push.teamId) };
    else return;
    if (push.typing !== true) {
      this.#stopped(ref, push.userId);
      return;
    }
    const key = keyOf(ref);
    let entry = this.#others.get(key);
    if (!entry) {
      entry = { ref, typers: new Map() };
      this.#others.set(key, entry);
    }
    const userId = push.userId;
    const known = entry.typers.get(userId);
    if (known) this.#timers.clearTimeout(known.expiry);
    const expiry = this.#timers.setTimeout(() => this.#stopped(ref, userId), TYPING.expireMs);
    entry.typers.set(userId, { user: { id: userId, data: parseObject(push.userData) }, expiry });
    if (!known) this.#emit(ref, userId, true);
  }

  #wrote(message: Message): void {
    // Every delivered message passes here: nothing to look up while nobody types.
    if (this.#others.size === 0) return;
    this.#stopped(conversationOf(message, this.#state.me.id), message.senderId);
  }

  #stopped(ref: ConversationRef, userId: string): void {
    const key = keyOf(ref);
    const entry = this.#others.get(key);
    const typer = entry?.typers.get(userId);
    if (!entry || !typer) return;
    this.#timers.clearTimeout(typer.expiry);
    entry.typers.delete(userId);
    if (entry.typers.size === 0) this.#others.delete(key);
    this.#emit(ref, userId, false, typer.user);
  }

  #emit(ref: ConversationRef, userId: string, typing: boolean, user?: OnlineUser): void {
    const users = this.users(ref);
    const event: TypingEvent = {
      conversation:
        ref.type === 'cs' ? { type: 'cs', id: ref.id, teamId: ref.teamId ?? ref.id } : { type: ref.type, id: ref.id },
      user: user ?? users.find((u) => u.id === userId) ?? { id: userId, data: {} },
      typing,
      users,
    };
    this.#state.events.emit('TYPING', event);
  }
}
