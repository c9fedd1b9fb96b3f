// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/index.js';
import { ParleyProvider, useCsTeam } from '../../src/react/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';

afterEach(() => {
  cleanup();
});

describe('parley-im/react: useCsTeam', () => {
  it('REACT-7: follows the agent online state and the pending list, and accepts', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const agent = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
    const customer = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
    defer(() => customer.disconnect());
    defer(() => agent.disconnect());
    const wrapper = ({ children }: { children?: ReactNode }) =>
      createElement(ParleyProvider, { client: agent, user: { id: 'alice', data: { name: 'Alice' } } }, children);
    const { result } = renderHook(() => useCsTeam('support'), { wrapper });
    await waitFor(() => expect(result.current.online).toBe(false));

    await act(() => result.current.team.online({ teamData: { name: 'Support' }, agentData: { name: 'Alice' } }));
    await waitFor(() => expect(result.current.online).toBe(true));

    await customer.connect({ id: 'carol', data: { name: 'Carol' } });
    await customer.im.sendMessage({
      message: customer.im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'support', data: {} } }),
    });
    await waitFor(() => expect(result.current.pending?.conversations.map((c) => c.id)).toEqual(['carol']));

    await act(async () => {
      await result.current.team.accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    });
    await waitFor(() => expect(result.current.pending?.conversations).toEqual([]));
  });

  it('REACT-7: transfers to another online agent, whose team then ends the session; the customer waits again', async () => {
    const { url } = await startServer({ apps: [OPEN_APP] });
    const alice = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
    const bob = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
    const customer = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im'] });
    defer(() => customer.disconnect());
    defer(() => bob.disconnect());
    defer(() => alice.disconnect());
    const as = (client: typeof alice, id: string) => ({
      wrapper: ({ children }: { children?: ReactNode }) =>
        createElement(ParleyProvider, { client, user: { id, data: { name: id } } }, children),
    });
    const a = renderHook(() => useCsTeam('support'), as(alice, 'alice')).result;
    const b = renderHook(() => useCsTeam('support'), as(bob, 'bob')).result;
    await waitFor(() => expect([a.current.online, b.current.online]).toEqual([false, false]));
    await act(() => a.current.team.online({ teamData: { name: 'Support' }, agentData: { name: 'Alice' } }));
    await act(() => b.current.team.online({ teamData: { name: 'Support' }, agentData: { name: 'Bob' } }));

    await customer.connect({ id: 'carol', data: { name: 'Carol' } });
    const help = (text: string) =>
      customer.im.sendMessage({
        message: customer.im.createTextMessage({ text, to: { type: 'cs', id: 'support', data: {} } }),
      });
    await help('help');
    await waitFor(() => expect(b.current.pending?.conversations.map((c) => c.id)).toEqual(['carol']));
    await act(async () => {
      await a.current.team.accept({ customer: { id: 'carol', data: { name: 'Carol' } } });
    });
    await waitFor(() => expect(b.current.pending?.conversations).toEqual([]));

    await act(async () => {
      await a.current.team.transfer({ customerId: 'carol', agentId: 'bob' });
    });
    expect(await b.current.team.customerStatus({ id: 'carol' })).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'bob' },
    });
    await expect(a.current.team.end({ id: 'carol' })).rejects.toMatchObject({ code: 400 });

    await act(async () => {
      await b.current.team.end({ id: 'carol' });
    });
    expect(await a.current.team.customerStatus({ id: 'carol' })).toMatchObject({ status: 'FREE' });
    await help('again');
    await waitFor(() => expect(a.current.pending?.conversations.map((c) => c.id)).toEqual(['carol']));
    await waitFor(() => expect(b.current.pending?.conversations.map((c) => c.id)).toEqual(['carol']));
  });
});
