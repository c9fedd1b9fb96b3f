// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEARCH_HISTORY_KEY, rememberSearch, searchHistory } from '../../features/search/history';
import { renderApp, shows, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Search from './index';
import SearchResults from './list';

/** The keywords the fake server was asked for. */
const asked: unknown[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/article/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    asked.push(body['keyword']);
    const found = body['keyword'] === 'lake';
    return HttpResponse.json({
      ret: found
        ? [
            {
              id: 'a1',
              title: 'A day at the lake',
              summary: 'Cold water',
              imgs: [],
              author: { id: '7', username: 'Bob', img: '' },
              created_at: Date.now(),
              likes: 0,
              comments: 0,
              liked: false,
            },
          ]
        : [],
    });
  }),
  http.post('*/index.php/api/quanzi/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    postsAsked.push(body['keyword']);
    return HttpResponse.json({
      ret:
        body['keyword'] === 'lake'
          ? [
              {
                id: 'p1',
                title: 'Lake run',
                content: 'Five laps around the lake',
                imgs: [],
                video: null,
                vote: null,
                topic: null,
                author: { id: '7', username: 'Bob', img: '' },
                created_at: Date.now(),
                likes: 0,
                comments: 0,
                liked: false,
                mine: false,
              },
            ]
          : [],
    });
  }),
  http.post('*/index.php/api/shop/list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    productsAsked.push(body['keyword']);
    return HttpResponse.json({
      ret:
        body['keyword'] === 'lake'
          ? [
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
            ]
          : [],
    });
  }),
  http.post('*/index.php/api/video/lists', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    videosAsked.push(body['keyword']);
    return HttpResponse.json({
      ret:
        body['keyword'] === 'lake'
          ? [
              {
                id: 'v1',
                title: 'The lake from above',
                summary: 'A drone',
                imgs: [],
                author: { id: '7', username: 'Bob', img: '' },
                created_at: Date.now(),
                likes: 0,
                comments: 0,
                liked: false,
                video: { url: 'https://files.test/v1.mp4', cover: 'https://files.test/v1.png' },
              },
            ]
          : [],
    });
  }),
);
/** The keywords the fake server was asked for videos, and for posts. */
const videosAsked: unknown[] = [];
const postsAsked: unknown[] = [];
const productsAsked: unknown[] = [];

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  asked.length = 0;
  videosAsked.length = 0;
  postsAsked.length = 0;
  productsAsked.length = 0;
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
    expect(asked).toEqual(['lake']);
    expect(searchHistory()).toEqual(['lake']);
    // The videos' tab asks for videos holding the words.
    expect(videosAsked).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByText('Videos'));
      await Promise.resolve();
    });
    await shows('The lake from above');
    expect(videosAsked).toEqual(['lake']);
    expect(screen.queryByText('A day at the lake')).toBeNull();
    // And the circle posts' tab for posts.
    await act(async () => {
      fireEvent.click(screen.getByText('Posts'));
      await Promise.resolve();
    });
    await shows('Five laps around the lake');
    expect(postsAsked).toEqual(['lake']);
    // And the products' tab for products.
    await act(async () => {
      fireEvent.click(screen.getByText('Products'));
      await Promise.resolve();
    });
    await shows('Lake tea');
    expect(productsAsked).toEqual(['lake']);
  });

  it('says when no video holds the words', async () => {
    renderPages('/search/list?keyword=mountain');
    await act(async () => {
      fireEvent.click(await screen.findByText('Videos'));
      await Promise.resolve();
    });
    await shows('No videos hold “mountain”');
    expect(videosAsked).toEqual(['mountain']);
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
