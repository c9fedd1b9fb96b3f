// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePost, fakeVote } from '../../features/circle/fake-posts';
import type { CirclePost } from '../../features/circle/posts';
import { renderApp, shows, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import VotePage from './vote';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The post this page shows: a question with a running vote. */
const post = (extra: Partial<CirclePost> = {}): CirclePost =>
  fakePost(1, { content: 'Where next?', vote: fakeVote(), ...extra });

let shown: CirclePost | undefined;
const asked: Array<{ path: string; body: Record<string, unknown> }> = [];
const api = setupServer(
  http.post('*/index.php/api/quanzi/:path', async ({ request, params }) => {
    const path = params['path'] as string;
    const body = (await request.json()) as Record<string, unknown>;
    asked.push({ path, body });
    if (!shown || body['id'] !== shown.id) {
      return HttpResponse.json({ err: 'content does not exist or was deleted by the author', code: 'post_missing' });
    }
    if (path === 'vote' && shown.vote) {
      const option = body['option'] as number;
      const options = shown.vote.options.map((o, i) => (i === option ? { ...o, count: o.count + 1 } : o));
      shown = { ...shown, vote: { ...shown.vote, options, total: shown.vote.total + 1, voted: option } };
    }
    return HttpResponse.json({ ret: shown });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  shown = post();
  asked.length = 0;
  localStorage.clear();
});
afterEach(() => cleanup());
afterAll(() => api.close());

const open = (query: string) =>
  renderApp(
    <>
      <Routes>
        <Route path="/public/vote" element={<VotePage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
    </>,
    { path: `/public/vote${query}` },
  );

/** Lets the page's query run, as the app's client does by itself (these tests' client runs none on its own). */
async function loaded(result: ReturnType<typeof open>) {
  await step(() => result.queryClient.refetchQueries({ type: 'all' }));
}

describe('public/vote: a post’s vote on a page of its own', () => {
  it('shows the post and its options; a member votes once and sees the results', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    const page = open('?id=p1');
    await loaded(page);
    await shows('Where next?');
    expect(screen.getByTestId('post-title').textContent).toBe('Title of post 1');
    expect(screen.getByText('Bob')).toBeTruthy();
    expect(asked[0]).toEqual({
      path: 'view',
      body: expect.objectContaining({ id: 'p1', token: USER.token }) as unknown,
    });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Sea' })));
    await shows('✓ my vote');
    expect(asked.filter((a) => a.path === 'vote')).toEqual([
      { path: 'vote', body: expect.objectContaining({ id: 'p1', option: 1, token: USER.token }) as unknown },
    ]);
    expect(screen.getByText('5 votes', { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Hills' })).toBeNull();
  });

  it('sends a visitor to sign in to vote; shows an ended vote’s results', async () => {
    const page = open('?id=p1');
    await loaded(page);
    await shows('Where next?');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Hills' })));
    expect(screen.getByTestId('where').textContent).toContain('/user/login');
    cleanup();

    shown = post({ vote: { ...(post().vote as NonNullable<CirclePost['vote']>), ended: true } });
    await loaded(open('?id=p1'));
    await shows(/the vote has ended/);
    expect(screen.queryByRole('button', { name: 'Hills' })).toBeNull();
  });

  it('says so for a post that is gone, one without a vote, and a link without an id', async () => {
    const gone = open('?id=nope');
    await loaded(gone);
    await shows('Content does not exist or was deleted by the author');
    cleanup();

    shown = post({ vote: null, title: '' });
    await loaded(open('?id=p1'));
    await shows('This post has no vote');
    expect(screen.queryByTestId('post-title')).toBeNull();
    cleanup();

    open('');
    await shows('Link does not exist');
    await vi.waitFor(() => expect(asked.filter((a) => a.body['id'] !== 'nope')).toHaveLength(1));
  });
});
