// @vitest-environment jsdom
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { StrictMode, createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ParleyClient } from '../../src/index.js';
import {
  ParleyProvider,
  useConnectionStatus,
  useConversations,
  useCsTeam,
  useGroupPresence,
  useMessages,
  usePresence,
  useTyping,
  useUserEvent,
} from '../../src/react/index.js';
import { FakeServer } from '../support/fake-server.js';
import { fakeIm } from '../support/fake-im.js';

afterEach(() => {
  cleanup();
});

function setup() {
  const server = new FakeServer();
  const im = fakeIm(server, 'me');
  const client = createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
  const wrapper = ({ children }: { children?: ReactNode }) =>
    createElement(
      StrictMode,
      null,
      createElement(ParleyProvider, { client, user: { id: 'me', data: { name: 'Me' } } }, children),
    );
  return { server, im, client, wrapper };
}

async function connected(client: ParleyClient): Promise<void> {
  await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
}

describe('parley-im/react', () => {
  it('REACT-1: StrictMode mounting makes exactly one connection', async () => {
    const { server, client, wrapper } = setup();
    const { result } = renderHook(() => useConnectionStatus(), { wrapper });
    await connected(client);
    await waitFor(() => expect(result.current).toBe('connected'));
    expect(server.attempts).toHaveLength(1);
    expect(server.requests('authorize')).toHaveLength(1);
  });

  it('REACT-2: unmounting disconnects and removes every listener', async () => {
    const { client, wrapper } = setup();
    const view = render(createElement(wrapper, null, createElement(Probe)));
    await connected(client);
    expect(client.connection.events.listenerCount('connectionStatus')).toBeGreaterThan(0);
    view.unmount();
    await waitFor(() => expect(client.getConnectionStatus()).toBe('disconnected'));
    expect(client.connection.events.listenerCount('connectionStatus')).toBe(internalListeners(client));
  });

  it('REACT-2: under StrictMode each hook holds its listeners once while mounted, and none after', async () => {
    const { client, wrapper } = setup();
    const imListeners = countImListeners(client);
    const internal = internalListeners(client);
    const view = render(createElement(wrapper, null, createElement(EveryHook)));
    await connected(client);
    // One connection listener per live value (status, conversations, messages, presence, group presence, team),
    // and their IM events: conversations 1, messages 5, presence 1, group presence 1, team 2.
    expect(client.connection.events.listenerCount('connectionStatus')).toBe(internal + 6);
    expect(imListeners()).toBe(10);
    view.rerender(createElement(wrapper, null, createElement(EveryHook)));
    expect(client.connection.events.listenerCount('connectionStatus')).toBe(internal + 6);
    expect(imListeners()).toBe(10);
    view.unmount();
    expect(imListeners()).toBe(0);
    expect(client.connection.events.listenerCount('connectionStatus')).toBe(internal);
  });

  it('REACT-3: useConversations reports a failed load and loads again on refresh', async () => {
    const { client, server, wrapper } = setup();
    server.handle('imLastConversations', () => ({ code: 500, resultCode: 500, content: 'boom' }));
    const { result } = renderHook(() => useConversations(), { wrapper });
    await connected(client);
    await waitFor(() => expect(result.current.error).toMatchObject({ code: 500, content: 'boom' }));
    expect(result.current).toMatchObject({ list: undefined, loading: false });
    server.handle('imLastConversations', () => ({ code: 200, resultCode: 200, content: [] }));
    await act(() => result.current.refresh());
    expect(result.current).toMatchObject({ list: { unreadTotal: 0, conversations: [] }, error: undefined });
  });

  it('REACT-3: useConversations loads the list and follows new messages', async () => {
    const { client, im, wrapper } = setup();
    im.fromPeer('bob', 'one', false);
    const { result } = renderHook(() => useConversations(), { wrapper });
    await connected(client);
    await waitFor(() => expect(result.current.list?.unreadTotal).toBe(1));
    act(() => {
      im.fromPeer('bob', 'two');
    });
    await waitFor(() => expect(result.current.list?.unreadTotal).toBe(2));
    expect(result.current.list?.conversations[0]).toMatchObject({ userId: 'bob', unread: 2 });
  });

  it('REACT-4: useMessages pages history, shows live messages and sends with optimistic status', async () => {
    const { client, im, server, wrapper } = setup();
    for (let i = 1; i <= 5; i++) im.fromPeer('bob', `m${i}`, false);
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }, 3), { wrapper });
    await connected(client);
    await waitFor(() => expect(result.current.messages.map(text)).toEqual(['m3', 'm4', 'm5']));
    await act(() => result.current.loadMore());
    expect(result.current.messages.map(text)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    act(() => {
      im.fromPeer('bob', 'live');
    });
    await waitFor(() => expect(result.current.messages.at(-1)).toMatchObject({ payload: { text: 'live' } }));
    let sending: Promise<unknown> | undefined;
    act(() => {
      sending = result.current.sendText('reply');
    });
    expect(result.current.messages.at(-1)).toMatchObject({ status: 'sending', payload: { text: 'reply' } });
    await act(async () => {
      await sending;
    });
    expect(result.current.messages.at(-1)).toMatchObject({ status: 'success' });
    server.handle('publishIM', () => ({ code: 500, resultCode: 500, content: 'boom' }));
    await act(async () => {
      await result.current.sendText('doomed').catch(() => undefined);
    });
    const failed = result.current.messages.at(-1);
    expect(failed).toMatchObject({ status: 'fail', payload: { text: 'doomed' } });
    server.handle('publishIM', () => ({ code: 200, resultCode: 200, content: { timestamp: 99_999 } }));
    await act(async () => {
      await result.current.retry(failed!);
    });
    expect(result.current.messages.filter((m) => text(m) === 'doomed').map((m) => m.status)).toEqual(['success']);
  });

  it('REACT-5: useTyping lists who types in one chat, and tells the server when I type', async () => {
    const { client, server, wrapper } = setup();
    server.handle('IM_TYPING', () => ({ code: 200, content: null }));
    const { result } = renderHook(() => useTyping({ type: 'group', id: 'g1' }), { wrapper });
    await connected(client);
    expect(result.current.typingUsers).toEqual([]);
    const typing = (userId: string, targetId: string, on: boolean) =>
      act(() => {
        server.push('IM_TYPING', { scene: 'group', targetId, userId, userData: '{"name":"B"}', typing: on });
      });
    typing('bob', 'g1', true);
    typing('carol', 'g2', true);
    await waitFor(() => expect(result.current.typingUsers).toEqual([{ id: 'bob', data: { name: 'B' } }]));
    typing('bob', 'g1', false);
    await waitFor(() => expect(result.current.typingUsers).toEqual([]));
    act(() => result.current.keystroke());
    await waitFor(() => expect(server.requests('IM_TYPING')).toHaveLength(1));
    act(() => result.current.stopTyping());
    await waitFor(() =>
      expect(server.requests('IM_TYPING').map((r) => r.params)).toEqual([
        { scene: 'group', targetId: 'g1', typing: true },
        { scene: 'group', targetId: 'g1', typing: false },
      ]),
    );
  });

  it('REACT-5: usePresence follows presence events', async () => {
    const { client, server, wrapper } = setup();
    server.handle('imHereNow', () => ({ code: 200, content: [{ userId: 'bob', userData: '{}' }] }));
    const { result } = renderHook(() => usePresence(['bob', 'carol']), { wrapper });
    await connected(client);
    await waitFor(() => expect(result.current).toEqual({ bob: true, carol: false }));
    act(() => {
      server.push('userPresence', {
        c: JSON.stringify({ events: [{ userId: 'carol', userData: '{}', time: 1, action: 'online' }] }),
      });
    });
    expect(result.current).toEqual({ bob: true, carol: true });
  });
});

