// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Link, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakePost as post, fakeVote as voting } from '../../features/circle/fake-posts';
import type { CirclePost, Topic } from '../../features/circle/posts';
import type { ArticleComment } from '../../features/content/articles';
import { FakeXhr } from '../../features/api/fake-xhr';
import { passThrottle, renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Comments from '../article/ping';
import Likes from '../article/ping-zan';
import AddPost from '../member/add-quanzi';
import CirclePage from './index';
import Topics from '../topic/index';
import TopicPosts from '../topic/list';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const DAY = 86_400_000;

/** The fake server's posts and topics, and what was sent to it. */
let posts: CirclePost[] = [];
let topics: Topic[] = [];
let comments: ArticleComment[] = [];
const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
const bodyOf = async (request: Request) => (await request.json()) as Record<string, unknown>;
const UPLOAD_URL = 'https://files.test/uploads';
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/yinbi/name/:name/aid/:id', async ({ request, params }) => {
    const body = await bodyOf(request);
    sent.push({ path: `yinbi/${String(params['name'])}/${String(params['id'])}`, body });
    return HttpResponse.json({ ret: { hidden: body['hide'] } });
  }),
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/quanzi/list', () => HttpResponse.json({ ret: posts })),
  http.post('*/index.php/api/topic/index', () => HttpResponse.json({ ret: topics })),
  http.post('*/index.php/api/topic/list', async ({ request }) => {
    const body = await bodyOf(request);
    const topic = topics.find((x) => x.id === body['id']);
    if (!topic) return HttpResponse.json({ err: 'topic does not exist or was deleted', code: 'topic_missing' });
    return HttpResponse.json({ ret: posts.filter((p) => p.topic?.id === topic.id), topic });
  }),
  http.post('*/index.php/api/quanzi/vote', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'vote', body });
    const option = body['option'] as number;
    posts = posts.map((p) =>
      p.id === body['id'] && p.vote
        ? {
            ...p,
            vote: {
              ...p.vote,
              options: p.vote.options.map((o, i) => (i === option ? { ...o, count: o.count + 1 } : o)),
              total: p.vote.total + 1,
              voted: option,
            },
          }
        : p,
    );
    return HttpResponse.json({ ret: posts.find((p) => p.id === body['id']) });
  }),
  http.post('*/index.php/api/member/quanzi_add', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'quanzi_add', body });
    const vote = body['vote'] as { options: string[]; days: number } | undefined;
    const added: CirclePost = {
      ...post(posts.length + 1),
      title: String(body['title']),
      content: String(body['content']),
      imgs: body['imgs'] as string[],
      video: typeof body['video'] === 'string' ? { url: body['video'], cover: String(body['img']) } : null,
      topic: (() => {
        const found = topics.find((x) => x.id === body['topic']);
        return found ? { id: found.id, title: found.title } : null;
      })(),
      vote: vote
        ? {
            options: vote.options.map((text) => ({ text, count: 0 })),
            total: 0,
            ends_at: Date.now() + vote.days * DAY,
            ended: false,
            voted: null,
          }
        : null,
      mine: true,
    };
    posts = [added, ...posts];
    return HttpResponse.json({ ret: added, id: added.id });
  }),
  http.post('*/index.php/api/quanzi/zan', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'quanzi/zan', body });
    const zan = body['zan'] === true;
    posts = posts.map((p) => (p.id === body['id'] ? { ...p, liked: zan, likes: p.likes + (zan ? 1 : -1) } : p));
    const found = posts.find((p) => p.id === body['id']);
    return HttpResponse.json({ ret: { likes: found?.likes, comments: found?.comments, liked: found?.liked } });
  }),
  http.post('*/index.php/api/quanzi/zan_list', async ({ request }) => {
    sent.push({ path: 'quanzi/zan_list', body: await bodyOf(request) });
    return HttpResponse.json({ ret: [{ id: '9', username: 'Carol', img: '', created_at: 1 }] });
  }),
  http.post('*/index.php/api/quanzi/ping_list', async ({ request }) => {
    sent.push({ path: 'quanzi/ping_list', body: await bodyOf(request) });
    return HttpResponse.json({ ret: comments });
  }),
  http.post('*/index.php/api/quanzi/ping_add', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'quanzi/ping_add', body });
    const comment = {
      id: `c${comments.length + 1}`,
      content: String(body['content']),
      author: { id: USER.id, username: USER.username, img: '' },
      created_at: Date.now(),
      deletable: true,
      reply_to: (() => {
        const answered = comments.find((c) => c.id === body['reply_to']);
        return answered ? { id: answered.id, author: answered.author } : null;
      })(),
    };
    comments = [comment, ...comments];
    posts = posts.map((p) => (p.id === body['id'] ? { ...p, comments: p.comments + 1 } : p));
    return HttpResponse.json({ ret: comment });
  }),
  http.post('*/index.php/api/member/quanzi_ping_del', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'quanzi_ping_del', body });
    comments = comments.filter((c) => c.id !== body['id']);
    posts = posts.map((p) => ({ ...p, comments: p.comments - 1 }));
    return HttpResponse.json({ ret: true });
  }),
  http.post('*/index.php/api/member/jubao_add/type/:type/aid/:id', async ({ request, params }) => {
    const body = await bodyOf(request);
    sent.push({ path: `jubao_add/${String(params['type'])}/${String(params['id'])}`, body });
    return HttpResponse.json({ ret: { id: 'r1', type: params['type'], target_id: params['id'], status: 'pending' } });
  }),
  http.post('*/index.php/api/member/quanzi_del', async ({ request }) => {
    const body = await bodyOf(request);
    sent.push({ path: 'quanzi_del', body });
    posts = posts.filter((p) => p.id !== body['id']);
    return HttpResponse.json({ ret: true });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  posts = [];
  topics = [];
  comments = [];
  sent.length = 0;
});
afterEach(() => {
  cleanup();
  api.resetHandlers();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
afterAll(() => api.close());

const signIn = () => localStorage.setItem('user', JSON.stringify(USER));

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/pages/quanzi/index" element={<CirclePage />} />
      {/* Home, where closing the first page goes, with the tab bar's way back to the circle. */}
      <Route path="/pages/article/index" element={<Link to="/pages/quanzi/index">Circle tab</Link>} />
      <Route path="/member/add-quanzi" element={<AddPost />} />
      <Route path="/topic/index" element={<Topics />} />
      <Route path="/topic/list" element={<TopicPosts />} />
      <Route path="/article/ping" element={<Comments />} />
      <Route path="/article/ping-zan" element={<Likes />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

describe('pages/quanzi/index: the circle', () => {
  it('lists posts with their images, and votes once, then shows each option’s votes', async () => {
    signIn();
    posts = [post(2, { vote: voting() }), post(1, { imgs: ['https://files.test/1.png', 'https://files.test/2.png'] })];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    expect(screen.getAllByTestId('post')).toHaveLength(2);
    expect(screen.getAllByRole('img', { name: /Image \d/ })).toHaveLength(2);
    const vote = screen.getByTestId('vote');
    expect(within(vote).getByText(/4 votes · ends/)).toBeTruthy();
    await step(() => fireEvent.click(within(vote).getByRole('button', { name: 'Sea' })));
    await vi.waitFor(() => expect(within(screen.getByTestId('vote')).getByText(/my vote/)).toBeTruthy());
    expect(within(screen.getByTestId('vote')).getByText('4 votes')).toBeTruthy();
    expect(within(screen.getByTestId('vote')).queryAllByRole('button')).toEqual([]);
    expect(sent).toEqual([{ path: 'vote', body: expect.objectContaining({ id: 'p2', option: 1 }) as unknown }]);
  });

  it('keeps showing the results of a vote cast when the member comes back to the circle', async () => {
    signIn();
    posts = [post(1, { vote: voting() })];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    await step(() => fireEvent.click(within(screen.getByTestId('vote')).getByRole('button', { name: 'Sea' })));
    await vi.waitFor(() => expect(within(screen.getByTestId('vote')).getByText(/my vote/)).toBeTruthy());
    // The server's list now comes late: what shows meanwhile is the circle as it was last loaded.
    api.use(
      http.post('*/index.php/api/quanzi/list', async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return HttpResponse.json({ ret: posts });
      }),
    );
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Topics' })));
    await shows('No topics yet');
    await step(() => fireEvent.click(screen.getByText('Back')));
    await step(() => fireEvent.click(screen.getByText('Circle tab')));
    await vi.waitFor(() => expect(within(screen.getByTestId('vote')).getByText(/my vote/)).toBeTruthy());
    expect(within(screen.getByTestId('vote')).queryAllByRole('button')).toEqual([]);
  });

  it('shows the results of an ended vote, and sends a visitor who votes to sign in', async () => {
    posts = [post(2, { vote: voting({ ended: true }) }), post(1, { vote: voting() })];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    const [ended, running] = screen.getAllByTestId('vote') as [HTMLElement, HTMLElement];
    expect(within(ended).getByText(/the vote has ended/)).toBeTruthy();
    expect(within(ended).queryAllByRole('button')).toEqual([]);
    await step(() => fireEvent.click(within(running).getByRole('button', { name: 'Hills' })));
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/user\/login/));
    expect(sent).toEqual([]);
  });

  it('shows a post’s title above its text, and none for a post written before posts had titles', async () => {
    posts = [post(2, { title: 'Spring walk' }), post(1, { title: '' })];
    renderPages('/pages/quanzi/index');
    await shows('Spring walk');
    const [titled, untitled] = screen.getAllByTestId('post') as [HTMLElement, HTMLElement];
    const title = within(titled).getByTestId('post-title');
    expect(title.textContent).toBe('Spring walk');
    expect(title.className).toBe('post-title');
    // Above the text: the text comes after it in the page.
    const text = within(titled).getByText('Post number 2');
    expect(title.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(untitled).queryByTestId('post-title')).toBeNull();
    expect(within(untitled).getByText('Post number 1')).toBeTruthy();
  });

  it('plays a post’s video, its cover the poster', async () => {
    posts = [post(1, { video: { url: 'https://files.test/1.mp4', cover: 'https://files.test/1.png' } }), post(2)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    const players = screen.getAllByTestId('post-video');
    expect(players).toHaveLength(1);
    expect(players[0]?.getAttribute('src')).toBe('https://files.test/1.mp4');
    expect(players[0]?.getAttribute('poster')).toBe('https://files.test/1.png');
    expect(players[0]?.hasAttribute('controls')).toBe(true);
  });

  it('lets the author delete their own post after asking', async () => {
    signIn();
    posts = [post(2, { mine: true, author: { id: '42', username: 'Alice', img: '' } }), post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(1);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await shows('Delete this post? It cannot be restored.');
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1) as HTMLElement));
    await vi.waitFor(() => expect(screen.getAllByTestId('post')).toHaveLength(1));
    expect(sent).toEqual([{ path: 'quanzi_del', body: expect.objectContaining({ id: 'p2' }) as unknown }]);
  });

  it('says when there is nothing yet, and opens the form', async () => {
    signIn();
    renderPages('/pages/quanzi/index');
    await shows('Nothing in the circle yet: be the first to post');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Post' })));
    await shows('New post');
  });
});

