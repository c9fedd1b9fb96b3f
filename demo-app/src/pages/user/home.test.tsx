// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, shows, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserHome from './home';

const USER = {
  token: 'member-token',
  id: '42',
  username: 'Alice',
  img: '',
  gender: 'female',
  region: 'Hangzhou',
  qianming: 'Coffee, code',
  background: '',
  follows: 3,
  fans: 5,
  likes: 12,
};
const BOB = {
  id: '7',
  username: 'Bob',
  img: '',
  gender: 'male',
  region: '',
  qianming: '',
  background: 'https://files.test/uploads/bg.png',
  blocked: false,
  followed: false,
  follows: 1,
  fans: 2,
  likes: 4,
};

/** Bob as the fake server has him now. */
let bob = { ...BOB };
const blockCalls: unknown[] = [];
/** What reports of members were sent: the member's id and what the report said. */
const reportCalls: Array<{ id: string; content: unknown }> = [];
const followCalls: unknown[] = [];
/** Profile answers wait for this to settle. */
let profileGate: Promise<void> = Promise.resolve();
/** Whose articles were asked for; whether the server has any. */
const articleAuthors: unknown[] = [];
let withArticles = false;
/** Whose circle posts were asked for. */
const postAuthors: unknown[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/quanzi/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    postAuthors.push(body['uid']);
    const author = body['uid'] === BOB.id ? BOB : USER;
    return HttpResponse.json({
      ret: [
        {
          id: `p-${author.id}`,
          content: `${author.username} says hello`,
          imgs: [],
          vote: null,
          topic: null,
          author: { id: author.id, username: author.username, img: '' },
          created_at: Date.now(),
          mine: author.id === USER.id,
        },
      ],
    });
  }),
  http.post('*/index.php/api/article/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    articleAuthors.push(body['uid']);
    if (!withArticles) return HttpResponse.json({ ret: [] });
    const author = body['uid'] === BOB.id ? BOB : USER;
    return HttpResponse.json({
      ret: [
        {
          id: `a-${author.id}`,
          title: `${author.username}'s first article`,
          summary: 'Once upon a time',
          imgs: [],
          author: { id: author.id, username: author.username, img: '' },
          created_at: Date.now(),
        },
      ],
    });
  }),
  http.post('*/index.php/api/member/profile', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    await profileGate;
    if (body['id'] !== BOB.id)
      return HttpResponse.json({ err: 'user does not exist or is blocked', code: 'user_missing' });
    return HttpResponse.json({ ret: bob });
  }),
  http.post('*/index.php/api/member/lahei/uid_s/:id', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    blockCalls.push(body['block']);
    // A block ends the follows between the two.
    bob = { ...bob, blocked: body['block'] === true, ...(body['block'] === true && { followed: false, fans: 2 }) };
    return HttpResponse.json({ ret: { blocked: bob.blocked } });
  }),
  http.post('*/index.php/api/member/jubao_add/type/user/aid/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    reportCalls.push({ id: String(params['id']), content: body['content'] });
    return HttpResponse.json({
      ret: {
        id: 'r1',
        type: 'user',
        target_id: String(params['id']),
        title: bob.username,
        content: body['content'],
        status: 'pending',
        reason: '',
        created_at: Date.now(),
        reviewed_at: null,
      },
    });
  }),
  http.post('*/index.php/api/member/guanzhu/uid_s/:id', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    followCalls.push(body['follow']);
    const followed = body['follow'] === true;
    bob = { ...bob, followed, fans: followed ? 3 : 2 };
    return HttpResponse.json({ ret: { followed, fans: bob.fans } });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  blockCalls.length = 0;
  reportCalls.length = 0;
  followCalls.length = 0;
  articleAuthors.length = 0;
  withArticles = false;
  postAuthors.length = 0;
  bob = { ...BOB };
  profileGate = Promise.resolve();
});
afterEach(() => cleanup());
afterAll(() => api.close());

async function click(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
    await Promise.resolve();
  });
}

/** The count `tab` ('follows' or 'fans') shows. */
const count = (tab: string) => screen.getByTestId(`count-${tab}`).querySelector('strong')?.textContent;