describe('parley-im/react: useUserEvent', () => {
  it('REACT-10: calls the latest handler with each user event of its name, and stops listening once unmounted', async () => {
    const { client, server, wrapper } = setup();
    const seen: Array<[string, unknown]> = [];
    const view = renderHook(
      ({ tag }: { tag: string }) => useUserEvent('notice', (event) => seen.push([tag, event.data])),
      { wrapper, initialProps: { tag: 'first' } },
    );
    await connected(client);
    act(() => server.push('USER_EVENT', { name: 'notice', data: { unread: 1 }, time: 5 }));
    act(() => server.push('USER_EVENT', { name: 'other', data: 2, time: 6 }));
    view.rerender({ tag: 'second' });
    act(() => server.push('USER_EVENT', { name: 'notice', time: 7 }));
    // A malformed push is dropped.
    act(() => server.push('USER_EVENT', { name: 3 }));
    expect(seen).toEqual([
      ['first', { unread: 1 }],
      ['second', null],
    ]);
    expect(client.connection.events.listenerCount('userEvent')).toBe(1);
    view.unmount();
    expect(client.connection.events.listenerCount('userEvent')).toBe(0);
  });
});

function text(m: { payload: unknown }): string {
  return (m.payload as { text: string }).text;
}

function Probe(): ReactNode {
  useConnectionStatus();
  useConversations();
  useMessages({ type: 'private', id: 'bob' });
  return null;
}

function EveryHook(): ReactNode {
  useConnectionStatus();
  useConversations();
  useMessages({ type: 'private', id: 'bob' });
  usePresence(['bob']);
  useGroupPresence('g1');
  useCsTeam('support');
  return null;
}

/** Counts the IM event listeners added through `client.im.on` and not yet removed. */
function countImListeners(client: ParleyClient): () => number {
  const on = client.im.on;
  let active = 0;
  const counted: typeof on = (event, listener) => {
    const off = on(event, listener);
    let removed = false;
    active++;
    return () => {
      if (!removed) active--;
      removed = true;
      off();
    };
  };
  Object.defineProperty(client.im, 'on', { value: counted, configurable: true });
  return () => active;
}

/** Listeners the client's own modules keep for its whole life (not the hooks'). */
function internalListeners(client: ParleyClient): number {
  const fresh = createClient({ host: 'h', appkey: 'k', modules: client.modules });
  return fresh.connection.events.listenerCount('connectionStatus');
}

describe('parley-im/react: switching users', () => {
  it('REACT-6: a provider given another user reconnects as that user', async () => {
    const server = new FakeServer();
    fakeIm(server, 'me');
    const client = createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
    const view = render(createElement(ParleyProvider, { client, user: { id: 'ann', data: {} } }, null));
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    view.rerender(createElement(ParleyProvider, { client, user: { id: 'ben', data: {} } }, null));
    await waitFor(() => expect(client.user?.id).toBe('ben'));
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    expect(server.requests('authorize').map((r) => r.params.userId)).toEqual(['ann', 'ben']);
  });
});