describe('pages/quanzi/index: likes and comments on a post', () => {
  it('likes and unlikes a post in place, and opens who liked it', async () => {
    signIn();
    posts = [post(2, { likes: 2 }), post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    const [first] = screen.getAllByTestId('post') as [HTMLElement];
    await step(() => fireEvent.click(within(first).getByRole('button', { name: 'Like' })));
    await vi.waitFor(() => expect(within(first).getByText('3 likes')).toBeTruthy());
    expect(within(first).getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    passThrottle();
    await step(() => fireEvent.click(within(first).getByRole('button', { name: 'Liked' })));
    await vi.waitFor(() => expect(within(first).getByText('2 likes')).toBeTruthy());
    expect(sent).toEqual([
      { path: 'quanzi/zan', body: expect.objectContaining({ id: 'p2', zan: true }) as unknown },
      { path: 'quanzi/zan', body: expect.objectContaining({ id: 'p2', zan: false }) as unknown },
    ]);
    await step(() => fireEvent.click(within(first).getByText('2 likes')));
    await shows('Carol');
    expect(screen.getAllByTestId('liker')).toHaveLength(1);
    expect(sent.at(-1)).toEqual({ path: 'quanzi/zan_list', body: expect.objectContaining({ id: 'p2' }) as unknown });
  });

  it('sends a visitor who likes a post to sign in', async () => {
    posts = [post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Like' })));
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/user\/login/));
    expect(sent).toEqual([]);
  });

  it('opens a post’s comments, comments and deletes one, and the circle counts them', async () => {
    signIn();
    posts = [post(1, { comments: 1 })];
    comments = [
      {
        id: 'c0',
        content: 'Nice view',
        author: { id: '7', username: 'Bob', img: '' },
        created_at: 1,
        deletable: false,
        reply_to: null,
      },
    ];
    renderPages('/pages/quanzi/index');
    await shows('1 comment');
    await step(() => fireEvent.click(screen.getByText('1 comment')));
    await shows('Nice view');
    fireEvent.change(screen.getByRole('textbox', { name: 'Write a comment' }), { target: { value: ' Agreed ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await shows('Agreed');
    expect(sent).toContainEqual({
      path: 'quanzi/ping_add',
      body: expect.objectContaining({ id: 'p1', content: 'Agreed' }) as unknown,
    });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1) as HTMLElement));
    await vi.waitFor(() => expect(screen.getAllByTestId('comment')).toHaveLength(1));
    expect(sent).toContainEqual({ path: 'quanzi_ping_del', body: expect.objectContaining({ id: 'c2' }) as unknown });
    // Back in the circle, the post counts what the server counts now.
    posts = posts.map((p) => ({ ...p, comments: 4 }));
    await step(() => fireEvent.click(screen.getByText('Back')));
    await step(() => fireEvent.click(screen.getByText('Circle tab')));
    await shows('4 comments');
  });
});

describe('article/ping: answering a comment', () => {
  it('replies to a comment, shows whom the answer is to, and goes back to a plain comment on Cancel', async () => {
    signIn();
    posts = [post(1, { comments: 1 })];
    const bob = { id: '7', username: 'Bob', img: '' };
    comments = [{ id: 'c0', content: 'Where is this?', author: bob, created_at: 1, deletable: false, reply_to: null }];
    renderPages('/article/ping?id=p1&type=quanzi');
    await shows('Where is this?');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Reply' })));
    expect(screen.getByTestId('replying').textContent).toContain('Replying to @Bob');
    // Cancel: a plain comment again.
    await step(() => fireEvent.click(within(screen.getByTestId('replying')).getByRole('button', { name: 'Cancel' })));
    expect(screen.queryByTestId('replying')).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Reply' })));
    const box = screen.getByRole('textbox', { name: 'Reply to @Bob' });
    fireEvent.change(box, { target: { value: 'The lake by the hills' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    await shows('The lake by the hills');
    expect(sent.find((call) => call.path === 'quanzi/ping_add')?.body).toEqual(
      expect.objectContaining({ id: 'p1', content: 'The lake by the hills', reply_to: 'c0' }),
    );
    const [answer] = screen.getAllByTestId('comment') as [HTMLElement];
    expect(within(answer).getByText('Reply to @Bob:')).toBeTruthy();
    expect(screen.queryByTestId('replying')).toBeNull();
  });

  it('offers a visitor no Reply', async () => {
    posts = [post(1, { comments: 1 })];
    const bob = { id: '7', username: 'Bob', img: '' };
    comments = [{ id: 'c0', content: 'Where is this?', author: bob, created_at: 1, deletable: false, reply_to: null }];
    renderPages('/article/ping?id=p1&type=quanzi');
    await shows('Where is this?');
    expect(screen.queryByRole('button', { name: 'Reply' })).toBeNull();
  });
});

describe('pages/quanzi/index: reports', () => {
  it('reports another member’s post with a reason, and not one’s own', async () => {
    signIn();
    posts = [post(2, { mine: true, author: { id: '42', username: 'Alice', img: '' } }), post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    const [mine, theirs] = screen.getAllByTestId('post') as [HTMLElement, HTMLElement];
    expect(within(mine).queryByRole('button', { name: 'Report' })).toBeNull();
    await step(() => fireEvent.click(within(theirs).getByRole('button', { name: 'Report' })));
    await shows('Report this content');
    await step(() => fireEvent.click(screen.getByText('Abuse or harassment')));
    fireEvent.change(screen.getByLabelText('Tell us more (optional)'), { target: { value: ' rude ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Send report' })));
    await shows('Reported: we will review it');
    expect(sent).toEqual([
      {
        path: 'jubao_add/quanzi/p1',
        body: expect.objectContaining({ content: 'Abuse or harassment: rude' }) as unknown,
      },
    ]);
  });

  it('hides another member’s post from the circle with Not interested, and brings it back with Undo', async () => {
    signIn();
    posts = [post(2, { mine: true, author: { id: '42', username: 'Alice', img: '' } }), post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    const [mine, theirs] = screen.getAllByTestId('post') as [HTMLElement, HTMLElement];
    expect(within(mine).queryByRole('button', { name: 'Not interested' })).toBeNull();
    await step(() => fireEvent.click(within(theirs).getByRole('button', { name: 'Not interested' })));
    await shows("Hidden: you won't see it in your feeds");
    expect(screen.queryByText('Post number 1')).toBeNull();
    expect(sent).toEqual([{ path: 'yinbi/quanzi/p1', body: expect.objectContaining({ hide: true }) as unknown }]);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Undo' })));
    await shows('Post number 1');
    expect(sent.at(-1)).toEqual({ path: 'yinbi/quanzi/p1', body: expect.objectContaining({ hide: false }) as unknown });
  });

  it('sends a visitor who reports a post to sign in', async () => {
    posts = [post(1)];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Report' })));
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/user\/login/));
    expect(sent).toEqual([]);
  });
});

describe('member/add-quanzi', () => {
  const publish = () =>
    step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Post' }).at(-1) as HTMLElement));

  it('posts a vote with its options and duration, checking them first', async () => {
    signIn();
    renderPages('/member/add-quanzi');
    await shows('New post');
    await publish();
    await shows('The title must not be less than 5 characters');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Hills or sea?' } });
    await publish();
    await shows('The text cannot be blank');
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: ' Where next? ' } });
    await step(() => fireEvent.click(screen.getByText('Add a vote')));
    expect(screen.queryByRole('button', { name: 'Add an image' })).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 1' }), { target: { value: 'Hills' } });
    await publish();
    await shows('A vote has 2 to 10 different options of at most 20 characters');
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 2' }), { target: { value: 'Hills ' } });
    await publish();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 2' }), { target: { value: 'Sea' } });
    await step(() => fireEvent.click(screen.getByText('Add an option')));
    fireEvent.change(screen.getByRole('textbox', { name: 'Option 3' }), { target: { value: 'Town' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove option 1' })));
    await step(() => fireEvent.click(screen.getByText('3 days')));
    await publish();
    expect(sent).toEqual([
      {
        path: 'quanzi_add',
        body: expect.objectContaining({
          title: 'Hills or sea?',
          content: 'Where next?',
          imgs: [],
          vote: { options: ['Sea', 'Town'], days: 3 },
        }) as unknown,
      },
    ]);
    await shows('Posted');
  });

  it('keeps images and a vote apart, in the spec’s words', async () => {
    signIn();
    renderPages('/member/add-quanzi');
    await shows('New post');
    await step(() => fireEvent.click(screen.getByText('Add a vote')));
    await step(() => fireEvent.click(screen.getByText('Add an image')));
    await shows('Images, video and vote are mutually exclusive: remove one before adding another');
    await step(() => fireEvent.click(screen.getByText('Remove the vote')));
    expect(screen.getByRole('button', { name: 'Add an image' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Just a title' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Just text' } });
    await publish();
    expect(sent.at(-1)?.body).not.toHaveProperty('vote');
  });
});

describe('member/add-quanzi: a post with a video', () => {
  const publish = () =>
    step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Post' }).at(-1) as HTMLElement));
  const pick = (label: string, file: File) =>
    step(() => fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { files: [file] } }));
  const mp4 = () => new File([new Uint8Array(2048)], 'ducks.mp4', { type: 'video/mp4' });
  const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'ducks.png', { type: 'image/png' });
  /** Lets the storage take the `n`th upload (from 0). */
  const store = async (n: number) => {
    await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
    const request = FakeXhr.sent[n] as FakeXhr;
    const key = request.form()[1]?.[1] ?? '';
    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    return `${UPLOAD_URL}/${key}`;
  };

  it('posts the text with a video and its cover, uploaded in that order, checked first', async () => {
    signIn();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.sent = [];
    renderPages('/member/add-quanzi');
    await shows('New post');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Ducks out tonight' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Ducks at dusk' } });
    await step(() => fireEvent.click(screen.getByText('Add a video')));
    // A video keeps images and a vote out.
    expect(screen.queryByRole('button', { name: 'Add an image' })).toBeNull();
    await step(() => fireEvent.click(screen.getByText('Add a vote')));
    await shows('Images, video and vote are mutually exclusive: remove one before adding another');
    await publish();
    await shows('Please upload a video');
    await pick('Choose a video', mp4());
    await publish();
    await shows('A video cover is required');
    await pick('Choose a cover', png());
    expect(FakeXhr.sent).toEqual([]);
    await publish();
    const video = await store(0);
    const cover = await store(1);
    await shows('Posted');
    expect(FakeXhr.sent.map((xhr) => xhr.form().at(-1)?.[1])).toEqual([
      'ducks.mp4 (video/mp4)',
      'ducks.png (image/png)',
    ]);
    expect(sent).toEqual([
      {
        path: 'quanzi_add',
        body: expect.objectContaining({
          title: 'Ducks out tonight',
          content: 'Ducks at dusk',
          imgs: [],
          video,
          img: cover,
        }) as unknown,
      },
    ]);
    expect(sent[0]?.body).not.toHaveProperty('vote');
  });

  it('drops the video and its cover on Remove, and posts without them', async () => {
    signIn();
    renderPages('/member/add-quanzi');
    await shows('New post');
    await step(() => fireEvent.click(screen.getByText('Add a video')));
    await pick('Choose a video', mp4());
    await step(() => fireEvent.click(screen.getByText('Remove the video and cover')));
    expect(screen.getByRole('button', { name: 'Add an image' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Just a title' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Just text' } });
    await publish();
    await shows('Posted');
    expect(sent.at(-1)?.body).not.toHaveProperty('video');
  });
});

