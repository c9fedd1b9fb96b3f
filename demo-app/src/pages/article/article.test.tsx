// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Article, ArticleCard, ArticleComment } from '../../features/content/articles';
import { passThrottle, renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddArticle from '../member/add-article';
import Collection from '../member/record';
import FrontPage from './index';
import Comments from './ping';
import Reports from './jubao_view';
import Likes from './ping-zan';
import ArticlePage from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const AUTHOR = { id: '42', username: 'Alice', img: '' };

/** The fake server's articles and comments, and what was sent to it. */
let articles: Article[] = [];
let comments: ArticleComment[] = [];
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const cardOf = ({ content, mine: _mine, collected: _collected, ...article }: Article): ArticleCard => ({
  ...article,
  summary: content.slice(0, 100),
  imgs: article.imgs.slice(0, 3),
});
const REPORT = {
  id: 'r1',
  type: 'article',
  target_id: 'a9',
  title: 'Buy cheap watches',
  content: 'Spam or advertising: a link',
  status: 'upheld',
  reason: 'Advertising',
  created_at: 1_700_000_000_000,
  reviewed_at: 1_700_000_100_000,
} as const;
const missing = { err: 'content does not exist or was deleted by the author', code: 'article_missing' };
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/yinbi/name/:name/aid/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: `yinbi/${String(params['name'])}/${String(params['id'])}`, body });
    return HttpResponse.json({ ret: { hidden: body['hide'] } });
  }),
  http.post('*/index.php/api/article/list', () => HttpResponse.json({ ret: articles.map(cardOf) })),
  http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })),
  http.post('*/index.php/api/article/view', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const found = articles.find((a) => a.id === body['id']);
    return HttpResponse.json(found ? { ret: found } : missing);
  }),
  http.post('*/index.php/api/member/article_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'article_add', body });
    const article: Article = {
      id: `a${articles.length + 1}`,
      title: String(body['title']),
      content: String(body['content']),
      imgs: [],
      author: AUTHOR,
      channel: null,
      created_at: Date.now(),
      mine: true,
      likes: 0,
      comments: 0,
      liked: false,
      collected: false,
    };
    articles = [article, ...articles];
    return HttpResponse.json({ ret: article, id: article.id });
  }),
  http.post('*/index.php/api/article/zan', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'zan', body });
    articles = articles.map((a) =>
      a.id === body['id'] ? { ...a, liked: body['zan'] === true, likes: a.likes + (body['zan'] === true ? 1 : -1) } : a,
    );
    const found = articles.find((a) => a.id === body['id']);
    return HttpResponse.json(
      found ? { ret: { likes: found.likes, comments: found.comments, liked: found.liked } } : missing,
    );
  }),
  http.post('*/index.php/api/article/shoucang', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'shoucang', body });
    articles = articles.map((a) => (a.id === body['id'] ? { ...a, collected: body['shoucang'] === true } : a));
    return HttpResponse.json({ ret: { collected: body['shoucang'] === true } });
  }),
  http.post('*/index.php/api/member/record', () =>
    HttpResponse.json({ ret: articles.filter((a) => a.collected).map(cardOf) }),
  ),
  http.post('*/index.php/api/article/zan_list', () =>
    HttpResponse.json({ ret: [{ id: '7', username: 'Bob', img: '', created_at: 1 }] }),
  ),
  http.post('*/index.php/api/article/ping_list', () => HttpResponse.json({ ret: comments })),
  http.post('*/index.php/api/article/ping_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'ping_add', body });
    const comment = {
      id: `c${comments.length + 1}`,
      content: String(body['content']),
      author: AUTHOR,
      created_at: Date.now(),
      deletable: true,
      reply_to: null,
    };
    comments = [comment, ...comments];
    return HttpResponse.json({ ret: comment });
  }),
  http.post('*/index.php/api/member/ping_del', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'ping_del', body });
    comments = comments.filter((c) => c.id !== body['id']);
    return HttpResponse.json({ ret: true });
  }),
  http.post('*/index.php/api/member/jubao_add/type/article/aid/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: `jubao_add/${String(params['id'])}`, body });
    return HttpResponse.json({ ret: { ...REPORT, id: 'r2', content: String(body['content']) } });
  }),
  http.post('*/index.php/api/member/jubao_add/type/:type/aid/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const type = String(params['type']);
    sent.push({ path: `jubao_add/${type}/${String(params['id'])}`, body });
    return HttpResponse.json({ ret: { ...REPORT, id: 'r3', type, content: String(body['content']) } });
  }),
  http.post('*/index.php/api/quanzi/ping_list', () => HttpResponse.json({ ret: comments })),
  http.post('*/index.php/api/member/jubao_list', () => HttpResponse.json({ ret: [REPORT] })),
  http.post('*/index.php/api/member/jubao_view', () => HttpResponse.json({ ret: REPORT })),
  http.post('*/index.php/api/member/article_del', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path: 'article_del', body });
    articles = articles.filter((a) => a.id !== body['id']);
    return HttpResponse.json({ ret: true });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  articles = [];
  comments = [];
  sent.length = 0;
});
afterEach(() => {
  cleanup();
  api.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => api.close());

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/pages/article/index" element={<FrontPage />} />
      <Route path="/article/view" element={<ArticlePage />} />
      <Route path="/member/add-article" element={<AddArticle />} />
      <Route path="/article/ping" element={<Comments />} />
      <Route path="/article/ping-zan" element={<Likes />} />
      <Route path="/article/jubao_view" element={<Reports />} />
      <Route path="/member/record" element={<Collection />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

const article = (n: number, extra: Partial<Article> = {}): Article => ({
  id: `a${n}`,
  title: `Article number ${n}`,
  content: `The text of article ${n}.\nSecond line.`,
  imgs: [],
  author: { id: '7', username: 'Bob', img: '' },
  channel: null,
  created_at: Date.now(),
  mine: false,
  likes: 0,
  comments: 0,
  liked: false,
  collected: false,
  ...extra,
});

const BOB = { id: '7', username: 'Bob', img: '' };
/** A comment by `author`, deletable when it is the member's own. */
const commentBy = (id: string, author: ArticleComment['author'], content: string): ArticleComment => ({
  id,
  content,
  author,
  created_at: 1,
  deletable: author.id === AUTHOR.id,
  reply_to: null,
});

describe('pages/article/index: the front page', () => {
  it('lists the articles newest first and opens one', async () => {
    articles = [article(2, { imgs: ['https://files.test/1.png', 'https://files.test/2.png'] }), article(1)];
    renderPages('/pages/article/index');
    await shows('Article number 2');
    expect(screen.getAllByTestId('article')).toHaveLength(2);
    expect(screen.getAllByText('Bob')).toHaveLength(2);
    expect(document.querySelectorAll('.article-images img')).toHaveLength(2);
    await step(() => fireEvent.click(screen.getByText('Article number 1')));
    await vi.waitFor(() => expect(screen.getByText(/The text of article 1\.\s+Second line\./)).toBeTruthy());
  });

  it('Not interested hides another’s article from the feed, with Undo; none on the member’s own', async () => {
    articles = [article(2), article(1, { author: AUTHOR, mine: true })];
    renderPages('/pages/article/index');
    await shows('Article number 2');
    // Only Bob's article has the cross: Alice's own has none.
    const crosses = screen.getAllByRole('button', { name: 'Not interested' });
    expect(crosses).toHaveLength(1);
    await step(() => fireEvent.click(crosses[0] as HTMLElement));
    await shows("Hidden: you won't see it in your feeds");
    expect(screen.queryByText('Article number 2')).toBeNull();
    expect(screen.getByText('Article number 1')).toBeTruthy();
    expect(sent).toEqual([
      { path: 'yinbi/article/a2', body: expect.objectContaining({ hide: true, token: USER.token }) as unknown },
    ]);
    // The line is not opened by hiding it.
    expect(screen.queryByText(/The text of article 2/)).toBeNull();
    expect(screen.getByText('Article number 1')).toBeTruthy();

    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Undo' })));
    await shows('Article number 2');
    expect(sent.at(-1)).toEqual({
      path: 'yinbi/article/a2',
      body: expect.objectContaining({ hide: false }) as unknown,
    });
  });

  it('offers no Not interested to a visitor', async () => {
    localStorage.clear();
    articles = [article(2)];
    renderPages('/pages/article/index');
    await shows('Article number 2');
    expect(screen.queryByRole('button', { name: 'Not interested' })).toBeNull();
  });

  it('says when there is nothing yet, and opens the form to write', async () => {
    renderPages('/pages/article/index');
    await shows('No articles yet: be the first to write one');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Write' })));
    await shows('Write an article');
  });
});

describe('article/view', () => {
  it('says so when the article does not exist or was deleted', async () => {
    renderPages('/article/view?id=gone');
    await shows('Content does not exist or was deleted by the author');
  });

  it("lets the author delete their own article after asking, and no one else's", async () => {
    articles = [article(1, { mine: true, author: AUTHOR }), article(2)];
    renderPages('/article/view?id=a2');
    await shows('Article number 2');
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    cleanup();
    renderPages('/article/view?id=a1');
    await shows('Article number 1');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await shows('Delete this article? It cannot be restored.');
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1) as HTMLElement));
    // The only page: closing it goes home, where the feed has the other one.
    await vi.waitFor(() => expect(screen.getAllByTestId('article')).toHaveLength(1));
    expect(screen.getByText('Article number 2')).toBeTruthy();
    expect(sent).toEqual([{ path: 'article_del', body: expect.objectContaining({ id: 'a1' }) as unknown }]);
  });
});

