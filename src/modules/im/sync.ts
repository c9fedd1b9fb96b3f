import { LIMITS } from '../../protocol/index.js';
import { csConversation } from './cs-message.js';
import { fromWire, readByOther } from './message.js';
import { applyDeleted, applyRead, applyRecalled, deliver } from './inbox.js';
import type { ImState } from './state.js';
import { conversationOf, keyOf, type ConversationRef, type Message } from './types.js';
import type { ImWire } from './wire.js';

/** Fetches the conversation list and makes it the local one. */
export async function loadConversations(state: ImState, wire: ImWire): Promise<void> {
  const items = await wire.conversations();
  const me = state.me.id;
  const conversations = items.map((item) => {
    const received = fromWire({ ...item.lmsg, t: item.t });
    const ref = conversationOf(received, me);
    const cache = state.cache(ref);
    for (const o of item.userOffsets ?? []) cache.advanceOffset(o.userId, o.offset);
    // My last private message is read when the other side's offset covers it, as history marks it (IMC-6).
    const lastMessage =
      received.scene === 'private' && received.senderId === me && received.timestamp <= (cache.offsets.get(ref.id) ?? 0)
        ? readByOther(received)
        : received;
    if (cache.size === 0) cache.put(lastMessage);
    const data = parseObject(item.d);
    const unread = typeof item.unread === 'number' ? item.unread : state.countUnread(ref);
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

function parseObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
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
    try {
      for (const { ref } of state.cached()) await resyncConversation(state, wire, ref, marks.get(keyOf(ref)));
      if (state.conversations.loaded) await loadConversations(state, wire);
    } catch {
      // The connection dropped again or the server refused: the next reconnect runs the re-sync again.
    } finally {
      const held = state.held ?? [];
      state.held = undefined;
      for (const message of held) if (!state.known(message)) deliver(state, message);
    }
  });
  return state.syncing;
}
