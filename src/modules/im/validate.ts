import { LIMITS } from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import { conversationOf, type ConversationRef, type Message } from './types.js';

/** Checks an id array (product spec §5): non-empty, no blanks, no duplicates, at most 300; returns strings. */
export function validateIds(ids: unknown): string[] {
  if (!Array.isArray(ids) || ids.length === 0) throw ParleyError.badRequest('idArrayEmpty');
  if (ids.length > LIMITS.idArrayMax) throw ParleyError.badRequest('idArrayTooLong');
  const strings = ids.map((id: unknown) => (typeof id === 'string' || typeof id === 'number' ? String(id).trim() : ''));
  if (strings.some((id) => id === '')) throw ParleyError.badRequest('idArrayBlankItem');
  if (new Set(strings).size !== strings.length) throw ParleyError.badRequest('idArrayDuplicate');
  return strings;
}

/**
 * A history page's size: a number is rounded down into 1..30; anything else (absent, or not a finite number) is the
 * default, 10.
 */
export function historyLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return LIMITS.historyDefaultLimit;
  return Math.min(LIMITS.historyMaxLimit, Math.max(1, Math.floor(limit)));
}

/** Checks one id; `key` names the message for an empty one. */
export function validateId(id: unknown, key: 'userIdEmpty' | 'groupIdEmpty' | 'idEmpty'): string {
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') throw ParleyError.badRequest(key);
  return String(id);
}

/** Checks a conversation reference `{type, id}` as history and mark-as-read take it; a customer names the team. */
export function validateRef(options: unknown): ConversationRef {
  const { type, id } = (options ?? {}) as { type?: unknown; id?: unknown };
  if (type === 'cs') {
    const teamId = validateId(id, 'idEmpty');
    return { type, id: teamId, teamId };
  }
  if (type !== 'private' && type !== 'group') throw ParleyError.badRequest('sceneNotSupported');
  return { type, id: validateId(id, 'idEmpty') };
}

/** Checks a conversation object as the list returns it; returns its reference. */
export function validateConversation(conversation: unknown): ConversationRef {
  const c = conversation as { type?: unknown; userId?: unknown; groupId?: unknown } | null | undefined;
  if (typeof c !== 'object' || c === null) throw ParleyError.badRequest('incorrectConversation');
  if (c.type === 'private' && c.userId !== undefined)
    return { type: 'private', id: validateId(c.userId, 'userIdEmpty') };
  if (c.type === 'group' && c.groupId !== undefined)
    return { type: 'group', id: validateId(c.groupId, 'groupIdEmpty') };
  const cs = c as { id?: unknown; teamId?: unknown };
  if (c.type === 'cs' && cs.id !== undefined) {
    const id = validateId(cs.id, 'idEmpty');
    return { type: 'cs', id, teamId: cs.teamId === undefined ? id : validateId(cs.teamId, 'idEmpty') };
  }
  throw ParleyError.badRequest('incorrectConversation');
}

/** Checks a batch for recall or delete: non-empty, at most 20, one conversation. Returns that conversation. */
export function validateBatch(
  messages: unknown,
  me: string,
  csKey: 'recallCs' | 'deleteCs',
): { list: Message[]; ref: ConversationRef } {
  if (!Array.isArray(messages) || messages.length === 0) throw ParleyError.badRequest('messagesEmpty');
  if (messages.length > LIMITS.batchMaxMessages) throw ParleyError.badRequest('tooManyMessages');
  const list = messages as Message[];
  for (const m of list) {
    if (typeof m !== 'object' || m === null || typeof m.messageId !== 'string') {
      throw ParleyError.badRequest('messagesEmpty');
    }
    if ((m as { scene?: unknown }).scene === 'cs') throw ParleyError.badRequest(csKey);
  }
  const refs = new Set(list.map((m) => JSON.stringify(conversationOf(m, me))));
  if (refs.size > 1) throw ParleyError.badRequest('oneConversation');
  return { list, ref: conversationOf(list[0] as Message, me) };
}
