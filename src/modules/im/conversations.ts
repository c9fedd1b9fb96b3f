import { LIMITS } from '../../protocol/index.js';
import { keyOf, type Conversation, type ConversationList, type ConversationRef, type Message } from './types.js';

/**
 * The conversation list: at most 200, pinned first, then by the time of the last message, newest first. Every
 * change produces new objects, so a snapshot can be compared by identity.
 */
export class ConversationStore {
  readonly #byKey = new Map<string, Conversation>();
  #snapshot: ConversationList | undefined;
  /** True once the list was fetched from the server on this connection. */
  loaded = false;

  /** The conversation of `ref`, if listed. */
  get(ref: ConversationRef): Conversation | undefined {
    return this.#byKey.get(keyOf(ref));
  }

  /** Replaces the whole list (from the server). */
  replaceAll(conversations: readonly Conversation[]): void {
    this.#byKey.clear();
    for (const c of conversations) this.#byKey.set(keyOf(refOf(c)), c);
    this.#changed();
  }

  /** Adds or replaces one conversation. */
  put(conversation: Conversation): void {
    this.#byKey.set(keyOf(refOf(conversation)), conversation);
    this.#changed();
  }

  /** Changes one conversation, if listed; returns whether it was. */
  update(ref: ConversationRef, change: (c: Conversation) => Conversation): boolean {
    const current = this.#byKey.get(keyOf(ref));
    if (!current) return false;
    this.#byKey.set(keyOf(ref), change(current));
    this.#changed();
    return true;
  }

  /** Removes one conversation; returns whether it was listed. */
  remove(ref: ConversationRef): boolean {
    const removed = this.#byKey.delete(keyOf(ref));
    if (removed) this.#changed();
    return removed;
  }

  /** The sorted list and unread total, the same object until something changes. */
  snapshot(): ConversationList {
    if (!this.#snapshot) {
      const conversations = [...this.#byKey.values()].sort(compare).slice(0, LIMITS.conversationListMax);
      const unreadTotal = conversations.reduce((sum, c) => sum + c.unread, 0);
      this.#snapshot = { unreadTotal, conversations };
    }
    return this.#snapshot;
  }

  /** Forgets everything (on disconnect). */
  clear(): void {
    this.#byKey.clear();
    this.loaded = false;
    this.#changed();
  }

  #changed(): void {
    this.#snapshot = undefined;
    // Keep memory bounded: conversations beyond the list's size are dropped, the oldest first.
    if (this.#byKey.size > LIMITS.conversationListMax) {
      const keep = new Set(
        [...this.#byKey.values()]
          .sort(compare)
          .slice(0, LIMITS.conversationListMax)
          .map((c) => keyOf(refOf(c))),
      );
      for (const key of [...this.#byKey.keys()]) if (!keep.has(key)) this.#byKey.delete(key);
    }
  }
}

/** The reference of a listed conversation. */
export function refOf(c: Conversation): ConversationRef {
  if (c.type === 'cs') return { type: 'cs', id: c.id as string, teamId: c.teamId };
  return { type: c.type, id: c.type === 'group' ? (c.groupId as string) : (c.userId as string) };
}

/** Pinned first, then newest last message first. */
export function compare(a: Conversation, b: Conversation): number {
  if (a.top !== b.top) return a.top ? -1 : 1;
  return b.lastMessage.timestamp - a.lastMessage.timestamp;
}

/** A new conversation for `ref` whose last message is `message`. */
export function newConversation(ref: ConversationRef, message: Message, data: Record<string, unknown>): Conversation {
  const base = { data, unread: 0, lastMessage: message, top: false };
  if (ref.type === 'cs') return { ...base, type: 'cs', id: ref.id, teamId: ref.teamId ?? ref.id };
  return ref.type === 'group'
    ? { ...base, type: 'group', groupId: ref.id }
    : { ...base, type: 'private', userId: ref.id };
}
