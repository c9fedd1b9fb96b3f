// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FollowedMember } from '../../features/member/follows';
import { renderApp, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import FindFriends from './user_list';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

const member = (id: string, username: string, followed = false): FollowedMember => ({
  id,
  username,
  img: '',
  qianming: '',
  created_at: 0,
  followed,
});
/** The fake server's members, newest first. */
let members: FollowedMember[] = [];
const searches: Array<Record<string, unknown>> = [];
const follows: unknown[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/user_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    searches.push(body);
    const keyword = typeof body['keyword'] === 'string' ? body['keyword'].toLowerCase() : '';
    return HttpResponse.json({ ret: members.filter((m) => m.username.toLowerCase().includes(keyword)) });
  }),
  http.post('*/index.php/api/member/guanzhu/uid_s/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    follows.push([params['id'], body['follow']]);
    members = members.map((m) => (m.id === params['id'] ? { ...m, followed: body['follow'] === true } : m));
    return HttpResponse.json({ ret: { followed: body['follow'] === true, fans: 1 } });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  members = [member('7', 'Bob Chen'), member('8', 'bobby', true), member(USER.id, 'Alice')];
  searches.length = 0;
  follows.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

async function shows(text: string) {
  await vi.waitFor(() => expect(screen.getByText(text)).toBeTruthy(), { timeout: 2000 });
}

describe('user/user_list: find friends', () => {
  it('shows the newest members first, oneself without a button', async () => {
    renderApp(<FindFriends />);
    await shows('Bob Chen');
    expect(searches).toEqual([expect.not.objectContaining({ keyword: expect.anything() as unknown })]);
    const own = screen.getAllByTestId('follow-line')[2] as HTMLElement;
    expect(within(own).queryByRole('button')).toBeNull();
  });

  it('searches once typing pauses, and follows someone found', async () => {
    renderApp(<FindFriends />);
    await shows('Bob Chen');
    const box = screen.getByRole('searchbox');
    for (const typed of ['b', 'bo', 'bob']) fireEvent.change(box, { target: { value: typed } });
    await vi.waitFor(() => expect(searches.at(-1)).toMatchObject({ keyword: 'bob' }), { timeout: 2000 });
    // One search for the pause, none for each key.
    expect(searches.filter((s) => s['keyword'] !== undefined)).toHaveLength(1);
    // The found ones replace the newest members once they are in.
    await vi.waitFor(() => {
      expect(screen.queryByText('Alice')).toBeNull();
      expect(screen.getAllByTestId('follow-line')).toHaveLength(2);
    });

    const bob = screen.getAllByTestId('follow-line')[0] as HTMLElement;
    await act(async () => {
      fireEvent.click(within(bob).getByRole('button', { name: 'Follow' }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(within(bob).getByRole('button', { name: 'Following' })).toBeTruthy());
    expect(follows).toEqual([['7', true]]);
  });

  it('starts from the words of a search', async () => {
    renderApp(<FindFriends />, { path: '/user/user_list?keyword=bob' });
    await vi.waitFor(() => expect(searches).toHaveLength(1));
    expect(searches[0]).toMatchObject({ keyword: 'bob' });
    expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe('bob');
  });

  it('says when no one is found', async () => {
    renderApp(<FindFriends />);
    await shows('Bob Chen');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'zed' } });
    await shows('No one found');
  });

  it('asks a visitor to sign in', () => {
    localStorage.clear();
    renderApp(<FindFriends />);
    expect(screen.getByText('Sign in to find friends')).toBeTruthy();
    expect(searches).toEqual([]);
  });
});
