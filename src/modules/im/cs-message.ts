import { CS_MESSAGE_TYPES, isCsConversationEnded, type CsTransitionMessage } from '../../protocol/index.js';
import type { Conversation, ConversationRef, CsMessage, MessageTarget } from './types.js';

/** The wire fields only customer-service messages carry. */
export interface CsWireFields {
  r?: string;
  d?: string | null;
  tid?: string | null;
  accepted?: boolean;
  sessionId?: number | string | null;
}

function parseObject(text: unknown): Record<string, unknown> {
  if (typeof text === 'object' && text !== null && !Array.isArray(text)) return text as Record<string, unknown>;
  if (typeof text !== 'string' || text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A CS message from its wire form, on top of the fields every message has. A transfer's `transferTo.data` is a JSON
 * string inside the payload JSON (wire notes §2.1); it is parsed here, so the domain payload holds an object.
 */
export function csFromWire<B extends Omit<CsMessage, 'scene' | 'to' | 'teamId' | 'senderData' | 'accepted'>>(
  base: B,
  wire: CsWireFields,
): CsMessage {
  let payload = base.payload;
  if (base.type === CS_MESSAGE_TYPES.transfer && typeof payload === 'object' && payload !== null) {
    const p = payload as { transferTo?: { id?: unknown; data?: unknown } };
    if (p.transferTo)
      payload = { ...p, transferTo: { id: String(p.transferTo.id), data: parseObject(p.transferTo.data) } };
  }
  const teamId = String(wire.tid ?? wire.r ?? '');
  const message: CsMessage = {
    ...base,
    payload,
    scene: 'cs',
    to: String(wire.r ?? teamId),
    teamId,
    senderData: parseObject(wire.d),
    accepted: wire.accepted === true,
  };
  const sessionId = Number(wire.sessionId);
  if (wire.sessionId !== undefined && wire.sessionId !== null && Number.isFinite(sessionId)) {
    message.sessionId = sessionId;
  }
  return message;
}

/** The scene fields of a new CS message: a customer writes to the team; an agent (`to.teamId` set) to a customer. */
export function csFields(to: MessageTarget, senderData: Record<string, unknown>) {
  const teamId = to.teamId ?? String(to.id);
  return {
    scene: 'cs' as const,
    to: String(to.id),
    teamId,
    senderData,
    accepted: teamId !== String(to.id),
  };
}

/** The customer of a CS message. */
export function customerOf(message: CsMessage): string {
  return message.to === message.teamId ? message.senderId : message.to;
}

/** The state machine's view of a message. */
export function transitionOf(message: CsMessage): CsTransitionMessage {
  return {
    type: message.type,
    senderId: message.senderId,
    senderData: message.senderData,
    timestamp: message.timestamp,
    sessionId: message.sessionId ?? message.timestamp,
    payload: message.payload,
  };
}

/** A CS conversation of the list; an agent's carries `ended`. */
export function csConversation(
  ref: ConversationRef,
  base: Pick<Conversation, 'data' | 'unread' | 'lastMessage' | 'top'>,
  me: string,
): Conversation {
  const teamId = ref.teamId ?? ref.id;
  const conversation: Conversation = { ...base, type: 'cs', id: ref.id, teamId };
  if (ref.id !== teamId) conversation.ended = isCsConversationEnded(base.lastMessage, me);
  return conversation;
}

/**
 * Whether an agent's copy of a message belongs to their conversations rather than the pending list (the
 * reference's rule): accepted, and not another agent's accept.
 */
export function isAcceptedFor(message: CsMessage, me: string): boolean {
  return message.accepted && !(message.type === CS_MESSAGE_TYPES.accept && message.senderId !== me);
}
