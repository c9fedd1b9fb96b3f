import { describe, expect, it } from 'vitest';
import {
  isCsConversationEnded,
  nextCustomerStatus,
  type CsTransitionMessage,
  type CustomerStatus,
} from '../../src/protocol/index.js';

const alice = { id: 'alice', data: { name: 'Alice' } };
const bob = { id: 'bob', data: { name: 'Bob' } };

const message = (type: string, sessionId: number, extra: Partial<CsTransitionMessage> = {}): CsTransitionMessage => ({
  type,
  senderId: 'carol',
  senderData: {},
  timestamp: 500,
  sessionId,
  payload: {},
  ...extra,
});
const accept = (sessionId: number) =>
  message('CS_ACCEPT', sessionId, { senderId: 'alice', senderData: alice.data, payload: { sessionStart: 100 } });
const transfer = (sessionId: number) =>
  message('CS_TRANSFER', sessionId, { senderId: 'alice', payload: { sessionStart: 100, transferTo: bob } });
const end = (sessionId: number) => message('CS_END', sessionId, { senderId: 'alice', payload: { sessionStart: 100 } });
const text = (sessionId: number) => message('text', sessionId);

const FREE: CustomerStatus = { status: 'FREE' };
const FREE_AFTER_10: CustomerStatus = { status: 'FREE', sessionId: 10 };
const PENDING_10: CustomerStatus = { status: 'PENDING', start: 100, sessionId: 10 };
const ACCEPTED_10: CustomerStatus = { status: 'ACCEPTED', start: 100, sessionId: 10, agent: alice };

describe('CS-4: the customer-service session state machine', () => {
  const table: Array<[string, CustomerStatus, CsTransitionMessage, CustomerStatus]> = [
    ['a first message while FREE opens PENDING', FREE, text(10), { status: 'PENDING', start: 500, sessionId: 10 }],
    ['more messages while PENDING change nothing', PENDING_10, text(10), PENDING_10],
    ['accept while PENDING gives ACCEPTED with the agent', PENDING_10, accept(10), ACCEPTED_10],
    ['accept while FREE gives ACCEPTED (agent-initiated)', FREE, accept(10), ACCEPTED_10],
    ['messages while ACCEPTED change nothing', ACCEPTED_10, text(10), ACCEPTED_10],
    [
      'transfer gives ACCEPTED with the new agent',
      ACCEPTED_10,
      transfer(10),
      { status: 'ACCEPTED', start: 100, sessionId: 10, agent: bob },
    ],
    ['end gives FREE, remembering the ended session', ACCEPTED_10, end(10), FREE_AFTER_10],
    [
      'a newer session after an end opens PENDING',
      FREE_AFTER_10,
      text(11),
      { status: 'PENDING', start: 500, sessionId: 11 },
    ],
    ['stale: a late message of the ended session stays FREE', FREE_AFTER_10, text(10), FREE_AFTER_10],
    ['stale: an older session never overrides PENDING', PENDING_10, accept(9), PENDING_10],
    ['stale: an older end never frees ACCEPTED', ACCEPTED_10, end(9), ACCEPTED_10],
    ['stale: an older transfer never moves ACCEPTED', ACCEPTED_10, transfer(9), ACCEPTED_10],
    ['a newer accept overrides an older ACCEPTED', ACCEPTED_10, accept(12), { ...ACCEPTED_10, sessionId: 12 }],
    ['a transfer without a target changes nothing', ACCEPTED_10, message('CS_TRANSFER', 10), ACCEPTED_10],
  ];
  it.each(table)('%s', (_name, state, event, expected) => {
    expect(nextCustomerStatus(state, event)).toEqual(expected);
  });

  it('keeps the same object when nothing changes, so watchers can skip updates', () => {
    expect(nextCustomerStatus(PENDING_10, text(10))).toBe(PENDING_10);
  });
});

describe("CS-5: when an agent's conversation counts as ended", () => {
  const table: Array<[string, { type: string; payload: unknown }, string, boolean]> = [
    ['its last message is an end', { type: 'CS_END', payload: {} }, 'alice', true],
    ['a transfer to someone else', { type: 'CS_TRANSFER', payload: { transferTo: bob } }, 'alice', true],
    ['not a transfer to me', { type: 'CS_TRANSFER', payload: { transferTo: bob } }, 'bob', false],
    ['not an accept', { type: 'CS_ACCEPT', payload: {} }, 'alice', false],
    ['not a chat message', { type: 'text', payload: { text: 'hi' } }, 'alice', false],
  ];
  it.each(table)('%s', (_name, last, me, ended) => {
    expect(isCsConversationEnded(last, me)).toBe(ended);
  });
});
