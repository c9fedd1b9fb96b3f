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
});
