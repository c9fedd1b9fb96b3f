// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-utils';
import { GroupChat, PrivateChat } from './chats';
import { fakeChat } from './fake-chat';

afterEach(cleanup);

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
