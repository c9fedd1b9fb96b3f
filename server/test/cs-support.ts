/** Customer-service test support on top of the IM helpers: agents going online, customers writing to a team. */
import type { Socket as ClientSocket } from 'socket.io-client';
import { expect } from 'vitest';
import { request } from './helpers.js';
import { content, guid } from './im-support.js';

/** A CS message as the wire carries it. */
export interface WireCs {
  t: 'cs';
  r: string;
  s: string;
  i: string;
  ts: number;
  mt: string;
  p: string;
  d: string;
  tid: string;
  accepted: boolean;
  sessionId: number;
}

/** Puts `socket`'s user online in `teamId`. */
export async function goOnline(socket: ClientSocket, teamId: string, name = 'agent'): Promise<void> {
  await content(socket, 'CS_ONLINE', {
    teamId,
    teamData: JSON.stringify({ name: `Team ${teamId}` }),
    agentData: JSON.stringify({ name }),
  });
}

/** The `publishIM` params of a customer's message to a team: a text, with any field replaced by `overrides`. */
export function csPublishParams(teamId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mt: 'text',
    to: teamId,
    d: JSON.stringify({ name: `Team ${teamId}` }),
    p: JSON.stringify({ text: 'help' }),
    t: 'cs',
    tid: teamId,
    guid: guid(),
    retried: 0,
    ...overrides,
  };
}

/** A customer's text to a team; resolves with the ack content. */
export async function customerSays(
  socket: ClientSocket,
  teamId: string,
  text = 'help',
): Promise<{ timestamp: number; sessionId: number }> {
  return content(socket, 'publishIM', csPublishParams(teamId, { p: JSON.stringify({ text }) }));
}

/** An agent's text to a customer of a team; resolves with the whole ack. */
export function agentSays(
  socket: ClientSocket,
  teamId: string,
  customerId: string,
  text = 'hello',
): Promise<Record<string, unknown>> {
  return request(socket, 'publishIM', {
    mt: 'text',
    to: customerId,
    d: JSON.stringify({ name: customerId }),
    p: JSON.stringify({ text }),
    t: 'cs',
    tid: teamId,
    guid: guid(),
    retried: 0,
  });
}

/** Accepts a customer; resolves with the accept message. */
export async function accept(socket: ClientSocket, teamId: string, customerId: string): Promise<WireCs> {
  const ack = await content<{ message: WireCs }>(socket, 'CS_ACCEPT', {
    teamId,
    customer: { id: customerId, data: JSON.stringify({ name: customerId }) },
  });
  return ack.message;
}

/** The customer's status as `CS_CUSTOMER_STATUS` answers it. */
export function statusOf(socket: ClientSocket, teamId: string, customerId: string): Promise<Record<string, unknown>> {
  return content(socket, 'CS_CUSTOMER_STATUS', { teamId, customerId });
}

/** The pending customers `socket` sees. */
export async function pendingOf(socket: ClientSocket): Promise<string[]> {
  const list = await content<Array<{ lastMessage: WireCs }>>(socket, 'CS_PENDING_CONVERSATION', {});
  return list.map((p) => (p.lastMessage.r === p.lastMessage.tid ? p.lastMessage.s : p.lastMessage.r));
}

/** Expects a failure ack. */
export function expectFailure(ack: Record<string, unknown>, code: number, message: string): void {
  expect(ack).toEqual({ code, resultCode: code, content: message });
}
