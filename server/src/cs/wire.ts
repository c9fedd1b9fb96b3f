import { ServiceError } from '../errors.js';
import {
  CODES,
  CS_MESSAGE_TYPES,
  LIMITS,
  MESSAGES,
  utf8ByteLength,
  type CsTransitionMessage,
  type CustomerStatus,
  type WireCustomerStatus,
  type WireImMessage,
} from '../protocol.js';
import type { CsConversationKey, CsSessionRecord, CsStoredMessage } from '../store/index.js';

/** The read-offset key of a CS conversation in `im_read_offsets`; JSON so that ids holding `:` cannot collide. */
export function csReadKey(teamId: string, customerId: string): string {
  return `cs:${JSON.stringify([teamId, customerId])}`;
}

/** A stored CS message in the wire's abbreviated form; `tid`, `accepted` and `sessionId` are always there. */
export function toWireCs(m: CsStoredMessage): WireImMessage {
  return {
    t: 'cs',
    r: m.to,
    s: m.senderId,
    i: m.messageId,
    ts: m.ts,
    mt: m.type,
    p: m.payload,
    d: m.senderData,
    tid: m.teamId,
    accepted: m.accepted,
    sessionId: m.sessionId,
  };
}

/** Parses JSON that the server itself wrote or validated as an object. */
export function parseObject(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Whether `json` is the JSON of an object (`nonEmpty`: with at least one key). */
/**
 * CS-16: team, agent and customer data are bounded as a user's data is (300 bytes of JSON, `user.data-length limit
 * 300 byte.`): they are stored and sent with every session event.
 */
export function assertDataSize(...jsons: string[]): void {
  if (jsons.some((json) => utf8ByteLength(json) > LIMITS.userDataMaxBytes)) {
    throw new ServiceError(CODES.BAD_REQUEST, MESSAGES.dataTooLong);
  }
}

export function isJsonObject(json: string, nonEmpty = false): boolean {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return !nonEmpty || Object.keys(value).length > 0;
  } catch {
    return false;
  }
}

/** A stored message as the shared state machine reads it: the transfer target's data parsed back to an object. */
export function transitionOf(m: CsStoredMessage): CsTransitionMessage {
  let payload: unknown = parseObject(m.payload);
  if (m.type === CS_MESSAGE_TYPES.transfer) {
    const p = payload as { sessionStart?: number; transferTo?: { id: string; data: string } };
    payload = { ...p, transferTo: p.transferTo && { id: p.transferTo.id, data: parseObject(p.transferTo.data) } };
  }
  return {
    type: m.type,
    senderId: m.senderId,
    senderData: parseObject(m.senderData),
    timestamp: m.ts,
    sessionId: m.sessionId,
    payload,
  };
}

/** The state-machine view of a stored session. */
export function statusOf(session: CsSessionRecord | undefined): CustomerStatus {
  if (!session) return { status: 'FREE' };
  switch (session.status) {
    case 'FREE':
      return { status: 'FREE', sessionId: session.sessionId };
    case 'PENDING':
      return { status: 'PENDING', start: session.start, sessionId: session.sessionId };
    case 'ACCEPTED':
      return {
        status: 'ACCEPTED',
        start: session.start,
        sessionId: session.sessionId,
        agent: { id: session.agentId ?? '', data: parseObject(session.agentData) },
      };
  }
}

/** A session row after `status`, keeping what the state machine does not know about. */
export function withStatus(
  key: CsConversationKey,
  previous: CsSessionRecord | undefined,
  status: CustomerStatus,
  changes: { lastTs: number; customerData?: string },
): CsSessionRecord {
  const base = {
    teamId: key.teamId,
    customerId: key.customerId,
    customerData: changes.customerData ?? previous?.customerData ?? '{}',
    lastTs: changes.lastTs,
  };
  if (status.status === 'FREE') {
    return { ...base, status: 'FREE', sessionId: status.sessionId ?? 0, start: 0, agentId: null, agentData: null };
  }
  if (status.status === 'PENDING') {
    return {
      ...base,
      status: 'PENDING',
      sessionId: status.sessionId,
      start: status.start,
      agentId: null,
      agentData: null,
    };
  }
  return {
    ...base,
    status: 'ACCEPTED',
    sessionId: status.sessionId,
    start: status.start,
    agentId: status.agent.id,
    agentData: JSON.stringify(status.agent.data),
  };
}

/** `CS_CUSTOMER_STATUS` content: the agent's data as a JSON string, as the reference client parses it. */
export function toWireStatus(status: CustomerStatus): WireCustomerStatus {
  switch (status.status) {
    case 'FREE':
      return { status: 'FREE' };
    case 'PENDING':
      return { status: 'PENDING', start: status.start, sessionId: status.sessionId };
    case 'ACCEPTED':
      return {
        status: 'ACCEPTED',
        start: status.start,
        sessionId: status.sessionId,
        agent: { id: status.agent.id, data: JSON.stringify(status.agent.data) },
      };
  }
}
