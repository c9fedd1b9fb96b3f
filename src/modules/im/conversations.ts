import { LIMITS } from '../../protocol/index.js';
import { keyOf, type Conversation, type ConversationList, type ConversationRef, type Message } from './types.js';

/** A listed conversation and where it ranks among those listed at the same time and pin. */
interface Entry {
  readonly key: string;
  /** When its key was first listed: conversations at the same time and pin keep that order. */
  readonly seq: number;
  conversation: Conversation;
  /**
   * The newest time whose message the unread count took into account as the server counted it (the last message of
   * a list from the server, or of a page counted for it): a pushed message no newer was counted already.
   */
  counted: number;
}

/**
 * The conversation list: at most 200, pinned first, then by the time of the last message, newest first. Every
 * change produces new objects, so a snapshot can be compared by identity.
 *
 * The list is kept in order as it changes: a message moves one conversation, which is taken out and put back where
 * it now ranks, instead of sorting all of them again for every message that arrives (a full list took about 30 us
 * to sort, every message).
 */
export class ConversationStore {
  readonly #byKey = new Map<string, Entry>();
  /** Every listed conversation, in list order. */
  #order: Entry[] = [];
  #nextSeq = 0;
  #snapshot: ConversationList | undefined;
  /** True once the list was fetched from the server on this connection. */
  loaded = false;
  /** How many times a list from the server replaced the whole list. */
  replacements = 0;

  /** The conversation of `ref`, if listed. */
  get(ref: ConversationRef): Conversation | undefined {
    return this.#byKey.get(keyOf(ref))?.conversation;
  }

  /** Replaces the whole list (from the server). */
  replaceAll(conversations: readonly Conversation[]): void {
    this.#byKey.clear();
    for (const conversation of conversations) {
      const last = conversation.lastMessage;
      this.#set(keyOf(refOf(conversation)), conversation, false).counted =
        last.status === 'success' ? last.timestamp : 0;
    }
    this.#order = [...this.#byKey.values()].sort(byRank);
    this.replacements += 1;
    this.#changed();
  }

  /** Adds or replaces one conversation. */
  put(conversation: Conversation): void {
    this.#set(keyOf(refOf(conversation)), conversation, true);
    this.#changed();
  }

  /** Changes one conversation, if listed; returns whether it was. */
  update(ref: ConversationRef, change: (c: Conversation) => Conversation): boolean {
    const key = keyOf(ref);
    const entry = this.#byKey.get(key);
    if (!entry) return false;
    this.#set(key, change(entry.conversation), true);
    this.#changed();
    return true;
  }

  /**
   * The newest time a listed conversation's unread count took in as the server counted it (see {@link Entry.counted});
   * 0 when not listed.
   */
  countedThrough(ref: ConversationRef): number {
    return this.#byKey.get(keyOf(ref))?.counted ?? 0;
  }

  /** A listed conversation's unread count was made afresh from the server's messages up to `time`. */
  countedUpTo(ref: ConversationRef, time: number): void {
    const entry = this.#byKey.get(keyOf(ref));
    if (entry && time > entry.counted) entry.counted = time;
  }

  /** Removes one conversation; returns whether it was listed. */
  remove(ref: ConversationRef): boolean {
    const key = keyOf(ref);
    const entry = this.#byKey.get(key);
    if (!entry) return false;
    this.#byKey.delete(key);
    this.#order.splice(this.#indexOf(entry), 1);
    this.#changed();
    return true;
  }

  /** The sorted list and unread total, the same object until something changes. */
  snapshot(): ConversationList {
    if (!this.#snapshot) {
      const conversations = this.#order.map((entry) => entry.conversation);
      const unreadTotal = conversations.reduce((sum, c) => sum + c.unread, 0);
      this.#snapshot = { unreadTotal, conversations };
    }
    return this.#snapshot;
  }

  /** Forgets everything (on disconnect). */
  clear(): void {
    this.#byKey.clear();
    this.#order = [];
    this.loaded = false;
    this.#changed();
  }

  /** Lists `conversation` under `key`, in its place in the order when `place` (else the caller sorts). */
  #set(key: string, conversation: Conversation, place: boolean): Entry {
    let entry = this.#byKey.get(key);
    if (entry) {
      if (place) this.#order.splice(this.#indexOf(entry), 1);
      entry.conversation = conversation;
    } else {
      entry = { key, seq: this.#nextSeq++, conversation, counted: 0 };
      this.#byKey.set(key, entry);
    }
    if (place) this.#order.splice(this.#insertionPoint(entry), 0, entry);
    return entry;
  }

  /** Where `entry` is in the order (it is there: ranks are unique). */
  #indexOf(entry: Entry): number {
    const at = this.#insertionPoint(entry);
    return this.#order[at] === entry ? at : this.#order.indexOf(entry);
  }

  /** The first position whose entry does not rank before `entry`. */
  #insertionPoint(entry: Entry): number {
    let low = 0;
    let high = this.#order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (byRank(this.#order[mid] as Entry, entry) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  #changed(): void {
    this.#snapshot = undefined;
    // Keep memory bounded: conversations beyond the list's size are dropped, the lowest ranked first.
    while (this.#order.length > LIMITS.conversationListMax) {
      const dropped = this.#order.pop() as Entry;
      this.#byKey.delete(dropped.key);
    }
  }
}

/** List order: {@link compare}, then the order in which the keys were first listed. */
function byRank(a: Entry, b: Entry): number {
  return compare(a.conversation, b.conversation) || a.seq - b.seq;
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