describe('member/add-article', () => {
  const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  const publish = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));

  it('checks the title and the text before it sends anything', async () => {
    renderPages('/member/add-article');
    await shows('Write an article');
    await publish();
    await shows('The title must not be less than 5 characters');
    type('Title', '  Four ');
    await publish();
    await shows('The title must not be less than 5 characters');
    type('Title', 'A day at the lake');
    type('Text', '   ');
    await publish();
    await shows('The text cannot be blank');
    type('Text', 'x'.repeat(5001));
    await publish();
    await shows('The text has at most 5000 characters');
    expect(screen.getByText('5001/5000')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('publishes, then offers to view the article', async () => {
    renderPages('/member/add-article');
    await shows('Write an article');
    type('Title', ' A day at the lake ');
    type('Text', 'We walked all afternoon.\n');
    await publish();
    await shows('Published');
    expect(sent).toEqual([
      {
        path: 'article_add',
        body: expect.objectContaining({
          title: 'A day at the lake',
          content: 'We walked all afternoon.',
          imgs: [],
        }) as unknown,
      },
    ]);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View content' })));
    await shows('We walked all afternoon.');
    expect(screen.getByRole('heading', { name: 'A day at the lake' })).toBeTruthy();
  });
});

describe('article likes and comments', () => {
  it('likes and unlikes from the article, and opens who liked it', async () => {
    articles = [article(1, { likes: 2 })];
    renderPages('/article/view?id=a1');
    await shows('2 likes');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Like' })));
    await shows('3 likes');
    expect(screen.getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    // At once again: too fast (spec §8, §9), and nothing is sent.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Liked' })));
    await shows('The operation is too fast');
    expect(sent.map((call) => call.body['zan'])).toEqual([true]);
    passThrottle();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Liked' })));
    await shows('2 likes');
    expect(sent.map((call) => call.body['zan'])).toEqual([true, false]);
    await step(() => fireEvent.click(screen.getByText('2 likes')));
    await vi.waitFor(() => expect(screen.getAllByTestId('liker')).toHaveLength(1));
    expect(screen.getByText('Bob')).toBeTruthy();
  });

  it('comments, lists the comments newest first, and deletes one after asking', async () => {
    articles = [article(1, { comments: 1 })];
    comments = [
      {
        id: 'c0',
        content: 'First!',
        author: { id: '7', username: 'Bob', img: '' },
        created_at: 1,
        deletable: false,
        reply_to: null,
      },
    ];
    renderPages('/article/view?id=a1');
    await shows('1 comment');
    await step(() => fireEvent.click(screen.getByText('1 comment')));
    await shows('First!');
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await shows('The comment cannot be blank');
    fireEvent.change(screen.getByRole('textbox', { name: 'Write a comment' }), { target: { value: ' Lovely lake ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await shows('Lovely lake');
    expect(sent).toEqual([
      { path: 'ping_add', body: expect.objectContaining({ id: 'a1', content: 'Lovely lake' }) as unknown },
    ]);
    expect(screen.getAllByTestId('comment')).toHaveLength(2);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await shows('Delete this comment?');
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1) as HTMLElement));
    await vi.waitFor(() => expect(screen.getAllByTestId('comment')).toHaveLength(1));
    expect(sent.at(-1)).toEqual({ path: 'ping_del', body: expect.objectContaining({ id: 'c2' }) as unknown });
  });

  it('asks a visitor to sign in to comment', async () => {
    localStorage.clear();
    articles = [article(1)];
    renderPages('/article/ping?id=a1');
    await shows('Sign in to comment');
    await shows('No comments yet');
  });
});

describe('reports', () => {
  it("reports another member's article with a reason and words, and not one's own", async () => {
    articles = [article(1), article(2, { mine: true, author: AUTHOR })];
    renderPages('/article/view?id=a2');
    await shows('Article number 2');
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    cleanup();
    renderPages('/article/view?id=a1');
    await shows('Article number 1');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Report' })));
    await shows('Report this content');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    await shows('Choose what is wrong');
    await step(() => fireEvent.click(screen.getByText('Spam or advertising')));
    fireEvent.change(screen.getByLabelText('Tell us more (optional)'), { target: { value: ' a link ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    await shows('Reported: we will review it');
    expect(sent).toEqual([
      { path: 'jubao_add/a1', body: expect.objectContaining({ content: 'Spam or advertising: a link' }) as unknown },
    ]);
  });

  it.each([
    ['/article/ping?id=a1', 'ping'],
    ['/article/ping?id=p1&type=quanzi', 'quanzi_ping'],
  ])("reports another member's comment from %s as %s, and not one's own", async (path, type) => {
    comments = [commentBy('c1', AUTHOR, 'Mine'), commentBy('c0', BOB, 'Rude words')];
    renderPages(path);
    await shows('Rude words');
    // One Report, on Bob's comment: the member's own has Delete instead.
    const [report] = screen.getAllByRole('button', { name: 'Report' });
    expect(screen.getAllByRole('button', { name: 'Report' })).toHaveLength(1);
    expect(screen.getAllByTestId('comment')[1]?.contains(report as HTMLElement)).toBe(true);
    await step(() => fireEvent.click(report as HTMLElement));
    await shows('Report this content');
    await step(() => fireEvent.click(screen.getByText('Abuse or harassment')));
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    await shows('Reported: we will review it');
    expect(sent).toEqual([
      { path: `jubao_add/${type}/c0`, body: expect.objectContaining({ content: 'Abuse or harassment' }) as unknown },
    ]);
  });

  it('offers a visitor no Report on comments', async () => {
    localStorage.clear();
    comments = [commentBy('c0', BOB, 'Rude words')];
    renderPages('/article/ping?id=a1');
    await shows('Rude words');
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
  });

  it("lists the member's reports and shows the decision on one", async () => {
    renderPages('/article/jubao_view');
    await shows('My reports');
    await vi.waitFor(() => expect(screen.getAllByTestId('report')).toHaveLength(1));
    expect(screen.getByText('Upheld: removed')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('Buy cheap watches')));
    await shows('Advertising');
    expect(screen.getByText('Spam or advertising: a link')).toBeTruthy();
    expect(screen.getByText('An article')).toBeTruthy();
  });

  it('says what a report is of, opening an article under review and not a circle post', async () => {
    let report: Record<string, unknown> = { ...REPORT, status: 'pending', reason: '', reviewed_at: null };
    api.use(http.post('*/index.php/api/member/jubao_view', () => HttpResponse.json({ ret: report })));
    articles = [article(9)];
    renderPages('/article/jubao_view?id=r1');
    await shows('An article');
    await step(() => fireEvent.click(screen.getByText('Buy cheap watches')));
    await shows('Article number 9');
    cleanup();
    // A post's id may be an article's too: the report still opens nothing.
    report = { ...report, type: 'quanzi', title: 'Cheap watches, best prices in…' };
    renderPages('/article/jubao_view?id=r1');
    await shows('A circle post');
    await step(() => fireEvent.click(screen.getByText('Cheap watches, best prices in…')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('Cheap watches, best prices in…')).toBeTruthy();
    expect(screen.queryByText('Article number 9')).toBeNull();
    cleanup();
    // So does a comment's: a comment has no page of its own.
    report = { ...report, type: 'ping', title: 'You are all idiots, and every…' };
    renderPages('/article/jubao_view?id=r1');
    await shows('A comment on an article');
    await step(() => fireEvent.click(screen.getByText('You are all idiots, and every…')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Article number 9')).toBeNull();
  });

  it("says a member's report upheld reset their profile, and opens the member's home", async () => {
    const report = { ...REPORT, type: 'user', target_id: '7', title: 'Cheap Watches' };
    api.use(
      http.post('*/index.php/api/member/jubao_list', () => HttpResponse.json({ ret: [report] })),
      http.post('*/index.php/api/member/jubao_view', () => HttpResponse.json({ ret: report })),
    );
    renderPages('/article/jubao_view');
    await vi.waitFor(() => expect(screen.getAllByTestId('report')).toHaveLength(1));
    expect(screen.getByText('Upheld: profile reset')).toBeTruthy();
    expect(screen.queryByText('Upheld: removed')).toBeNull();
    cleanup();
    renderPages('/article/jubao_view?id=r1');
    await shows('A member’s profile');
    await step(() => fireEvent.click(screen.getByText('Cheap Watches')));
    expect(screen.getByTestId('where').textContent).toBe('/user/home?id=7');
  });
});

describe('member/record: the collection', () => {
  it('collects from the article and finds it in My collection; uncollects', async () => {
    articles = [article(1), article(2)];
    renderPages('/member/record');
    await shows('Nothing collected yet: collect articles to find them here');
    cleanup();
    renderPages('/article/view?id=a2');
    await shows('Article number 2');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Collect' })));
    await shows('Added to My collection');
    expect(screen.getByRole('button', { name: 'Collected' }).getAttribute('aria-pressed')).toBe('true');
    cleanup();
    renderPages('/member/record');
    await shows('Article number 2');
    expect(screen.getAllByTestId('article')).toHaveLength(1);
    cleanup();
    renderPages('/article/view?id=a2');
    await shows('Article number 2');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Collected' })));
    await shows('Removed from My collection');
    expect(sent.map((call) => call.body['shoucang'])).toEqual([true, false]);
  });
});
