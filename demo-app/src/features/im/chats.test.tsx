// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installAntdRender } from '../../ui/antd-render';
import { renderApp, step, NO_ADS } from '../../test-utils';
import { GroupChat, PrivateChat } from './chats';
import { fakeChat } from './fake-chat';

/** Calls of `member/lahei/uid_s/{id}`: the member and the state asked for. */
const blockCalls: Array<{ id: string; block: unknown }> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/lahei/uid_s/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    blockCalls.push({ id: String(params['id']), block: body['block'] });
    return HttpResponse.json({ ret: { blocked: body['block'] === true } });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.setItem('user', JSON.stringify({ token: 'member-token', id: 'me', username: 'Me', img: '' }));
  blockCalls.length = 0;
});
afterEach(cleanup);
afterAll(() => api.close());

/** Does `work` and lets what it started (calls, renders) settle. */

const presenceLine = () => screen.getByTestId('group-presence').textContent;

describe('group chat', () => {
  it('joins the group, shows who is online and follows presence; closing stops presence, not membership', async () => {
    const chat = fakeChat();
    chat.groupOnline('g1', [
      { id: 'me', name: 'Me' },
      { id: 'bob', name: 'Bob' },
    ]);
    const view = renderApp(chat.provide(<GroupChat gid="g1" emoji={undefined} />));
    await waitFor(() => expect(presenceLine()).toBe('2 online · Me, Bob'));
    expect(screen.getByText('Group g1')).toBeTruthy();
    expect(chat.server.requests('subscribeGroups').map((r) => r.params.groupIds)).toEqual([['g1']]);
    expect(chat.server.requests('subscribeGroupPresence').map((r) => r.params.groupIds)).toEqual([['g1']]);

    act(() => chat.groupPresence('g1', { action: 'online', id: 'carol', name: 'Carol', count: 3 }));
    expect(presenceLine()).toBe('3 online · Me, Bob, Carol');
    act(() => chat.groupPresence('g1', { action: 'leave', id: 'bob', name: 'Bob', count: 2 }));
    act(() => chat.groupPresence('g2', { action: 'online', id: 'dan', name: 'Dan', count: 7 }));
    expect(presenceLine()).toBe('2 online · Me, Carol');

    view.unmount();
    // Still a member: the group's messages keep coming after the page closes.
    expect(chat.server.requests('unsubscribeGroup')).toEqual([]);
    expect(chat.server.requests('unsubscribeGroupPresence').map((r) => r.params)).toEqual([{ groupId: 'g1' }]);
  });

  it('reads the online count in Chinese', async () => {
    const chat = fakeChat();
    chat.groupOnline('g1', []);
    renderApp(chat.provide(<GroupChat gid="g1" emoji={undefined} />), { language: 'zh-CN' });
    await waitFor(() => expect(presenceLine()).toBe('0 人在线 · 暂无成员在线'));
  });
});

describe('private chat', () => {
  it('shows whether the other user is online, and follows their presence', async () => {
    const chat = fakeChat();
    chat.server.handle('imHereNow', () => ({ code: 200, content: [{ userId: 'bob', userData: '{}' }] }));
    renderApp(chat.provide(<PrivateChat uid="bob" emoji={undefined} />));
    await waitFor(() => expect(screen.getByTestId('presence').textContent).toBe('Online'));
    act(() => {
      chat.server.push('userPresence', {
        c: JSON.stringify({ events: [{ userId: 'bob', userData: '{}', time: 1, action: 'offline' }] }),
      });
    });
    expect(screen.getByTestId('presence').textContent).toBe('Offline');
  });
});

describe('blocking in a private chat', () => {
  it('blocks from the menu, then says so with a way to unblock', async () => {
    const chat = fakeChat();
    const view = renderApp(chat.provide(<PrivateChat uid="bob" emoji={undefined} />));
    // The profile as member/profile answers it (queries do not fetch in these tests).
    await act(async () => {
      view.queryClient.setQueryData(['member/profile', 'bob'], { id: 'bob', username: 'Bob', img: '', blocked: false });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(screen.queryByText(/You blocked this user/)).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'More' })));
    await step(() => fireEvent.click(screen.getByText('Block')));
    await waitFor(() => expect(screen.getByText(/You blocked this user/)).toBeTruthy());
    expect(blockCalls).toEqual([{ id: 'bob', block: true }]);

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Unblock' })));
    await waitFor(() => expect(screen.queryByText(/You blocked this user/)).toBeNull());
    expect(blockCalls).toEqual([
      { id: 'bob', block: true },
      { id: 'bob', block: false },
    ]);
  });
});
