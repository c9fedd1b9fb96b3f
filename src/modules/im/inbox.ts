import {
  CLIENT_NOTICES,
  SERVER_PUSHES,
  readWireImMessage,
  type WireConversationChanged,
  type WireMessageDeleted,
  type WireMessageRead,
  type WireMessageRecalled,
  type WirePresenceBody,
  wantsImAck,
} from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import { deliverCs } from './cs-inbox.js';
import { fromWire, recalledBy, sceneOf } from './message.js';
import type { ImState } from './state.js';
import {
  conversationOf,
  type ConversationRef,
  type GroupPresenceEvent,
  type Message,
  type UserPresenceEvent,
} from './types.js';

/** How {@link deliver} records: one object for every message, not one each. */
const INCOMING = { incoming: true } as const;

/**
 * Delivers a message that arrived (by push, or fetched after a reconnect): into its cache and the conversation
 * list, the sender's read offset moved to it, and the received event fired. The caller has de-duplicated it.
 */
export function deliver(state: ImState, message: Message, cache = state.cacheOf(message)): void {
  if (message.scene === 'cs') return deliverCs(state, message);
  state.record(message, INCOMING, cache);
  // Sent from another of my devices: sending read everything before it there (IM-7), so here too.
  if (message.senderId === state.me.id) state.readUpTo(conversationOf(message, state.me.id), message.timestamp);
  else if (message.scene === 'private') {
    // A user who writes has read what came before: the reference marks my earlier messages read by them.
    const ref: ConversationRef = { type: 'private', id: message.senderId };
    state.cache(ref).advanceOffset(message.senderId, message.timestamp);
    const read = state.markSentRead(ref, message.timestamp);
    if (read.length > 0) state.events.emit('MESSAGE_READ', read);
  }
  if (message.scene === 'private') state.events.emit('PRIVATE_MESSAGE_RECEIVED', message);
  else state.events.emit('GROUP_MESSAGE_RECEIVED', message);
  state.emitConversations();
}

/**
 * A pushed message, as it reaches the state (at once, or after a re-sync held it): delivered unless this client has
 * it already. One that a history page brought before its push (IM-8, across nodes) arrives now, as the page left it.
 */
export function arrived(state: ImState, message: Message, cache = state.cacheOf(message)): void {
  if (!state.known(message, cache)) return deliver(state, message, cache);
  if (!state.pagedFirst(message, cache)) return;
  const [paged] = cache.remove([message.messageId]);
  deliver(state, paged ?? message, cache);
}

/** Applies another user's or my other device's read mark. */
export function applyRead(state: ImState, ref: ConversationRef, markerId: string, time: number): void {
  const cache = state.cache(ref);
  cache.advanceOffset(markerId, time);
  if (markerId !== state.me.id) {
    const read = state.markSentRead(ref, time);
    if (read.length > 0) state.events.emit('MESSAGE_READ', read);
    return;
  }
  if (!state.conversations.get(ref)) return;
  state.readUpTo(ref, time);
  state.emitConversations();
}

/**
 * Removes messages I deleted (on another device) from the cache. The returned promise settles once the conversation
 * list is fixed, when that needed the server (see {@link ImState.dropped}).
 */
export async function applyDeleted(state: ImState, ref: ConversationRef, times: readonly number[]): Promise<void> {
  const cache = state.cache(ref);
  cache.deleted(times);
  const removed = cache.remove(cache.findByTimes(times).map((m) => m.messageId));
  if (removed.length === 0) return;
  const settling = state.dropped(ref, removed);
  state.events.emit('MESSAGE_DELETED', removed);
  state.emitConversations();
  if (!settling) return;
  await settling;
  state.emitConversations();
}