describe('topic/index and topic/list', () => {
  const WALKS: Topic = { id: 't1', title: 'Walks', intro: 'Where to go', img: '', posts: 1 };
  const FOOD: Topic = { id: 't2', title: 'Food', intro: '', img: '', posts: 0 };

  it('lists the topics, opens one with its posts, and posts to it', async () => {
    signIn();
    topics = [WALKS, FOOD];
    posts = [post(2), post(1, { topic: { id: 't1', title: 'Walks' } })];
    renderPages('/pages/quanzi/index');
    await shows('Post number 2');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Topics' })));
    await vi.waitFor(() => expect(screen.getAllByTestId('topic')).toHaveLength(2));
    expect(screen.getByText('1 post')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('#Walks#')));
    await vi.waitFor(() => expect(screen.getAllByTestId('post')).toHaveLength(1));
    expect(within(screen.getByTestId('topic-head')).getByText('Where to go')).toBeTruthy();
    expect(screen.getByText('Post number 1')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Post' })));
    await shows('New post');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Hill flowers' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Up the hill' } });
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Post' }).at(-1) as HTMLElement));
    expect(sent.find((s) => s.path === 'quanzi_add')?.body).toMatchObject({ content: 'Up the hill', topic: 't1' });
  });

  it('opens a post’s topic from the circle, and says so when the topic was deleted', async () => {
    topics = [WALKS];
    posts = [post(1, { topic: { id: 't1', title: 'Walks' } })];
    renderPages('/pages/quanzi/index');
    await shows('Post number 1');
    await step(() => fireEvent.click(screen.getByRole('button', { name: '#Walks#' })));
    await vi.waitFor(() => expect(screen.getByTestId('topic-head')).toBeTruthy());
    cleanup();
    renderPages('/topic/list?id=gone');
    await shows('Topic does not exist or was deleted');
    expect(screen.queryByRole('button', { name: 'Post' })).toBeNull();
  });

  it('says when there are no topics, and posts to none when none is picked', async () => {
    signIn();
    renderPages('/topic/index');
    await shows('No topics yet');
    cleanup();
    topics = [WALKS];
    renderPages('/member/add-quanzi');
    await shows('Topic');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Nothing on topic' } });
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'No topic here' } });
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Post' }).at(-1) as HTMLElement));
    expect(sent.find((s) => s.path === 'quanzi_add')?.body).not.toHaveProperty('topic');
  });
});
