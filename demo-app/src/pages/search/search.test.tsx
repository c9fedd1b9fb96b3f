// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakePost } from '../../features/circle/fake-posts';
import { SEARCH_HISTORY_KEY, rememberSearch, searchHistory } from '../../features/search/history';
import { renderApp, shows, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Search from './index';
import SearchResults from './list';

/** The keywords the fake server was asked for, by path. */
const asked: Record<string, unknown[]> = {};

/** An article card as the lists answer it, by Bob; `extra` for a video's. */
const card = (id: string, title: string, summary: string, extra: object = {}) => ({
  id,
  title,
  summary,
  imgs: [],
  author: { id: '7', username: 'Bob', img: '' },
  created_at: Date.now(),
  likes: 0,
  comments: 0,
  liked: false,
  ...extra,
});

/** A search path of the fake server: it records the keyword, and answers `found` for "lake", nothing otherwise. */
const searched = (path: string, found: unknown[]) =>
  http.post(`*/index.php/api/${path}`, async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    (asked[path] ??= []).push(body['keyword']);
    return HttpResponse.json({ ret: body['keyword'] === 'lake' ? found : [] });
  });

const api = setupServer(
  NO_ADS,
  searched('article/list', [card('a1', 'A day at the lake', 'Cold water')]),
  searched('video/lists', [
    card('v1', 'The lake from above', 'A drone', {
      video: { url: 'https://files.test/v1.mp4', cover: 'https://files.test/v1.png' },
    }),
  ]),
  searched('quanzi/list', [fakePost(1, { title: 'Lake run', content: 'Five laps around the lake' })]),
  searched('shop/list', [
    {
      id: 'g1',
      shop_id: 's1',
      typeid: 'c1',
      title: 'Lake tea',
      price: 9.9,
      stock: 3,
      images: ['https://files.test/g1.png'],
      status: 'on_sale',
      reason: '',
      created_at: Date.now(),
    },
  ]),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  for (const path of Object.keys(asked)) delete asked[path];
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/search/index" element={<Search />} />
      <Route path="/search/list" element={<SearchResults />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

describe('search', () => {
  it('searches, remembers the search, and finds the articles holding the words', async () => {
    renderPages('/search/index');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: ' lake ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
      await Promise.resolve();
    });
    await shows('Results for “lake”');
    await shows('A day at the lake');
    expect(asked['article/list']).toEqual(['lake']);
    expect(searchHistory()).toEqual(['lake']);
    // The videos' tab asks for videos holding the words.
    expect(asked['video/lists'] ?? []).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByText('Videos'));
      await Promise.resolve();
    });
    await shows('The lake from above');
    expect(asked['video/lists']).toEqual(['lake']);
    expect(screen.queryByText('A day at the lake')).toBeNull();
    // And the circle posts' tab for posts.
    await act(async () => {
      fireEvent.click(screen.getByText('Posts'));
      await Promise.resolve();
    });
    await shows('Five laps around the lake');
    expect(asked['quanzi/list']).toEqual(['lake']);
    // And the products' tab for products.
    await act(async () => {
      fireEvent.click(screen.getByText('Products'));
      await Promise.resolve();
    });
    await shows('Lake tea');
    expect(asked['shop/list']).toEqual(['lake']);
  });

  it('says when no video holds the words', async () => {
    renderPages('/search/list?keyword=mountain');
    await act(async () => {
      fireEvent.click(await screen.findByText('Videos'));
      await Promise.resolve();
    });
    await shows('No videos hold “mountain”');
    expect(asked['video/lists']).toEqual(['mountain']);
  });

  it('lists the recent searches, searches one again, and clears them', async () => {
    rememberSearch('mountain');
    rememberSearch('lake');
    renderPages('/search/index');
    expect(screen.getAllByTestId('recent-search').map((line) => line.textContent)).toEqual(['lake', 'mountain']);
    await act(async () => {
      fireEvent.click(screen.getByText('mountain'));
      await Promise.resolve();
    });
    await shows('No articles hold “mountain”');
    expect(searchHistory()).toEqual(['mountain', 'lake']);
    cleanup();
    renderPages('/search/index');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
      await Promise.resolve();
    });
    expect(screen.queryAllByTestId('recent-search')).toHaveLength(0);
    expect(localStorage.getItem(SEARCH_HISTORY_KEY)).toBeNull();
  });

  it('opens the member search with the same words', async () => {
    renderPages('/search/list?keyword=lake');
    await shows('A day at the lake');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Members named “lake”' }));
      await Promise.resolve();
    });
    expect(screen.getByTestId('where').textContent).toBe('/user/user_list?keyword=lake');
  });

  it('keeps ten recent searches, each once, and ignores what is stored wrong', () => {
    for (let i = 0; i < 12; i += 1) rememberSearch(`word ${i}`);
    rememberSearch('word 5');
    const recent = searchHistory();
    expect(recent).toHaveLength(10);
    expect(recent[0]).toBe('word 5');
    expect(recent.filter((word) => word === 'word 5')).toHaveLength(1);
    localStorage.setItem(SEARCH_HISTORY_KEY, '{not json');
    expect(searchHistory()).toEqual([]);
    localStorage.setItem(SEARCH_HISTORY_KEY, JSON.stringify([1, 'lake']));
    expect(searchHistory()).toEqual(['lake']);
  });
});
