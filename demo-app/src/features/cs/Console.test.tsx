// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, ParleyError } from 'parley-im';
import type { Language } from '../../i18n';
import { renderApp, step } from '../../test-utils';
import { CsConsole } from './Console';
import { FakeDesk } from './fake-desk';
import { installAntdRender } from '../../ui/antd-render';

// antd-mobile's toasts, dialogs and action sheets render with createRoot under React 19, as in main.tsx.
beforeAll(() => {
  installAntdRender();
});
afterEach(cleanup);

const ME = { id: 'a1', data: { name: 'Alice' } };
const BOB = { id: 'a2', data: { name: 'Bob' } };
const CAROL = { id: 'c1', data: { name: 'Carol' } };
const DAN = { id: 'c2', data: { name: 'Dan' } };

function Harness({ desk, initial }: { desk: FakeDesk; initial?: string }) {
  const [selected, setSelected] = useState<string | undefined>(initial);
  return <CsConsole desk={desk} selectedId={selected} onSelect={setSelected} emoji={undefined} />;
}

/** Does `work` (a click, or something from outside the console) and lets the screen follow. */

/** Renders the console of `desk` and lets what it started settle. */
async function open(desk: FakeDesk, initial?: string, language: Language = 'en') {
  const view = renderApp(<Harness desk={desk} initial={initial} />, { language });
  await step();
  return view;
}

const status = () => screen.getByTestId('cs-status').textContent;
const pendingRows = () => screen.queryAllByTestId('cs-pending');
const mineRow = (name: string) => screen.getAllByTestId('cs-customer').find((row) => row.textContent?.includes(name));

async function goOnline() {
  await step(() => fireEvent.click(screen.getByRole('switch', { name: 'Online' })));
}

async function acceptFromList(name: string) {
  const row = pendingRows().find((r) => r.textContent?.includes(name));
  if (!row) throw new Error(`${name} is not waiting`);
  await step(() => fireEvent.click(within(row).getByRole('button', { name: 'Accept' })));
}

async function send(text: string) {
  fireEvent.change(screen.getByPlaceholderText('Say something…'), { target: { value: text } });
  await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
}

