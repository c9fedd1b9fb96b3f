import { LIMITS, type UserOffset } from '../../protocol/index.js';
import { TypedEmitter } from '../../core/emitter.js';
import { ConversationStore, newConversation } from './conversations.js';
import { HistoryCache } from './history-cache.js';
import { parseObject, readByOther } from './message.js';
import { RecentIds } from '../../core/recent-ids.js';
import { conversationOf, idKeyOf, keyOf, type ConversationRef, type ImEvents, type Message } from './types.js';

/** The user this IM session runs as. */
export interface Me {
  id: string;
  data: Record<string, unknown>;
}

/**
 * Everything the IM module knows locally: the history caches, the conversation list and the recent push ids.
 * The API, the push handlers and the re-sync all change it through these methods, so that caches, unread counts
 * and events stay consistent.
 */
export class ImState {
  readonly events = new TypedEmitter<ImEvents>();
  readonly conversations = new ConversationStore();
  readonly recent = new RecentIds(LIMITS.dedupeWindow);
  /** History caches by conversation type, then by {@link idKeyOf}: a push finds its cache without building a key. */
  readonly #caches = new Map<ConversationRef['type'], Map<string, HistoryCache>>();
  /** Pushed senders' user data as last seen: its text and the object parsed from it. */
  readonly #senders = new Map<string, { raw: string; data: Record<string, unknown> }>();
  readonly #me: () => Me;
  /**
   * For each list load on its way, in order, the messages recorded and the changes made here since it was asked for
   * ({@link loadingList}, {@link redoAfterLoads}).
   */
  readonly #loading = new Set<Array<Message | (() => void)>>();
  /** The list loads on their way during which a read mark, a recall or a deletion was pushed ({@link pushedChange}). */
  readonly #pushedDuring = new Set<Array<Message | (() => void)>>();
  /**
   * Ids of messages a history page brought into an empty cache before this client heard of them: their pushes may
   * still come (from another node), and are then their arrival ({@link pagedFirst}). The latest 300 are kept.
   */
  readonly #paged = new Set<string>();
  /** Pinned conversations that left the list with no message left, by key ({@link dropped}). */
  readonly #emptied = new Map<string, boolean>();
  /** The re-sync under way, so that two never run at once. */
  syncing: Promise<void> = Promise.resolve();
  /**
   * Pushed messages held back while a re-sync fetches what was missed, so that events fire in conversation
   * order: the missed ones first, then these; with them, in the order they came, the read marks, deletions and
   * recalls pushed meanwhile, which may be about them. `undefined` when no re-sync is running.
   */
  held: Array<Message | (() => void)> | undefined;
  /**
   * The newest acknowledged time of each cached conversation when the link went down: what the re-sync fetches
   * after. Taken at the loss, because messages the server replays on reconnect would otherwise hide the gap.
   */
  marks: Map<string, number> | undefined;

  /** The link went down: remember where each conversation stood, and hold pushes until the re-sync ran. */
  beginOutage(): void {
    if (this.marks) return;
    this.marks = new Map(this.cached().map(({ ref, cache }) => [keyOf(ref), cache.newestSuccessTime()]));
    this.held ??= [];
  }
  /** Asks the server for a new conversation's data; the state fills it in when it arrives. */
  fetchData: ((ref: ConversationRef) => Promise<Record<string, unknown>>) | undefined;
  /** Asks the server for a conversation's newest messages I still have and its read offsets (one history page). */
  fetchPage:
    ((ref: ConversationRef, limit: number) => Promise<{ messages: Message[]; offsets: UserOffset[] }>) | undefined;

  constructor(me: () => Me) {
    this.#me = me;
  }

  /** The connected user. */
  get me(): Me {
    return this.#me();
  }

  /** The history cache of a conversation, created on first use. */
  cache(ref: ConversationRef): HistoryCache {
    return this.#cacheIn(ref.type, idKeyOf(ref));
  }

  /** The history cache of the conversation `message` belongs to. */
  cacheOf(message: Message): HistoryCache {
    // The group case first and without a ref: every member of a busy group runs this for every message.
    if (message.scene === 'group') return this.#cacheIn('group', message.groupId);
    return this.cache(conversationOf(message, this.me.id));
  }