/** Marks cached messages recalled. */
export function applyRecalled(
  state: ImState,
  ref: ConversationRef,
  recaller: { id: string; data?: unknown },
  times: readonly number[],
): void {
  const me = state.me.id;
  const cache = state.cache(ref);
  const wanted = new Set(times);
  const offset = cache.offsets.get(me) ?? 0;
  const who = { id: String(recaller.id), data: (recaller.data ?? {}) as Record<string, unknown> };
  const recalled = cache.update((m) =>
    wanted.has(m.timestamp) && m.status === 'success' && !m.recalled ? recalledBy(m, who) : undefined,
  );
  // Older than the cache holds: another's message newer than my read offset was counted unread by the list (a
  // client that loaded it holds only each conversation's last message). One recall is pushed once.
  const oldest = cache.oldestSuccessTime() || Infinity;
  const uncached = who.id === me ? 0 : times.filter((t) => t < oldest && t > offset && !cache.wasDeleted(t)).length;
  if (recalled.length === 0 && uncached === 0) return;
  const wasUnread = recalled.filter((m) => m.senderId !== me && m.timestamp > offset).length + uncached;
  // When the cache holds everything after my read offset up to what the list's count took in, the count is made
  // again from it: a list answered after the recall (its push came later, from another node) counted it already.
  const exact =
    cache.oldestSuccessTime() <= offset && cache.newestSuccessTime() >= state.conversations.countedThrough(ref);
  state.conversations.update(ref, (c) => ({
    ...c,
    unread: exact ? state.countUnread(ref) : Math.max(0, c.unread - wasUnread),
  }));
  if (recalled.length > 0) {
    state.refreshLast(ref);
    state.events.emit('MESSAGE_RECALLED', recalled);
  }
  state.emitConversations();
}

/**
 * IM-32: a pin, unpin or removal made on another device of mine, made here too (and again after a list load on its
 * way, whose answer may be older), with `CONVERSATIONS_UPDATED` when the list changed.
 */
function applyConversationChange(state: ImState, ref: ConversationRef, change: Partial<WireConversationChanged>): void {
  let changed = false;
  state.redoAfterLoads(() => {
    if (change.removed === true) changed = state.conversations.remove(ref) || changed;
    else if (typeof change.top === 'boolean' && state.conversations.get(ref)?.top === !change.top) {
      const top = change.top;
      changed = state.conversations.update(ref, (c) => ({ ...c, top })) || changed;
    }
  });
  if (changed) state.emitConversations();
}

/** Applies a pushed change now, or, while a re-sync holds pushed messages back, after those that came before it. */
function afterHeld(state: ImState, apply: () => void): void {
  if (state.held) state.held.push(apply);
  else {
    state.pushedChange();
    apply();
  }
}