describe('agent console', () => {
  it('goes online, lists a waiting customer live, accepts them and chats', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    expect(screen.getByText('Go online to receive customers')).toBeTruthy();
    await goOnline();
    expect(screen.queryByText('Go online to receive customers')).toBeNull();
    expect(screen.getByText('Choose a customer to start')).toBeTruthy();

    await step(() => desk.customerWrites(CAROL, 'Where is my parcel?'));
    expect(screen.getByText('Waiting (1)')).toBeTruthy();
    expect(pendingRows()[0]?.textContent).toContain('Where is my parcel?');

    await acceptFromList('Carol');
    expect(pendingRows()).toHaveLength(0);
    expect(screen.getByTestId('cs-chat').getAttribute('data-customer')).toBe('c1');
    expect(status()).toBe('You are serving this customer');
    expect(screen.getByTestId('cs-notice').textContent).toBe('Alice accepted the session');
    expect(mineRow('Carol')?.textContent).not.toContain('Ended');

    await send('Let me check');
    await step(() => desk.customerWrites(CAROL, 'Thanks!'));
    const bubbles = screen.getAllByTestId('message').map((m) => m.querySelector('.bubble')?.textContent);
    expect(bubbles).toEqual(['Where is my parcel?', 'Let me check', 'Thanks!']);
    expect(screen.getAllByText('Carol', { selector: '.message-sender' })).toHaveLength(2);
  });

  it('shows when the customer I serve is typing, and tells them while I type (TYPING-4)', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    await acceptFromList('Carol');
    await step(() => desk.customerTypes('c1', true));
    expect(screen.getByText('The customer is typing…')).toBeTruthy();
    await step(() => desk.customerTypes('c1', false));
    expect(screen.queryByText('The customer is typing…')).toBeNull();
    const input = screen.getByPlaceholderText('Say something…');
    await step(() => fireEvent.change(input, { target: { value: 'On it' } }));
    await step(() => fireEvent.change(input, { target: { value: '' } }));
    expect(desk.toldTyping('c1')).toEqual([true, false]);
  });

  it('shows a waiting customer and their typing before accepting, and drops them when another agent accepts first', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hello?'));
    await step(() => fireEvent.click(pendingRows()[0]!));
    expect(status()).toBe('Waiting for an agent');
    // Not mine yet: no composer until accepted.
    expect(screen.queryByPlaceholderText('Say something…')).toBeNull();
    // Every online agent hears a waiting customer type (TYPING-4).
    await step(() => desk.customerTypes('c1', true));
    expect(screen.getByText('The customer is typing…')).toBeTruthy();

    await step(() => desk.otherAgentAccepts('c1', BOB));
    expect(pendingRows()).toHaveLength(0);
    expect(status()).toBe('Served by Bob');
    // Bob's customer now: what they type is his to hear.
    expect(screen.queryByText('The customer is typing…')).toBeNull();
    expect(within(screen.getByTestId('cs-chat')).queryByRole('button', { name: 'Accept' })).toBeNull();
  });

  it('transfers a customer to another online agent, after which the conversation has ended for me', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    await acceptFromList('Carol');

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Transfer' })));
    expect(await screen.findByText('Transfer to')).toBeTruthy();
    // Only the other agents are offered.
    const choice = await screen.findByText('Bob');
    expect(screen.queryAllByText('Alice', { selector: '.adm-action-sheet-button-item-name' })).toHaveLength(0);
    await step(() => fireEvent.click(choice));

    expect(status()).toBe('Served by Bob');
    expect(await screen.findByText('Transferred to Bob')).toBeTruthy();
    expect(screen.getAllByTestId('cs-notice').at(-1)?.textContent).toBe('Handed over to Bob');
    expect(screen.queryByPlaceholderText('Say something…')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Transfer' })).toBeNull();
    expect(mineRow('Carol')?.textContent).toContain('Ended');
  });

  it('says so when no other agent is online to transfer to', async () => {
    const desk = new FakeDesk(ME, []);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    await acceptFromList('Carol');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Transfer' })));
    expect(await screen.findByText('No other agent is online')).toBeTruthy();
    expect(status()).toBe('You are serving this customer');
  });

  it('ends a session only once confirmed', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    await acceptFromList('Carol');

    const endButton = () => within(screen.getByTestId('cs-chat')).getByRole('button', { name: 'End' });
    await step(() => fireEvent.click(endButton()));
    expect(await screen.findByText('End the session with this customer?')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(status()).toBe('You are serving this customer');

    await step(() => fireEvent.click(endButton()));
    const question = (await screen.findAllByText('End the session with this customer?')).at(-1);
    const dialog = question?.closest('.adm-center-popup-wrap') as HTMLElement;
    await step(() => fireEvent.click(within(dialog).getByRole('button', { name: 'End' })));
    expect(status()).toBe('The session has ended');
    expect(screen.getAllByTestId('cs-notice').at(-1)?.textContent).toBe('The session has ended');
    expect(mineRow('Carol')?.textContent).toContain('Ended');
  });

  it('stays online while serving a customer, and goes offline once they are handed over', async () => {
    const desk = new FakeDesk(ME, [BOB]);
    await open(desk);
    await goOnline();
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    await step(() => desk.customerWrites(DAN, 'Hey'));
    await acceptFromList('Carol');

    await step(() => fireEvent.click(screen.getByRole('switch', { name: 'Online' })));
    expect(await screen.findByText('You still serve customers: end or transfer them first')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Online' }).getAttribute('aria-checked')).toBe('true');
    expect(pendingRows()).toHaveLength(1);

    await step(() => desk.transfer('c1', 'a2'));
    await step(() => fireEvent.click(screen.getByRole('switch', { name: 'Online' })));
    expect(screen.getByRole('switch', { name: 'Online' }).getAttribute('aria-checked')).toBe('false');
    // Going offline empties the pending list (spec §4).
    expect(pendingRows()).toHaveLength(0);
    expect(screen.getByText('Go online to receive customers')).toBeTruthy();
  });

  it("says in the agent's language why an action failed or the team could not be read, never the SDK's English", async () => {
    const desk = new FakeDesk(ME, [BOB]);
    // Another agent took the customer between the list showing them and the tap.
    desk.accept = () => Promise.reject(new ParleyError(400, MESSAGES.csAcceptedByOther));
    await open(desk, undefined, 'zh-CN');
    await step(() => fireEvent.click(screen.getByRole('switch', { name: '在线接待' })));
    await step(() => desk.customerWrites(CAROL, 'Hi'));
    const row = pendingRows()[0]!;
    await step(() => fireEvent.click(within(row).getByRole('button', { name: '接入' })));
    expect(await screen.findByText('该客户已被其他客服接入')).toBeTruthy();
    expect(screen.queryByText(MESSAGES.csAcceptedByOther)).toBeNull();

    await step(() => desk.state.update({ error: new ParleyError(408, MESSAGES.timeout) }));
    expect(screen.getByRole('alert').textContent).toBe('网络超时，请重试');
  });
});