describe('user/home', () => {
  it("lists the member's articles under the profile, one's own and another's", async () => {
    withArticles = true;
    renderApp(<UserHome />, { path: '/user/home' });
    await shows("Alice's first article");
    cleanup();
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows("Bob's first article");
    expect(articleAuthors).toEqual([USER.id, BOB.id]);
  });

  it("shows the member's circle posts in the Posts tab", async () => {
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('No articles yet');
    expect(postAuthors).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: 'Posts' }));
      await Promise.resolve();
    });
    await shows('Bob says hello');
    expect(postAuthors).toEqual([BOB.id]);
    expect(screen.queryByText('No articles yet')).toBeNull();
  });

  it("shows the member's own profile without an id, with a way to edit it", () => {
    renderApp(<UserHome />, { path: '/user/home' });
    expect(screen.getByText('My profile')).toBeTruthy();
    expect(screen.getByText('Alice')).toBeTruthy();
    expect(screen.getByText('Female · Hangzhou')).toBeTruthy();
    expect(screen.getByText('Coffee, code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit profile' })).toBeTruthy();
    expect([count('follows'), count('fans'), count('likes')]).toEqual(['3', '5', '12']);
    expect(screen.getByTestId('count-likes').textContent).toBe('12Likes');
  });

  it("opens the follow lists from the counts: one's own without an id, another's with theirs", async () => {
    const routes = (
      <Routes>
        <Route path="/user/home" element={<UserHome />} />
        <Route path="*" element={<Where />} />
      </Routes>
    );
    renderApp(routes, { path: '/user/home' });
    await act(async () => {
      fireEvent.click(screen.getByTestId('count-fans'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/member/guanzhu?tab=fans');
    cleanup();
    renderApp(routes, { path: '/user/home?id=7' });
    await shows('Bob');
    await act(async () => {
      fireEvent.click(screen.getByTestId('count-follows'));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/member/guanzhu?id=7');
  });

  it('follows another member, and unfollows them after asking; the fan count follows', async () => {
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    expect([count('follows'), count('fans'), count('likes')]).toEqual(['1', '2', '4']);
    await click('Follow');
    await shows('Followed');
    await vi.waitFor(() => expect(count('fans')).toBe('3'));
    await click('Following');
    await shows('Unfollow this user?');
    await click('Unfollow');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Follow' })).toBeTruthy());
    expect(count('fans')).toBe('2');
    expect(followCalls).toEqual([true, false]);
  });

  it("shows another member's profile over their background, and blocks and unblocks them", async () => {
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    expect(screen.getByText('Male')).toBeTruthy();
    expect(screen.getByText('No signature yet')).toBeTruthy();
    expect(screen.getByTestId('home-head').style.backgroundImage).toBe(`url("${BOB.background}")`);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(false);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Block' }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toContain('You blocked this user'));
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(true),
    );
    // Blocked members cannot be followed.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Follow' }).disabled).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Unblock' }));
      await Promise.resolve();
    });
    await vi.waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Message' }).disabled).toBe(false),
    );
    expect(blockCalls).toEqual([true, false]);
  });

  it('a block of a member one follows unfollows them and drops their fan count at once, before the profile reloads', async () => {
    bob = { ...BOB, followed: true, fans: 3 };
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    expect(count('fans')).toBe('3');
    let reload = () => {};
    profileGate = new Promise((resolve) => (reload = resolve));
    await click('Block');
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toContain('You blocked this user'));
    expect(count('fans')).toBe('2');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Follow' }).disabled).toBe(true);
    reload();
    await vi.waitFor(() => expect(blockCalls).toEqual([true]));
    expect(count('fans')).toBe('2');
  });

  it('reports another member, blocked or not, with a reason and words; not oneself nor one who is not', async () => {
    renderApp(<UserHome />, { path: '/user/home' });
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    cleanup();
    renderApp(<UserHome />, { path: '/user/home?id=999' });
    await shows('The user does not exist or is blocked');
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    cleanup();
    bob = { ...BOB, blocked: true };
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    await click('Report');
    await shows('Report this member');
    await act(async () => {
      fireEvent.click(screen.getByText('Abuse or harassment'));
      await Promise.resolve();
    });
    fireEvent.change(screen.getByLabelText('Tell us more (optional)'), { target: { value: 'a rude nickname' } });
    await click('Send report');
    await shows('Reported: we will review it');
    expect(reportCalls).toEqual([{ id: BOB.id, content: 'Abuse or harassment: a rude nickname' }]);
  });

  it('marks a certified member with the Verified badge, and no one else', async () => {
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Bob');
    expect(screen.queryByTestId('verified')).toBeNull();
    cleanup();
    bob = { ...BOB, shiming: 1 } as typeof bob;
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    await shows('Verified');
  });

  it('says when the member does not exist', async () => {
    renderApp(<UserHome />, { path: '/user/home?id=999' });
    await shows('The user does not exist or is blocked');
  });

  it('asks a visitor to sign in', () => {
    localStorage.clear();
    renderApp(<UserHome />, { path: '/user/home?id=7' });
    expect(screen.getByText('Sign in to see profiles')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in / Sign up' })).toBeTruthy();
  });
});