function parseJsonObject(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text === '')
    return typeof text === 'object' && text !== null ? (text as Record<string, unknown>) : {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The conversation a read, delete or recall push is about, from my point of view. */
function refFor(scene: unknown, other: string): ConversationRef | undefined {
  if (scene === 'private' || scene === 'group') return { type: scene, id: other };
  return undefined;
}

/**
 * The customer-service conversation a read mark is about (CS-8, IMC-14). The server tells only the marker's other
 * devices, so the mark is mine: a customer's names the team, an agent's the customer, with the team beside it.
 */
function csReadRef(read: Partial<WireMessageRead>, me: string): ConversationRef | undefined {
  if (read.markerId !== me) return undefined;
  const id = String(read.targetId);
  return { type: 'cs', id, teamId: read.teamId === undefined ? id : String(read.teamId) };
}

/**
 * Wires the IM pushes of the connection into the state. Customer-service messages go to `onCsMessage` unparsed
 * (cs-agent.ts): one listener for every pushed message, which each member of a busy group gets.
 */
export function listenToPushes(connection: Connection, state: ImState, onCsMessage: (payload: unknown) => void): void {
  const pushes = connection.pushes;
  // Whether to imAck, worked out once per authorize reply rather than read out of it for every message.
  let ackFor: object | undefined;
  let ack = true;
  pushes.on(SERVER_PUSHES.imMessage, (payload) => {
    if (sceneOf(payload) === 'cs') return onCsMessage(payload);
    const wire = readWireImMessage(payload);
    if (!wire || wire.t === 'cs') return;
    const moduleData = connection.moduleData;
    if (moduleData !== ackFor) {
      ackFor = moduleData;
      ack = wantsImAck(moduleData);
    }
    if (ack) connection.notify(CLIENT_NOTICES.imAck, { publishGuid: wire.i });
    if (!state.recent.add(wire.i)) return;
    const message = fromWire(wire, state.senderData);
    if (state.held) {
      state.held.push(message);
      return;
    }
    arrived(state, message);
  });
  pushes.on(SERVER_PUSHES.messageRead, (payload) => {
    const read = payload as Partial<WireMessageRead>;
    if (typeof read.markerId !== 'string' || typeof read.time !== 'number' || read.targetId === undefined) return;
    const me = state.me.id;
    const other =
      read.scene === 'private' ? (read.markerId === me ? String(read.targetId) : read.markerId) : String(read.targetId);
    const ref = read.scene === 'cs' ? csReadRef(read, me) : refFor(read.scene, other);
    if (ref) afterHeld(state, () => applyRead(state, ref, read.markerId as string, read.time as number));
  });
  pushes.on(SERVER_PUSHES.messageDeleted, (payload) => {
    const deleted = payload as Partial<WireMessageDeleted>;
    if (deleted.deleterId !== state.me.id || !Array.isArray(deleted.times) || deleted.targetId === undefined) return;
    const ref = refFor(deleted.scene, String(deleted.targetId));
    // Pushes are not awaited: a conversation left empty settles once the server names its newest message.
    const times = deleted.times;
    if (ref) afterHeld(state, () => void applyDeleted(state, ref, times));
  });
  pushes.on(SERVER_PUSHES.conversationChanged, (payload) => {
    const change = payload as Partial<WireConversationChanged>;
    if (change.targetId === undefined) return;
    const id = String(change.targetId);
    const ref: ConversationRef | undefined =
      change.type === 'cs'
        ? { type: 'cs', id, teamId: change.teamId === undefined ? id : String(change.teamId) }
        : refFor(change.type, id);
    if (ref) afterHeld(state, () => applyConversationChange(state, ref, change));
  });
  pushes.on(SERVER_PUSHES.messageRecalled, (payload) => {
    const recalled = payload as Partial<WireMessageRecalled>;
    if (!recalled.recaller || !Array.isArray(recalled.times) || typeof recalled.conversationId !== 'string') return;
    const me = state.me.id;
    const id =
      recalled.scene === 'private'
        ? (recalled.conversationId.split(':').find((part) => part !== me) ?? me)
        : recalled.conversationId;
    const ref = refFor(recalled.scene, id);
    const { recaller, times } = recalled;
    if (ref) afterHeld(state, () => applyRecalled(state, ref, recaller, times));
  });
  pushes.on(SERVER_PUSHES.userPresence, (payload) => {
    const body = parseJsonObject((payload as { c?: unknown })?.c) as Partial<WirePresenceBody>;
    for (const e of body.events ?? []) {
      const event: UserPresenceEvent = {
        time: e.time,
        action: e.action === 'offline' ? 'offline' : 'online',
        id: String(e.userId),
        data: parseJsonObject(e.userData),
      };
      state.events.emit('USER_PRESENCE', event);
    }
  });
  pushes.on(SERVER_PUSHES.groupPresence, (payload) => {
    const body = parseJsonObject((payload as { c?: unknown })?.c) as Partial<WirePresenceBody>;
    for (const e of body.events ?? []) {
      const event: GroupPresenceEvent = {
        time: e.time,
        action: e.action,
        groupId: String(body.groupId),
        groupOnlineCount: Number(body.userAmount ?? 0),
        id: String(e.userId),
        data: parseJsonObject(e.userData),
      };
      state.events.emit('GROUP_PRESENCE', event);
    }
  });
}
