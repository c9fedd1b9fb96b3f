// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Article, ArticleCard } from '../../features/content/articles';
import { VISITOR_CHANNELS_KEY, type Channel } from '../../features/content/channels';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddArticle from '../member/add-article';
import FrontPage from './index';
import ChannelArticles from './page';
import ChannelPage from './typeid';
import ArticlePage from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const TECH = { id: 'c1', name: 'Tech' };
const TRAVEL = { id: 'c2', name: 'Travel' };
const FOOD = { id: 'c3', name: 'Food' };
const ALL: Channel[] = [TECH, TRAVEL, FOOD];

/** The fake server: the member's chosen channel ids (none: the defaults, Tech and Travel), articles, and calls. */
let chosen: string[] = [];
let articles: Article[] = [];
let refuseNext: { err: string; code: string } | undefined;
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const choice = (ids: string[]) => {
  const mine = ids.length > 0 ? ids.flatMap((id) => ALL.filter((c) => c.id === id)) : [TECH, TRAVEL];
  return { mine, more: ALL.filter((c) => !mine.includes(c)) };
};
const cardOf = ({ content, mine: _mine, collected: _collected, ...article }: Article): ArticleCard => ({
  ...article,
  summary: content,
});
const article = (n: number, channel: Channel | null): Article => ({
  id: `a${n}`,
  title: `Article number ${n}`,
  content: `The text of article ${n}.`,
  imgs: [],
  author: { id: '7', username: 'Bob', img: '' },
  channel,
  created_at: Date.now(),
  mine: false,
  likes: 0,
  comments: 0,
  liked: false,
  collected: false,
});
const bodyOf = async (request: Request) => (await request.json()) as Record<string, unknown>;
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/article/typeid', async ({ request }) => {
    const body = await bodyOf(request);
    return HttpResponse.json({ ret: choice(body['token'] === undefined ? [] : chosen) });
  }),
  http.post('*/index.php/api/member/typeid_set', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'typeid_set', body });
    if (refuseNext) {
      const refusal = refuseNext;
      refuseNext = undefined;
      return HttpResponse.json(refusal);
    }
    chosen = body['ids'] as string[];
    return HttpResponse.json({ ret: choice(chosen) });
  }),
  http.post('*/index.php/api/article/list', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'list', body });
    const typeid = body['typeid'];
    const listed = typeid === undefined ? articles : articles.filter((a) => a.channel?.id === typeid);
    return HttpResponse.json({ ret: listed.map(cardOf) });
  }),
  http.post('*/index.php/api/article/view', async ({ request }) => {
    const body = await bodyOf(request);
    return HttpResponse.json({ ret: articles.find((a) => a.id === body['id']) });
  }),
  http.post('*/index.php/api/member/article_add', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'article_add', body });
    const added = {
      ...article(articles.length + 1, ALL.find((c) => c.id === body['typeid']) ?? null),
      title: String(body['title']),
      content: String(body['content']),
      mine: true,
    };
    articles = [added, ...articles];
    return HttpResponse.json({ ret: added, id: added.id });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  chosen = [];
  articles = [];
  refuseNext = undefined;
  sent.length = 0;
});
afterEach(() => {
  cleanup();
  api.resetHandlers();
});
afterAll(() => api.close());

const signIn = () => localStorage.setItem('user', JSON.stringify(USER));

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/pages/article/index" element={<FrontPage />} />
      <Route path="/article/typeid" element={<ChannelPage />} />
      <Route path="/article/page" element={<ChannelArticles />} />
      <Route path="/article/view" element={<ArticlePage />} />
      <Route path="/member/add-article" element={<AddArticle />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

const names = (testId: string) =>
  [...screen.getByTestId(testId).querySelectorAll('.channel-chip')].map((chip) =>
    (chip.textContent ?? '').replace(/[←×+]/g, '').trim(),
  );
const tabs = () => screen.getAllByRole('tab').map((tab) => tab.textContent);

describe('pages/article/index: channel tabs', () => {
  it('shows Recommended and the member’s channels, lists a channel’s articles, and opens the channel page', async () => {
    signIn();
    articles = [article(3, TRAVEL), article(2, TECH), article(1, null)];
    renderPages('/pages/article/index');
    await vi.waitFor(() => expect(tabs()).toEqual(['Recommended', 'Tech', 'Travel']));
    await vi.waitFor(() => expect(screen.getAllByTestId('article')).toHaveLength(3));
    await step(() => fireEvent.click(screen.getByRole('tab', { name: 'Travel' })));
    await vi.waitFor(() => expect(screen.getAllByTestId('article')).toHaveLength(1));
    expect(screen.getByText('Article number 3')).toBeTruthy();
    expect(sent.filter((s) => s.path === 'list').map((s) => s.body['typeid'])).toEqual([undefined, 'c2']);
    await step(() => fireEvent.click(screen.getByRole('tab', { name: 'Tech' })));
    await shows('Article number 2');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Channels' })));
    await shows('My channels');
  });

  it('says when a channel has no articles, and shows no tabs when there are no channels', async () => {
    signIn();
    renderPages('/pages/article/index');
    await vi.waitFor(() => expect(tabs()).toHaveLength(3));
    await step(() => fireEvent.click(screen.getByRole('tab', { name: 'Tech' })));
    await shows('No articles in this channel yet');
    cleanup();
    api.use(http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })));
    renderPages('/pages/article/index');
    await shows('No articles yet: be the first to write one');
    expect(screen.queryAllByRole('tab')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Channels' })).toBeNull();
  });
});