  /** Every cached conversation. */
  cached(): Array<{ ref: ConversationRef; cache: HistoryCache }> {
    const all: Array<{ ref: ConversationRef; cache: HistoryCache }> = [];
    for (const [type, caches] of this.#caches) {
      for (const [key, cache] of caches) {
        if (type === 'cs') {
          const [teamId, id] = JSON.parse(key) as [string, string];
          all.push({ ref: { type, id, teamId }, cache });
        } else all.push({ ref: { type, id: key }, cache });
      }
    }
    return all;
  }

  /**
   * A pushed sender's user data (`d`), parsed once while it stays the same: the members of a group get the
   * sender's data with each of its messages. An arrow, so that it can be handed to `fromWire`.
   */
  readonly senderData = (senderId: string, raw: string | null | undefined): Record<string, unknown> => {
    if (typeof raw !== 'string') return parseObject(raw);
    const known = this.#senders.get(senderId);
    if (known?.raw === raw) return known.data;
    const data = parseObject(raw);
    this.#senders.set(senderId, { raw, data });
    if (this.#senders.size > SENDERS_KEPT) this.#senders.delete(this.#senders.keys().next().value as string);
    return data;
  };

  #cacheIn(type: ConversationRef['type'], key: string): HistoryCache {
    let caches = this.#caches.get(type);
    if (!caches) {
      caches = new Map();
      this.#caches.set(type, caches);
    }
    let cache = caches.get(key);
    if (!cache) {
      cache = new HistoryCache(LIMITS.conversationCacheMessages);
      caches.set(key, cache);
    }
    return cache;
  }

  /**
   * Whether a message was already delivered, or must not be: it is in its conversation's cache, I deleted it, or it
   * is older than everything the cache holds. The cache is the newest contiguous window, so anything older was
   * delivered before (or is history, which fires no event).
   */
  known(message: Message, cache: HistoryCache = this.cacheOf(message)): boolean {
    if (cache.holds(message)) return true;
    // Deleted here or on another device while a copy was on its way (IMC-7): it stays deleted.
    if (message.status === 'success' && cache.wasDeleted(message.timestamp)) return true;
    // A push is usually the newest: then the oldest held (cold by now) need not be read.
    const ts = message.timestamp;
    return cache.size > 0 && ts < cache.newestSuccessTime() && ts < cache.oldestSuccessTime();
  }

