import { LIMITS, type WireConversation } from '../../protocol/index.js';
import { csConversation } from './cs-message.js';
import { fromWire, parseObject, readByOther } from './message.js';
import { applyDeleted, applyRead, applyRecalled, arrived, deliver } from './inbox.js';
import type { ImState } from './state.js';
import { conversationOf, keyOf, type ConversationRef, type Message } from './types.js';
import type { ImWire } from './wire.js';

/** Fetches the conversation list and makes it the local one. */
export function loadConversations(state: ImState, wire: ImWire): Promise<void> {
  return state.loadingList(async () => replaceList(state, await wire.conversations()));
}

function replaceList(state: ImState, items: readonly WireConversation[]): void {
  const me = state.me.id;
  const conversations = items.map((item) => {
    const received = fromWire({ ...item.lmsg, t: item.t });
    const ref = conversationOf(received, me);
    const cache = state.cache(ref);
    const listedMine = item.userOffsets?.find((o) => String(o.userId) === me)?.offset ?? 0;
    for (const o of item.userOffsets ?? []) cache.advanceOffset(o.userId, o.offset);
    // My last private message is read when the other side's offset covers it, as history marks it (IMC-6).
    const lastMessage =
      received.scene === 'private' && received.senderId === me && received.timestamp <= (cache.offsets.get(ref.id) ?? 0)
        ? readByOther(received)
        : received;
    // Not one deleted here or on another device since the server made this answer: the list is asked for again.
    if (cache.size === 0 && !cache.wasDeleted(lastMessage.timestamp)) cache.put(lastMessage);
    const data = parseObject(item.d);
    const unread = unreadOf(state, ref, item.unread, listedMine, lastMessage);
    const base = { data, unread, lastMessage, top: item.top === true };
    if (ref.type === 'cs') return csConversation(ref, base, me);
    return ref.type === 'group'
      ? { ...base, type: 'group' as const, groupId: ref.id }
      : { ...base, type: 'private' as const, userId: ref.id };
  });
  state.conversations.replaceAll(conversations);
  state.conversations.loaded = true;
  state.emitConversations();
}

/**
 * A listed conversation's unread count. The server counted up to its read offset of me (`listedMine`); a read mark of
 * mine that reached this client since (from another device, while the list was on its way) makes the count smaller:
 * none when it covers the last message, else what the cache counts, when it holds everything after the mark.
 */
function unreadOf(
  state: ImState,
  ref: ConversationRef,
  listed: number | undefined,
  listedMine: number,
  lastMessage: Message,
): number {
  if (typeof listed !== 'number') return state.countUnread(ref);
  const cache = state.cache(ref);
  const mine = cache.offsets.get(state.me.id) ?? 0;
  if (listed === 0 || mine <= listedMine) return listed;
  if (mine >= lastMessage.timestamp) return 0;
  return cache.size > 0 && cache.oldestSuccessTime() <= mine ? Math.min(listed, state.countUnread(ref)) : listed;
}

/** Most missed messages fetched per conversation after a reconnect; older ones stay in the server's history. */
const RESYNC_MAX_MESSAGES = 1000;

/**
 * Messages newer than `after`, oldest first, paging back from the newest. `gap` is true when more than
 * {@link RESYNC_MAX_MESSAGES} arrived: the cache cannot be bridged and starts again from the newest window.
 */
async function fetchNewer(
  wire: ImWire,
  ref: ConversationRef,
  after: number,
): Promise<{ messages: Message[]; gap: boolean }> {
  const collected: Message[] = [];
  let before: number | undefined;
  for (;;) {
    const { messages } = await wire.history(ref, before, LIMITS.historyMaxLimit);
    const newer = messages.filter((m) => m.timestamp > after);
    collected.unshift(...newer);
    const reached = newer.length < messages.length || messages.length < LIMITS.historyMaxLimit;
    if (reached) return { messages: collected, gap: false };
    if (collected.length >= RESYNC_MAX_MESSAGES) return { messages: collected, gap: true };
    before = messages[0]?.timestamp;
  }
}

/** Brings one cached conversation up to date: missed messages, then read marks, deletions and recalls. */
async function resyncConversation(state: ImState, wire: ImWire, ref: ConversationRef, mark?: number): Promise<void> {
  const cache = state.cache(ref);
  const after = mark ?? cache.newestSuccessTime();
  if (after === 0) return;
  const min = cache.oldestSuccessTime();
  const fresh = await fetchNewer(wire, ref, after);
  if (fresh.gap) cache.reset();
  for (const message of fresh.messages) {
    if (state.known(message)) continue;
    state.recent.add(message.messageId);
    deliver(state, message);
  }
  const changes = await wire.changes(ref, after, min);
  for (const o of changes.userOffsets) applyRead(state, ref, String(o.userId), o.offset);
  if (changes.deletedMessageTimes.length > 0) await applyDeleted(state, ref, changes.deletedMessageTimes);
  for (const r of changes.recalledMessages) applyRecalled(state, ref, r.recaller, r.times);
}

/**
 * After a reconnect: fetch what each cached conversation missed while the link was down, then the conversation
 * list again for exact unread counts. Runs one at a time; a failure leaves the rest for the next reconnect.
 */
export function resync(state: ImState, wire: ImWire): Promise<void> {
  state.held ??= [];
  const marks = state.marks ?? new Map<string, number>();
  state.marks = undefined;
  state.syncing = state.syncing.then(async () => {
    let synced = false;
    try {
      for (const { ref } of state.cached()) await resyncConversation(state, wire, ref, marks.get(keyOf(ref)));
      synced = true;
    } catch {
      // The connection dropped again or the server refused: the next reconnect runs the re-sync again.
    } finally {
      // Nothing is held once a disconnect cleared the state.
      const held = state.held ?? [];
      state.held = undefined;
      for (const entry of held) {
        if (typeof entry === 'function') entry();
        else arrived(state, entry);
      }
    }
    // Last, the list as the server counts it now, with everything above: what the pushes and the missed messages
    // added on top of the list held before is replaced by exact counts (what comes meanwhile: loadingList).
    if (synced && state.conversations.loaded) await loadConversations(state, wire).catch(() => undefined);
  });
  return state.syncing;
}
