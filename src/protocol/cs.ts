import * as z from 'zod/mini';
import { MESSAGES } from './codes.js';
import { wireIdSchema, type UserOffset, type WireImMessage } from './im.js';

/**
 * Customer service on the wire (reference §2, wire notes §7) and the customer-service session state machine
 * (product spec §4), shared by the SDK and the server so that both ends move a session the same way.
 */

/** Message types of the session events; they are stored in the conversation's history like any message. */
export const CS_MESSAGE_TYPES = {
  accept: 'CS_ACCEPT',
  end: 'CS_END',
  transfer: 'CS_TRANSFER',
} as const;

/** The states of a customer's session with a team. */
export const CS_STATUSES = ['FREE', 'PENDING', 'ACCEPTED'] as const;
/** A session state name. */
export type CsStatusName = (typeof CS_STATUSES)[number];

/** An agent or customer as the CS API shows them. */
export interface CsUser {
  id: string;
  data: Record<string, unknown>;
}

/**
 * A customer's session with a team. `sessionId` orders sessions (a newer session has a greater id); FREE keeps the
 * id of the session that ended, so that a late message of that session is recognised as stale.
 */
export type CustomerStatus =
  | { status: 'FREE'; sessionId?: number }
  | { status: 'PENDING'; start: number; sessionId: number }
  | { status: 'ACCEPTED'; start: number; sessionId: number; agent: CsUser };

/** The payload of `CS_ACCEPT`, `CS_END` and `CS_TRANSFER` messages (`transferTo` on transfers only). */
export interface CsEventPayload {
  sessionStart: number;
  transferTo?: CsUser;
}

/** What the state machine reads of a message. `payload` is the domain payload (transferTo.data an object). */
export interface CsTransitionMessage {
  type: string;
  senderId: string;
  senderData: Record<string, unknown>;
  timestamp: number;
  sessionId: number;
  payload: unknown;
}

/**
 * CS-4: the session state after `message`. A first message while FREE opens a PENDING session; an accept gives
 * ACCEPTED with the accepting agent; a transfer gives ACCEPTED with the new agent; an end gives FREE. A message of
 * an older session than the current one changes nothing (while FREE, the ended session counts as older too).
 */
export function nextCustomerStatus(current: CustomerStatus, message: CsTransitionMessage): CustomerStatus {
  const known = current.sessionId;
  if (known !== undefined) {
    const stale = current.status === 'FREE' ? message.sessionId <= known : message.sessionId < known;
    if (stale) return current;
  }
  const payload = (message.payload ?? {}) as Partial<CsEventPayload>;
  const start = typeof payload.sessionStart === 'number' ? payload.sessionStart : message.timestamp;
  switch (message.type) {
    case CS_MESSAGE_TYPES.accept:
      return {
        status: 'ACCEPTED',
        start,
        sessionId: message.sessionId,
        agent: { id: message.senderId, data: message.senderData },
      };
    case CS_MESSAGE_TYPES.transfer:
      return payload.transferTo
        ? { status: 'ACCEPTED', start, sessionId: message.sessionId, agent: payload.transferTo }
        : current;
    case CS_MESSAGE_TYPES.end:
      return { status: 'FREE', sessionId: message.sessionId };
    default:
      return current.status === 'FREE'
        ? { status: 'PENDING', start: message.timestamp, sessionId: message.sessionId }
        : current;
  }
}

/**
 * CS-5: whether an agent's conversation has ended for `agentId`: its last message is an end, or a transfer to
 * someone else.
 */
export function isCsConversationEnded(last: { type: string; payload: unknown }, agentId: string): boolean {
  if (last.type === CS_MESSAGE_TYPES.end) return true;
  if (last.type !== CS_MESSAGE_TYPES.transfer) return false;
  const to = (last.payload as Partial<CsEventPayload> | null)?.transferTo;
  return to?.id !== agentId;
}

/** Whether a message type is one of the session events. */
export function isCsEventType(type: string): boolean {
  return type === CS_MESSAGE_TYPES.accept || type === CS_MESSAGE_TYPES.end || type === CS_MESSAGE_TYPES.transfer;
}

const jsonObjectString = z.string({ error: MESSAGES.csDataNotObjects });

/** `CS_ONLINE`: `teamData` and `agentData` are JSON strings of objects. */
export const csOnlineSchema = z.looseObject({
  teamId: wireIdSchema,
  teamData: jsonObjectString,
  agentData: jsonObjectString,
  /** Parley's: in an app that requires access tokens, a token naming the team (CS-15); the reference sends none. */
  at: z.optional(z.nullable(z.string())),
});
/** `CS_OFFLINE`, `CS_AGENTS`. */
export const csTeamRefSchema = z.looseObject({ teamId: wireIdSchema });
/** `CS_ACCEPT`: the customer's data is a JSON string of a non-empty object. */
export const csAcceptSchema = z.looseObject({
  teamId: wireIdSchema,
  customer: z.looseObject(
    { id: wireIdSchema, data: z.string({ error: MESSAGES.csCustomerDataEmpty }) },
    { error: MESSAGES.csCustomerRequired },
  ),
});
/** `CS_END`, `CS_CUSTOMER_STATUS`, `CS_LIVE_SESSION`, `CS_QUIT_LIVE`. */
export const csCustomerRefSchema = z.looseObject({ teamId: wireIdSchema, customerId: wireIdSchema });
/** `CS_TRANSFER`. */
export const csTransferSchema = z.looseObject({
  teamId: wireIdSchema,
  customerId: wireIdSchema,
  agentId: wireIdSchema,
});

/** An agent as `CS_AGENTS` and `CS_CUSTOMER_STATUS` answer: data is a JSON string. */
export interface WireCsAgent {
  id: string;
  data: string;
}
/** `CS_CUSTOMER_STATUS` content, and `customerStatus` inside the `CS_LIVE_SESSION` ack. */
export interface WireCustomerStatus {
  status: CsStatusName;
  start?: number;
  sessionId?: number;
  agent?: WireCsAgent;
}
/** `CS_ONLINE_CHANGED` push: the agent went online or offline in a team (sent to the agent's other devices). */
export interface WireCsOnlineChanged {
  teamId: string;
  online: boolean;
}
/** One entry of the `CS_PENDING_CONVERSATION` ack. `unread` is Parley's own; the reference ignores it. */
export interface WirePendingConversation {
  lastMessage: WireImMessage;
  /** JSON. */
  customerData: string;
  userOffsets: UserOffset[];
  unread: number;
}
/** The content of the `CS_ACCEPT`, `CS_END` and `CS_TRANSFER` acks: the session event as a message. */
export interface WireCsEventAck {
  message: WireImMessage;
}
