// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FollowedMember } from '../../features/member/follows';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Follows from './guanzhu';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's lists, newest first, by owner and type. */
let lists: Record<string, FollowedMember[]> = {};
const asked: Array<Record<string, unknown>> = [];
const follows: Array<[string, unknown]> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/guanzhu_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    asked.push(body);
    const owner = typeof body['id'] === 'string' ? body['id'] : USER.id;
    const key = `${owner}:${String(body['type'])}`;
    if (body['id'] === 'gone')
      return HttpResponse.json({ err: 'user does not exist or is blocked', code: 'user_missing' });
    const list = lists[key] ?? [];
    const before = body['before'];
    const from = typeof before === 'string' ? list.findIndex((m) => m.id === before) + 1 : 0;
    return HttpResponse.json({ ret: list.slice(from, from + 20) });
  }),
  http.post('*/index.php/api/member/guanzhu/uid_s/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const id = String(params['id']);
    follows.push([id, body['follow']]);
    for (const list of Object.values(lists)) {
      for (const line of list) if (line.id === id) line.followed = body['follow'] === true;
    }
    const mine = `${USER.id}:follows`;
    if (body['follow'] === false) lists[mine] = (lists[mine] ?? []).filter((m) => m.id !== id);
    return HttpResponse.json({ ret: { followed: body['follow'] === true, fans: 1 } });
  }),
  http.post('*/index.php/api/member/profile', () =>
    HttpResponse.json({ ret: { id: '7', username: 'Bob', img: '', follows: 1, fans: 2 } }),
  ),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  lists = {};
  asked.length = 0;
  follows.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const line = (n: number, followed = true): FollowedMember => ({
  id: `m${n}`,
  username: `User ${n}`,
  img: '',
  qianming: n === 0 ? 'Hello there' : '',
  created_at: 1_000 - n,
  followed,
});

function renderAt(path: string) {
  return renderApp(
    <Routes>
      <Route path="/member/guanzhu" element={<Follows />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

describe('member/guanzhu: follows and followers', () => {
  it('says when the member follows no one, and where to follow someone', async () => {
    renderAt('/member/guanzhu');
    await shows('Not following anyone yet');
    expect(screen.getByText('Follow people from their profile to see them here')).toBeTruthy();
    expect(asked).toEqual([expect.objectContaining({ type: 'follows', token: USER.token })]);
    expect(asked[0]).not.toHaveProperty('id');
  });

  it('lists whom the member follows twenty at a time; unfollowing asks first', async () => {
    // A member who cancelled their account shows by id.
    lists[`${USER.id}:follows`] = Array.from({ length: 22 }, (_, n) =>
      n === 1 ? { ...line(1), username: '' } : line(n),
    );
    renderAt('/member/guanzhu');
    await shows('User 0');
    expect(screen.getByText('Hello there')).toBeTruthy();
    expect(screen.getByText('User m1')).toBeTruthy();
    expect(screen.getAllByTestId('follow-line')).toHaveLength(20);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await shows('User 21');
    expect(asked.map((body) => body['before'])).toEqual([undefined, 'm19']);

    const first = screen.getAllByTestId('follow-line')[0] as HTMLElement;
    await step(() => fireEvent.click(within(first).getByRole('button', { name: 'Following' })));
    await shows('Unfollow this user?');
    // Cancelling changes nothing.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    await vi.waitFor(() => expect(screen.queryByText('Unfollow this user?')).toBeNull());
    expect(follows).toEqual([]);
    await step(() => fireEvent.click(within(first).getByRole('button', { name: 'Following' })));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Unfollow' })));
    await shows('Unfollowed');
    await vi.waitFor(() => expect(screen.queryByText('User 0')).toBeNull());
    expect(follows).toEqual([['m0', false]]);
  });

  it('lists followers on the second tab, to follow back; mutual follows say so', async () => {
    lists[`${USER.id}:fans`] = [line(1, false), line(2, true)];
    renderAt('/member/guanzhu?tab=fans');
    await shows('User 1');
    const [one, two] = screen.getAllByTestId('follow-line') as [HTMLElement, HTMLElement];
    expect(within(two).getByRole('button', { name: 'Mutual' })).toBeTruthy();
    await step(() => fireEvent.click(within(one).getByRole('button', { name: 'Follow back' })));
    await shows('Followed');
    await vi.waitFor(() => expect(within(one).getByRole('button', { name: 'Mutual' })).toBeTruthy());
    expect(follows).toEqual([['m1', true]]);

    // The other tab reads the other list.
    await step(() => fireEvent.click(screen.getByRole('tab', { name: 'Following' })));
    await shows('Not following anyone yet');
    expect(asked.map((body) => body['type'])).toContain('follows');
  });

  it("shows another member's lists under their name; a line opens that member's home, and one's own has no button", async () => {
    lists['7:follows'] = [{ ...line(5, false), id: USER.id, username: 'Alice' }, line(6, false)];
    renderAt('/member/guanzhu?id=7');
    await shows("Bob's follows");
    await shows('User 6');
    expect(asked[0]).toMatchObject({ id: '7', type: 'follows' });
    const [me, other] = screen.getAllByTestId('follow-line') as [HTMLElement, HTMLElement];
    expect(within(me).queryByRole('button')).toBeNull();
    expect(within(other).getByRole('button', { name: 'Follow' })).toBeTruthy();
    await step(() => fireEvent.click(other));
    expect(screen.getByTestId('where').textContent).toBe('/user/home?id=m6');
  });

  it('says why a list cannot be read, with a retry', async () => {
    renderAt('/member/guanzhu?id=gone');
    await shows('The user does not exist or is blocked');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
