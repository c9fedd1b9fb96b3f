// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { ConversationList } from './ConversationList';
import { fakeChat, type FakeChat } from './fake-chat';

beforeAll(() => {
  installAntdRender();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify({ token: 't', id: 'me', username: 'Me', img: '' }));
});
afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function open(chat: FakeChat, language: 'en' | 'zh-CN' = 'en') {
  return renderApp(
    chat.provide(
      <Routes>
        <Route path="/im/index" element={<ConversationList />} />
        <Route path="*" element={<Where />} />
      </Routes>,
    ),
    { path: '/im/index', language },
  );
}

const rows = () => screen.queryAllByTestId('conversation');
const names = () => rows().map((row) => row.querySelector('.adm-list-item-content-main')?.firstChild?.textContent);

/** A group conversation whose last message is Bob's image. */
function groupWithImage(chat: FakeChat) {
  const lmsg = {
    t: 'group',
    r: 'g1',
    s: 'bob',
    i: 'img-1',
    ts: 5000,
    mt: 'image',
    p: JSON.stringify({ url: 'https://files.test/a.png', name: 'a.png', size: 1, contentType: 'image/png' }),
    d: JSON.stringify({ name: 'Bob' }),
  };
  chat.server.handle('imLastConversations', () => ({
    code: 200,
    content: [{ t: 'group', top: false, d: JSON.stringify({ name: 'Hikers' }), userOffsets: [], lmsg, unread: 1 }],
  }));
}

describe('conversation list', () => {
  it('pins and removes conversations with the swipe actions', async () => {
    const chat = fakeChat();
    chat.im.fromPeer('bob', 'older', false);
    chat.im.fromPeer('carol', 'newer', false);
    open(chat);
    await waitFor(() => expect(names()).toEqual(['carol', 'bob']));

    const bob = rows()[1]!.closest('.adm-swipe-action') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(bob).getByText('Pin'));
      await Promise.resolve();
    });
    await waitFor(() => expect(names()).toEqual(['bob', 'carol']));
    expect(chat.server.requests('topConversation').map((r) => r.params)).toEqual([
      { type: 'private', top: true, targetId: 'bob' },
    ]);
    expect(within(rows()[0]!.closest('.adm-swipe-action') as HTMLElement).getByText('Unpin')).toBeTruthy();

    const carol = rows()[1]!.closest('.adm-swipe-action') as HTMLElement;
    await act(async () => {
      fireEvent.click(within(carol).getByText('Delete'));
      await Promise.resolve();
    });
    await waitFor(() => expect(names()).toEqual(['bob']));
    expect(chat.server.requests('removeConversation').map((r) => r.params)).toEqual([
      { type: 'private', targetId: 'carol' },
    ]);
  });

  it('shows a media message as "[Image]" in the user\'s language, and a group row opens the group chat', async () => {
    const chat = fakeChat();
    groupWithImage(chat);
    open(chat, 'zh-CN');
    const row = await screen.findByText('Hikers');
    expect(rows()[0]?.textContent).toContain('[图片]');
    fireEvent.click(row);
    expect(screen.getByTestId('where').textContent).toBe('/im/view?gid=g1');
  });

  it('says when the list could not be loaded, and loads it again on retry', async () => {
    const chat = fakeChat();
    chat.server.handle('imLastConversations', () => ({ code: 500, resultCode: 500, content: 'Internal server error' }));
    open(chat);
    expect(await screen.findByText('Could not load your conversations')).toBeTruthy();
    expect(screen.getByText('Operation failed')).toBeTruthy();
    expect(screen.queryByText('Internal server error')).toBeNull();

    groupWithImage(chat);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
      await Promise.resolve();
    });
    expect(await screen.findByText('Hikers')).toBeTruthy();
    expect(rows()[0]?.textContent).toContain('[Image]');
    expect(screen.queryByText('Could not load your conversations')).toBeNull();
  });
});