  /**
   * Records a message (sent, being sent, received or fetched) in its cache and the conversation list. `incoming`
   * counts it as unread when it is someone else's and newer than my read offset. `data` is the conversation data
   * when known (the target's, for a message I send). The message is not held yet: {@link known} said so, or it is
   * one I just created.
   */
  record(
    message: Message,
    options: { incoming: boolean; data?: Record<string, unknown> },
    cache: HistoryCache = this.cacheOf(message),
  ): void {
    cache.add(message);
    if (this.#loading.size > 0) for (const during of this.#loading) during.push(message);
    // Until the list is loaded there is nothing more to do: not even asking who I am, which every member of a busy
    // group would do for every message.
    if (!this.conversations.loaded) return;
    this.#list(message, options, cache);
  }

  /**
   * Runs `load`, which asks the server for the conversation list and makes it the local one, then lists again the
   * messages being sent or recorded meanwhile that its answer did not know: stored, or arrived, after the server had
   * counted. A send of mine among them reads what came before it (IM-7).
   */
  async loadingList(load: () => Promise<void>): Promise<void> {
    // Messages on their way to the server as the list is asked for may be stored after it counted, too.
    const during: Array<Message | (() => void)> = [];
    for (const { cache } of this.cached()) {
      for (const m of cache.unsent()) if (m.status === 'sending') during.push(m);
    }
    this.#loading.add(during);
    try {
      // A read mark, recall or deletion pushed while the list is on its way may or may not be in its counts: the
      // list is asked for again (twice at most), so that the one kept was made after.
      for (let attempt = 0; ; attempt++) {
        this.#pushedDuring.delete(during);
        await load();
        if (!this.#pushedDuring.has(during) || attempt === 2) break;
      }
    } finally {
      this.#loading.delete(during);
      this.#pushedDuring.delete(during);
    }
    if (during.length === 0 || !this.conversations.loaded) return;
    const me = this.me.id;
    for (const message of during) {
      if (typeof message === 'function') {
        message();
        continue;
      }
      const ref = conversationOf(message, me);
      const cache = this.cache(ref);
      // As the cache has it now: acknowledged, recalled, or gone (deleted).
      const current = cache.all().find((m) => m.messageId === message.messageId);
      const listed = this.conversations.get(ref)?.lastMessage;
      if (!current || listed?.messageId === current.messageId || this.#counted(ref, current)) continue;
      this.#list(current, { incoming: current.senderId !== me }, cache);
      if (current.senderId === me && current.status === 'success') this.readUpTo(ref, current.timestamp);
    }
    this.emitConversations();
  }

  /** A read mark, recall or deletion was pushed: a list on its way may be older than it ({@link loadingList}). */
  pushedChange(): void {
    for (const during of this.#loading) this.#pushedDuring.add(during);
  }

  /**
   * Makes `change` to the list now, and again after each list load on its way: their answers may have been made
   * before the server took the change (a removal, a pin, leaving a group, a deletion).
   */
  redoAfterLoads(change: () => void): void {
    change();
    for (const during of this.#loading) during.push(change);
  }

  /** The list's side of {@link record}. */
  #list(message: Message, options: { incoming: boolean; data?: Record<string, unknown> }, cache: HistoryCache): void {
    const me = this.me.id;
    const unread =
      options.incoming &&
      message.senderId !== me &&
      !message.recalled &&
      message.timestamp > (cache.offsets.get(me) ?? 0)
        ? 1
        : 0;
    const ref = conversationOf(message, me);
    // A list loaded from the server counts what it shows up to its last message, whose push may come after it; a
    // message pushed after a newer one (stored in this order on two nodes) is not among those.
    const counted = unread > 0 && this.#counted(ref, message);
    const updated = this.conversations.update(ref, (c) => ({
      ...c,
      ...(options.data ? { data: options.data } : {}),
      lastMessage: isNewer(message, c.lastMessage) ? message : c.lastMessage,
      unread: c.unread + (counted ? 0 : unread),
    }));
    if (!updated) {
      // A conversation coming back after `removeConversation` still has what was unread in it, as the server counts
      // (IM-16, IM-18): removing hides it, it does not read it.
      const count = unread > 0 ? Math.max(unread, this.countUnread(ref)) : unread;
      // One left without messages keeps its row, pinned or not, on the server (IM-16): it comes back as it was.
      const top = this.#emptied.get(keyOf(ref)) ?? false;
      this.#emptied.delete(keyOf(ref));
      this.conversations.put({ ...newConversation(ref, message, options.data ?? {}), unread: count, top });
      if (!options.data) this.#loadData(ref);
      // Earlier unread messages may be on the server only (a conversation removed before this client started).
      if (unread > 0 && !cache.complete) this.#loadUnread(ref);
    }
  }

  /**
   * A history page from the newest message, taken into a conversation's empty cache: those of its messages that are
   * newer than the listed last one (all of them, when the conversation is not listed) may not have been pushed yet.
   */
  pagedNewest(ref: ConversationRef, messages: readonly Message[]): void {
    const listed = this.conversations.get(ref)?.lastMessage;
    const after = listed?.status === 'success' ? listed.timestamp : -Infinity;
    for (const m of messages) {
      if (m.status !== 'success' || m.timestamp <= after) continue;
      this.#paged.add(m.messageId);
      if (this.#paged.size > LIMITS.dedupeWindow) this.#paged.delete(this.#paged.values().next().value as string);
    }
  }

  /**
   * Whether a pushed message the cache holds got there by a history page before any push of it ({@link pagedNewest}):
   * the push is then its arrival, which the page did not make (no event, not on the list). Asked once per push.
   */
  pagedFirst(message: Message, cache: HistoryCache): boolean {
    return this.#paged.delete(message.messageId) && cache.holds(message);
  }

  /** Replaces a message in its cache (status, timestamp, recall) and in the list if it is the last one. */
  replace(message: Message): void {
    const ref = conversationOf(message, this.me.id);
    this.cache(ref).put(message);
    this.conversations.update(ref, (c) =>
      c.lastMessage.messageId === message.messageId || isNewer(message, c.lastMessage)
        ? { ...c, lastMessage: message }
        : c,
    );
  }

  /** After messages left a cache: the conversation's last message becomes the newest one still held. */
  refreshLast(ref: ConversationRef): void {
    const last = this.cache(ref).last();
    this.conversations.update(ref, (c) => (last ? { ...c, lastMessage: last } : c));
  }

  /**
   * Messages I deleted (here or on another device) left a conversation's cache: its unread count drops by those of
   * them it counted, and its last message becomes the newest one left. With none left it leaves the list, as the
   * server lists no conversation without a message to show (IM-16), unless older ones may be on the server only:
   * then the newest of those is asked for, and the promise returned settles once the list is fixed.
   */
  dropped(ref: ConversationRef, removed: readonly Message[]): Promise<void> | undefined {
    if (removed.length > 0 && this.#loading.size > 0) {
      // A list on its way may show one of them last: it is fixed again once that list is in.
      const ids = new Set(removed.map((m) => m.messageId));
      const again = () => {
        const listed = this.conversations.get(ref);
        if (listed && ids.has(listed.lastMessage.messageId)) void this.dropped(ref, []);
      };
      for (const during of this.#loading) during.push(again);
    }
    const me = this.me.id;
    const cache = this.cache(ref);
    const offset = cache.offsets.get(me) ?? 0;
    const counted = removed.filter(
      (m) => m.senderId !== me && !m.recalled && m.status === 'success' && m.timestamp > offset,
    ).length;
    const last = cache.last();
    // The newest message of the conversation that reached this client: a newer one the server names is on its way.
    let reached = 0;
    const listed = this.conversations.get(ref)?.lastMessage;
    for (const m of listed ? [listed, ...removed] : removed) {
      if (m.status === 'success' && m.timestamp > reached) reached = m.timestamp;
    }
    this.conversations.update(ref, (c) => ({
      ...c,
      unread: Math.max(0, c.unread - counted),
      ...(last ? { lastMessage: last } : {}),
    }));
    if (last || !this.conversations.get(ref)) return undefined;
    if (cache.complete || !this.fetchPage) {
      this.#empty(ref);
      return undefined;
    }
    return this.fetchPage(ref, 1).then(
      (page) => {
        const [newest] = this.takePage(ref, page);
        if (cache.last()) return this.refreshLast(ref);
        // One newer than what reached this client comes by its push, which fires its event and counts it unread:
        // taken from the page, the push would find it held already and do neither.
        if (newest && newest.timestamp <= reached) {
          cache.prepend([newest], false);
          this.conversations.update(ref, (c) => ({ ...c, lastMessage: newest }));
        } else {
          this.#empty(ref);
        }
      },
      // Unknown (the server did not answer): the list keeps what it had until the next load.
      () => undefined,
    );
  }

  /** A conversation left without messages leaves the list; its pin is remembered for when it comes back. */
  #empty(ref: ConversationRef): void {
    const top = this.conversations.get(ref)?.top ?? false;
    this.conversations.remove(ref);
    const key = keyOf(ref);
    this.#emptied.delete(key);
    if (!top) return;
    this.#emptied.set(key, true);
    for (const oldest of this.#emptied.keys()) {
      if (this.#emptied.size <= LIMITS.conversationListMax) break;
      this.#emptied.delete(oldest);
    }
  }

  /**
   * A page of history from the server, taken in: the read offsets it carries move the cache's forward, and my private
   * messages the other side's offset covers, in the page and in the cache, are read (IMC-6).
   */
  takePage(ref: ConversationRef, page: { messages: Message[]; offsets: readonly UserOffset[] }): Message[] {
    const cache = this.cache(ref);
    for (const o of page.offsets) cache.advanceOffset(String(o.userId), o.offset);
    // A page made before a deletion of mine that reached this client first (from another device) still holds it.
    const messages = page.messages.filter((m) => m.status !== 'success' || !cache.wasDeleted(m.timestamp));
    if (ref.type !== 'private') return messages;
    const me = this.me.id;
    const otherOffset = cache.offsets.get(ref.id) ?? 0;
    // Held ones too: a read mark pushed while this client was away is only known from such a page.
    const read = this.markSentRead(ref, otherOffset);
    if (read.length > 0) this.events.emit('MESSAGE_READ', read);
    return messages.map((m) =>
      m.scene === 'private' && m.senderId === me && m.timestamp <= otherOffset ? readByOther(m) : m,
    );
  }

  /** Marks my sent private messages up to `time` as read by the other user; returns the newly read ones. */
  markSentRead(ref: ConversationRef, time: number): Message[] {
    if (ref.type !== 'private') return [];
    const me = this.me.id;
    return this.cache(ref).update((m) =>
      m.scene === 'private' && m.senderId === me && m.status === 'success' && !m.read && m.timestamp <= time
        ? readByOther(m)
        : undefined,
    );
  }

  /**
   * I have read a conversation up to `time`: a read mark of mine (from any of my devices), or a message I sent, since
   * sending reads everything before it (IM-7). My offset moves and the unread count drops to what is still newer.
   */
  readUpTo(ref: ConversationRef, time: number): void {
    this.cache(ref).advanceOffset(this.me.id, time);
    const c = this.conversations.get(ref);
    if (!c || c.unread === 0) return;
    const unread = this.countUnread(ref);
    if (c.unread > unread) this.conversations.update(ref, (old) => ({ ...old, unread }));
  }

  /** Unread messages in a cached conversation: others', not recalled, newer than my offset. */
  countUnread(ref: ConversationRef): number {
    const cache = this.cache(ref);
    const me = this.me.id;
    return cache.countUnread(cache.offsets.get(me) ?? 0, me);
  }

  /** Emits the conversation list. */
  emitConversations(): void {
    if (this.conversations.loaded) this.events.emit('CONVERSATIONS_UPDATED', this.conversations.snapshot());
  }

  /** Forgets everything (after `disconnect()`). */
  clear(): void {
    this.marks = undefined;
    this.held = undefined;
    this.#caches.clear();
    this.#senders.clear();
    this.#emptied.clear();
    this.#paged.clear();
    this.conversations.clear();
  }

  /**
   * Counts a conversation's unread messages from the server's newest page and the cache together, with my read offset
   * as the server has it: for a conversation that came into the list with messages the cache does not hold.
   */
  #loadUnread(ref: ConversationRef): void {
    const fetchPage = this.fetchPage;
    if (!fetchPage) return;
    const replacements = this.conversations.replacements;
    fetchPage(ref, LIMITS.historyMaxLimit)
      .then((page) => {
        const cache = this.cache(ref);
        const messages = this.takePage(ref, page);
        // A list from the server taken in meanwhile brought the server's own count, which the pushes after its last
        // message keep exact; a conversation it did not know was listed again by the messages that came meanwhile.
        if (this.conversations.replacements !== replacements) return;
        const me = this.me.id;
        const offset = cache.offsets.get(me) ?? 0;
        // The page may hold messages stored after the newest that reached this client (or its list): their pushes
        // are on their way, and each counts itself when it comes.
        const last = this.conversations.get(ref)?.lastMessage;
        const through = Math.max(cache.newestSuccessTime(), last?.status === 'success' ? last.timestamp : 0);
        const byId = new Map<string, Message>();
        for (const m of messages) byId.set(m.messageId, m);
        for (const m of cache.all()) byId.set(m.messageId, m);
        let unread = 0;
        for (const m of byId.values()) {
          const counted = m.status === 'success' && m.timestamp > offset && m.timestamp <= through;
          if (counted && m.senderId !== me && !m.recalled) unread += 1;
        }
        if (this.conversations.update(ref, (c) => ({ ...c, unread }))) {
          this.conversations.countedUpTo(ref, through);
          this.emitConversations();
        }
      })
      .catch(() => undefined);
  }

  /** Whether the listed unread count of `ref` took `message` in already, as the server counted (IMC-6). */
  #counted(ref: ConversationRef, message: Message): boolean {
    return message.status === 'success' && message.timestamp <= this.conversations.countedThrough(ref);
  }

  #loadData(ref: ConversationRef): void {
    const fetchData = this.fetchData;
    if (!fetchData) return;
    fetchData(ref)
      .then((data) => {
        if (this.conversations.update(ref, (c) => ({ ...c, data }))) this.emitConversations();
      })
      .catch(() => undefined);
  }
}

/** Senders whose data {@link ImState.senderData} remembers; the longest unseen goes first. */
const SENDERS_KEPT = 1000;

function isNewer(a: Message, b: Message): boolean {
  if (a.messageId === b.messageId) return true;
  const rank = (m: Message) => (m.status === 'success' ? 0 : 1);
  return rank(a) - rank(b) > 0 || (rank(a) === rank(b) && a.timestamp >= b.timestamp);
}
