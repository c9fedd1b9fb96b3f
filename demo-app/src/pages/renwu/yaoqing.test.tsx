// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { invitationLink, type InvitationInfo, type InvitedFriend } from '../../features/tasks/invitations';
import { renderApp, shows, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import InviteFriends from './yaoqing';

const USER = { token: 'member-token', id: '42424242', username: 'Alice', img: '' };

/** The fake server's state. */
let info: InvitationInfo;
let friends: InvitedFriend[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/renwu/yaoqing_info', () => HttpResponse.json({ ret: info })),
  http.post('*/index.php/api/renwu/yaoqing_list', () => HttpResponse.json({ ret: friends })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  info = { code: USER.id, invited: 0, coins: 0, rules: { coins: 100, daily_max: 10 } };
  friends = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPage() {
  return renderApp(
    <Routes>
      <Route path="/renwu/yaoqing" element={<InviteFriends />} />
      <Route path="/user/home" element={<p>a home</p>} />
    </Routes>,
    { path: '/renwu/yaoqing' },
  );
}

const click = (name: string) =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
    await Promise.resolve();
  });

describe('renwu/yaoqing: invite friends', () => {
  it('shows the code and the rules, and copies the invitation link', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage();
    await shows('100 gold coins for each friend who signs up with your code');
    expect(screen.getByTestId('invite-code').textContent).toBe(USER.id);
    expect(screen.getByTestId('invite-summary').textContent).toBe('0 friends invited · 0 coins earned');
    expect(
      screen.getByText(
        'A friend who signs up with your link or code earns you 100 gold coins, for up to 10 friends in 24 hours. A phone number can be invited once.',
      ),
    ).toBeTruthy();
    await shows('No friends invited yet');
    // No share sheet in this browser.
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    await click('Copy the invitation link');
    expect(writeText).toHaveBeenCalledWith(invitationLink(USER.id));
    await shows('Link copied: send it to a friend');
  });

  it('shows the link itself when it cannot be copied, and shares it where the system can', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText }, share });
    renderPage();
    await shows('Copy the invitation link');
    await click('Copy the invitation link');
    await shows(`Could not copy: the link is ${invitationLink(USER.id)}`);
    await click('Share');
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: invitationLink(USER.id) }));
  });

  it('lists the friends invited: the coins each paid, none past the daily limit, a cancelled one unnamed', async () => {
    info = { ...info, invited: 3, coins: 100 };
    friends = [
      { id: '1', username: 'Bob', img: '', coins: 100, created_at: 3_000 },
      { id: '2', username: 'Carol', img: '', coins: 0, created_at: 2_000 },
      { id: '3', username: '', img: '', coins: 100, created_at: 1_000 },
    ];
    renderPage();
    await shows('Bob');
    expect(screen.getByTestId('invite-summary').textContent).toBe('3 friends invited · 100 coins earned');
    expect(screen.getAllByTestId('invited')).toHaveLength(3);
    expect(screen.getByText('Over the daily limit')).toBeTruthy();
    expect(screen.getByText('Cancelled account')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByText('Bob'));
      await Promise.resolve();
    });
    await shows('a home');
  });

  it('builds the link on the host and path that serve the app', () => {
    expect(invitationLink('123', { origin: 'https://chat.example.com', pathname: '/h5/' })).toBe(
      'https://chat.example.com/h5/#/user/login?invite=123',
    );
  });
});