describe('article/typeid: channel management', () => {
  it('removes, moves and adds a member’s channels, saving each change, and keeps at least one', async () => {
    signIn();
    renderPages('/article/typeid');
    await shows('My channels');
    expect(names('my-channels')).toEqual(['Tech', 'Travel']);
    expect(names('more-channels')).toEqual(['Food']);

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Add Food' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Tech', 'Travel', 'Food']));
    expect(within(screen.getByTestId('more-channels')).getByText('You have every channel')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Move Food forward' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Tech', 'Food', 'Travel']));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove Tech' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Food', 'Travel']));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove Travel' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Food']));
    expect(sent.filter((s) => s.path === 'typeid_set').map((s) => s.body['ids'])).toEqual([
      ['c1', 'c2', 'c3'],
      ['c1', 'c3', 'c2'],
      ['c3', 'c2'],
      ['c3'],
    ]);
    // The last one stays, and nothing is sent.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove Food' })));
    await shows('At least one channel must remain');
    expect(names('my-channels')).toEqual(['Food']);
    expect(sent.filter((s) => s.path === 'typeid_set')).toHaveLength(4);
  });

  it('shows the server’s refusal and what it keeps', async () => {
    signIn();
    chosen = ['c2'];
    renderPages('/article/typeid');
    await shows('My channels');
    refuseNext = { err: 'the channel does not exist', code: 'channel_missing' };
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Add Tech' })));
    await shows('The channel does not exist');
    expect(names('my-channels')).toEqual(['Travel']);
  });

  it('keeps a visitor’s choice on this device, which the front page follows', async () => {
    renderPages('/article/typeid');
    await shows('My channels');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Add Food' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Tech', 'Travel', 'Food']));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove Tech' })));
    await vi.waitFor(() => expect(names('my-channels')).toEqual(['Travel', 'Food']));
    expect(JSON.parse(localStorage.getItem(VISITOR_CHANNELS_KEY) ?? '')).toEqual(['c2', 'c3']);
    expect(sent.filter((s) => s.path === 'typeid_set')).toEqual([]);
    cleanup();
    renderPages('/pages/article/index');
    await vi.waitFor(() => expect(tabs()).toEqual(['Recommended', 'Travel', 'Food']));
    // What is stored that is no channel (any more) is passed over.
    cleanup();
    localStorage.setItem(VISITOR_CHANNELS_KEY, JSON.stringify(['gone', 'c3', 7]));
    renderPages('/pages/article/index');
    await vi.waitFor(() => expect(tabs()).toEqual(['Recommended', 'Food']));
  });
});

describe('member/add-article and article/view: the channel of an article', () => {
  it('files the article under the channel picked, and its page names it', async () => {
    signIn();
    renderPages('/member/add-article');
    await shows('Channel');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'New chips this year' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Faster and cooler.' } });
    await step(() => fireEvent.click(screen.getByText('Food')));
    await step(() => fireEvent.click(screen.getByText('Tech')));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
    expect(sent.find((s) => s.path === 'article_add')?.body).toMatchObject({ typeid: 'c1' });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View content' })));
    await vi.waitFor(() => expect(screen.getByTestId('article-channel').textContent).toBe('Tech'));
  });

  it('sends no channel when none is picked (a second tap unpicks)', async () => {
    signIn();
    renderPages('/member/add-article');
    await shows('Channel');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'A day at the lake' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'We walked.' } });
    await step(() => fireEvent.click(screen.getByText('Travel')));
    await step(() => fireEvent.click(screen.getByText('Travel')));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
    expect(sent.find((s) => s.path === 'article_add')?.body).not.toHaveProperty('typeid');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View content' })));
    await shows('We walked.');
    expect(screen.queryByTestId('article-channel')).toBeNull();
  });
});

describe('article/page: one channel’s articles', () => {
  it('lists the channel’s articles under its name, even one the viewer did not choose, and opens one', async () => {
    articles = [article(1, TECH), article(2, FOOD), article(3, null)];
    renderPages(`/article/page?typeid=${FOOD.id}`);
    await shows('Article number 2');
    expect(screen.queryByText('Article number 1')).toBeNull();
    await shows('Food');
    expect(sent.filter((s) => s.path === 'list').at(-1)?.body).toMatchObject({ typeid: FOOD.id });
    await step(() => fireEvent.click(screen.getByText('Article number 2')));
    await shows('The text of article 2.');
  });

  it('says when the channel has none; without a channel, lists every article under the title given', async () => {
    articles = [article(1, TECH)];
    renderPages(`/article/page?typeid=${TRAVEL.id}`);
    await shows('No articles in this channel yet');
    cleanup();
    renderPages(`/article/page?title=${encodeURIComponent('Editor’s picks')}`);
    await shows('Article number 1');
    expect(screen.getByText('Editor’s picks')).toBeTruthy();
    expect(sent.filter((s) => s.path === 'list').at(-1)?.body).not.toHaveProperty('typeid');
  });
});
