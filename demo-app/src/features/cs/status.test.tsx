// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { CS_MESSAGE_TYPES, type CsMessage } from 'parley-im';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-utils';
import { CsStatusLine } from './CsStatusLine';
import { csPreview } from './preview';
import { createI18n } from '../../i18n';
import { agentView, customerView, type CsSessionView } from './status';

afterEach(cleanup);

const ME = 'c1';
const ANN = { id: 'a1', data: { name: 'Ann' } };
const BEN = { id: 'a2', data: { name: 'Ben' } };
let time = 100;

function message(fields: Partial<CsMessage> & Pick<CsMessage, 'senderId'>): CsMessage {
  return {
    messageId: `m${++time}`,
    type: 'text',
    timestamp: time,
    payload: { text: 'x' },
    status: 'success',
    recalled: false,
    scene: 'cs',
    to: 'service',
    teamId: 'service',
    senderData: {},
    accepted: false,
    ...fields,
  };
}
const mine = (accepted = false) => message({ senderId: ME, accepted });
const fromAgent = (agent: typeof ANN) =>
  message({ senderId: agent.id, senderData: agent.data, to: ME, accepted: true });
const accept = (agent: typeof ANN) =>
  message({ senderId: agent.id, senderData: agent.data, to: ME, type: CS_MESSAGE_TYPES.accept, accepted: true });
const transfer = (from: typeof ANN, to: typeof ANN) =>
  message({
    senderId: from.id,
    senderData: from.data,
    to: ME,
    type: CS_MESSAGE_TYPES.transfer,
    payload: { sessionStart: 1, transferTo: to },
    accepted: true,
  });
const end = (agent: typeof ANN) =>
  message({ senderId: agent.id, senderData: agent.data, to: ME, type: CS_MESSAGE_TYPES.end, accepted: true });

describe('customer session status (spec §4)', () => {
  it('moves through none, waiting, served, handed over and ended, and waits again on a new message', () => {
    const steps: CsMessage[] = [];
    const after = (m: CsMessage) => (steps.push(m), customerView(steps, ME));
    expect(customerView([], ME)).toEqual({ kind: 'none' });
    expect(after(mine())).toEqual({ kind: 'waiting' });
    expect(after(mine())).toEqual({ kind: 'waiting' });
    expect(after(accept(ANN))).toEqual({ kind: 'served', agent: ANN });
    expect(after(fromAgent(ANN))).toEqual({ kind: 'served', agent: ANN });
    // The customer's own message, sent from this device, does not know it was accepted: still served.
    expect(after(mine(false))).toEqual({ kind: 'served', agent: ANN });
    expect(after(transfer(ANN, BEN))).toEqual({ kind: 'served', agent: BEN });
    expect(after(end(BEN))).toEqual({ kind: 'ended' });
    expect(after(mine())).toEqual({ kind: 'waiting' });
  });

  it('reads "served" from a page that starts inside a session, by the agent who wrote', () => {
    expect(customerView([mine(true)], ME)).toEqual({ kind: 'served', agent: undefined });
    expect(customerView([mine(true), fromAgent(BEN), mine(true)], ME)).toEqual({ kind: 'served', agent: BEN });
  });

  it('counts a message still being sent as waiting when nothing was going on', () => {
    expect(customerView([{ ...mine(), status: 'sending' }], ME)).toEqual({ kind: 'waiting' });
    expect(customerView([accept(ANN), { ...mine(), status: 'fail' }], ME)).toEqual({ kind: 'served', agent: ANN });
  });

  it('maps the status an agent is told', () => {
    expect(agentView({ status: 'FREE' }, false)).toEqual({ kind: 'none' });
    expect(agentView({ status: 'FREE', sessionId: 5 }, false)).toEqual({ kind: 'ended' });
    // The server names no session for a free customer: their conversation tells that one ended.
    expect(agentView({ status: 'FREE' }, true)).toEqual({ kind: 'ended' });
    expect(agentView({ status: 'PENDING', start: 5, sessionId: 5 }, true)).toEqual({ kind: 'waiting' });
    expect(agentView({ status: 'ACCEPTED', start: 5, sessionId: 5, agent: ANN }, true)).toEqual({
      kind: 'served',
      agent: ANN,
    });
  });
});

describe('status line', () => {
  const line = (view: CsSessionView, perspective: 'customer' | 'agent', language: 'en' | 'zh-CN' = 'en') => {
    renderApp(<CsStatusLine view={view} perspective={perspective} me="a1" />, { language });
    const text = screen.getByTestId('cs-status').textContent;
    cleanup();
    return text;
  };

  it('tells the customer what is going on, in both languages', () => {
    expect(line({ kind: 'none' }, 'customer')).toBe('Send a message and an agent will reply soon');
    expect(line({ kind: 'waiting' }, 'customer')).toBe('Waiting for an agent…');
    expect(line({ kind: 'served', agent: BEN }, 'customer')).toBe('Ben is serving you');
    expect(line({ kind: 'served', agent: undefined }, 'customer')).toBe('An agent is serving you');
    expect(line({ kind: 'ended' }, 'customer')).toBe('The session has ended');
    expect(line({ kind: 'waiting' }, 'customer', 'zh-CN')).toBe('正在为您接入客服…');
    expect(line({ kind: 'served', agent: BEN }, 'customer', 'zh-CN')).toBe('客服 Ben 正在为您服务');
    expect(line({ kind: 'ended' }, 'customer', 'zh-CN')).toBe('会话已结束');
  });

  it('tells an agent whether they or someone else serves the customer', () => {
    expect(line({ kind: 'served', agent: ANN }, 'agent')).toBe('You are serving this customer');
    expect(line({ kind: 'served', agent: BEN }, 'agent')).toBe('Served by Ben');
    expect(line({ kind: 'served', agent: { id: 'a3', data: {} } }, 'agent')).toBe('Served by a3');
    expect(line({ kind: 'waiting' }, 'agent')).toBe('Waiting for an agent');
    expect(line({ kind: 'served', agent: BEN }, 'agent', 'zh-CN')).toBe('由 Ben 接待中');
  });
});

describe('customer-service previews', () => {
  it('put session events in words and leave other messages as chat previews read', () => {
    const { t } = createI18n('en');
    expect(csPreview(accept(ANN), ME, t)).toBe('Ann accepted the session');
    expect(csPreview(transfer(ANN, BEN), ME, t)).toBe('Handed over to Ben');
    expect(csPreview(end(BEN), ME, t)).toBe('The session has ended');
    expect(csPreview(message({ senderId: ME, payload: { text: 'hi' } }), ME, t)).toBe('hi');
    const zh = createI18n('zh-CN');
    expect(csPreview(accept(ANN), ME, zh.t)).toBe('Ann 已接入');
  });
});
