import { CS_MESSAGE_TYPES, type CsEventPayload } from '../../protocol/index.js';
import { customerOf, isAcceptedFor } from './cs-message.js';
import type { ImState } from './state.js';
import { conversationOf, type CsMessage } from './types.js';
import { isCsConversationEnded } from '../../protocol/index.js';

const SESSION_EVENTS = {
  [CS_MESSAGE_TYPES.accept]: 'CS_ACCEPTED',
  [CS_MESSAGE_TYPES.end]: 'CS_ENDED',
  [CS_MESSAGE_TYPES.transfer]: 'CS_TRANSFERRED',
} as const;

/** CS-13: fires `CS_ACCEPTED`, `CS_ENDED` or `CS_TRANSFERRED` when the message is one of the session events. */
export function fireSessionEvent(state: ImState, message: CsMessage): void {
  const event = SESSION_EVENTS[message.type as keyof typeof SESSION_EVENTS] as
    (typeof SESSION_EVENTS)[keyof typeof SESSION_EVENTS] | undefined;
  if (event) state.events.emit(event, message);
}

/** An agent's conversation shows `ended` from its last message (CS-5); a customer's has none. */
export function refreshEnded(state: ImState, message: CsMessage): void {
  const me = state.me.id;
  const ref = conversationOf(message, me);
  if (ref.id === ref.teamId) return;
  state.conversations.update(ref, (c) =>
    c.ended === isCsConversationEnded(c.lastMessage, me)
      ? c
      : { ...c, ended: isCsConversationEnded(c.lastMessage, me) },
  );
}

/**
 * Delivers a CS message that arrived (by push, or fetched after a reconnect). The customer gets it in the
 * conversation list and as `CS_MESSAGE_RECEIVED`. An agent keeps it in the list only when it is theirs: they
 * sent it, it hands the customer to them, or the conversation is already theirs; pending messages and what a live
 * session shows of others' conversations stay out of it (the pending list and the live session have their own).
 */
export function deliverCs(state: ImState, message: CsMessage): void {
  const me = state.me.id;
  const customer = customerOf(message) === me;
  const transferTo = (message.payload as Partial<CsEventPayload> | null)?.transferTo?.id;
  const mine =
    customer ||
    (isAcceptedFor(message, me) &&
      (message.senderId === me ||
        transferTo === me ||
        state.conversations.get(conversationOf(message, me)) !== undefined));
  if (mine) {
    state.record(message, { incoming: true });
    refreshEnded(state, message);
  }
  if (customer) state.events.emit('CS_MESSAGE_RECEIVED', message);
  fireSessionEvent(state, message);
  if (mine) state.emitConversations();
}
