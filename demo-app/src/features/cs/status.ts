import { CS_MESSAGE_TYPES, type CsEventPayload, type CsMessage, type CsUser, type CustomerStatus } from 'parley-im';

/**
 * A customer's session with a team as the screens show it (spec §4: FREE, PENDING, ACCEPTED): no session yet,
 * waiting for an agent, served by an agent (unknown only when the chat shows too little of the past), or ended.
 */
export type CsSessionView =
  { kind: 'none' } | { kind: 'waiting' } | { kind: 'served'; agent: CsUser | undefined } | { kind: 'ended' };

/** The name in a user's data, if any. */
export function nameOf(data: Record<string, unknown> | undefined): string {
  const name = data?.['name'];
  return typeof name === 'string' ? name : '';
}

/**
 * The customer's session from their conversation, oldest first, since a customer cannot ask for their status: an
 * accept or a transfer names the agent, an end ends it, and any other message starts waiting when nothing is
 * going on. Messages the server stored say whether an agent had accepted them, so a page that starts inside a
 * served session still reads "served", by the agent who wrote last.
 */
export function customerView(messages: readonly CsMessage[], customerId: string): CsSessionView {
  let view: CsSessionView = { kind: 'none' };
  for (const m of messages) {
    if (m.status !== 'success') {
      if (view.kind === 'none' || view.kind === 'ended') view = { kind: 'waiting' };
      continue;
    }
    const fromAgent = m.senderId !== customerId;
    switch (m.type) {
      case CS_MESSAGE_TYPES.accept:
        view = { kind: 'served', agent: { id: m.senderId, data: m.senderData } };
        break;
      case CS_MESSAGE_TYPES.transfer: {
        const to = (m.payload as Partial<CsEventPayload> | null)?.transferTo;
        view = { kind: 'served', agent: to ? { id: to.id, data: to.data } : undefined };
        break;
      }
      case CS_MESSAGE_TYPES.end:
        view = { kind: 'ended' };
        break;
      default:
        if (m.accepted && (view.kind !== 'served' || (view.agent === undefined && fromAgent))) {
          view = { kind: 'served', agent: fromAgent ? { id: m.senderId, data: m.senderData } : undefined };
        } else if (view.kind === 'none' || view.kind === 'ended') {
          view = { kind: 'waiting' };
        }
    }
  }
  return view;
}

/**
 * The session as an agent's live session reports it. A free customer with a past (`hadSession`: their conversation
 * shows messages, or the status names the session that ended) reads "ended".
 */
export function agentView(status: CustomerStatus, hadSession: boolean): CsSessionView {
  switch (status.status) {
    case 'FREE':
      return hadSession || status.sessionId !== undefined ? { kind: 'ended' } : { kind: 'none' };
    case 'PENDING':
      return { kind: 'waiting' };
    case 'ACCEPTED':
      return { kind: 'served', agent: status.agent };
  }
}
