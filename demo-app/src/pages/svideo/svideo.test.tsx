// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoCard } from '../../features/content/videos';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import VideoTab from '../video/index';
import ShortVideos from './index';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's videos, newest first, and what was sent to it. */
let videos: VideoCard[] = [];
const asked: Array<{ path: string; body: Record<string, unknown> }> = [];
const bodyOf = async (request: Request) => (await request.json()) as Record<string, unknown>;
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/video/lists', async ({ request }) => {
    const body = await bodyOf(request);
    asked.push({ path: 'video/lists', body });
    const from = body['before'] === undefined ? 0 : videos.findIndex((v) => v.id === body['before']) + 1;
    return HttpResponse.json({ ret: videos.slice(from, from + 20) });
  }),
  http.post('*/index.php/api/article/view', async ({ request }) => {
    const body = await bodyOf(request);
    const found = videos.find((v) => v.id === body['id']);
    return HttpResponse.json(
      found
        ? { ret: { ...found, content: 'About it', collected: false, mine: false } }
        : { err: 'content does not exist or was deleted by the author', code: 'article_missing' },
    );
  }),
  http.post('*/index.php/api/article/zan', async ({ request }) => {
    const body = await bodyOf(request);
    asked.push({ path: 'article/zan', body });
    const found = videos.find((v) => v.id === body['id']);
    const zan = body['zan'] === true;
    return HttpResponse.json({ ret: { likes: (found?.likes ?? 0) + (zan ? 1 : 0), comments: 2, liked: zan } });
  }),
);

/** The sources the players were told to play, in order, and those paused. */
const played: string[] = [];
const paused: string[] = [];
let refusePlay = false;

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  videos = [];
  asked.length = 0;
  played.length = 0;
  paused.length = 0;
  refusePlay = false;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    played.push(this.getAttribute('src') ?? '');
    return refusePlay ? Promise.reject(new DOMException('no gesture', 'NotAllowedError')) : Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.push(this.getAttribute('src') ?? '');
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});
afterAll(() => api.close());

const video = (n: number): VideoCard => ({
  id: `v${n}`,
  title: `Video number ${n}`,
  summary: '',
  imgs: [],
  author: { id: '7', username: 'Bob', img: '' },
  channel: null,
  created_at: Date.now(),
  likes: n,
  comments: 2,
  liked: false,
  video: { url: `https://files.test/${n}.mp4`, cover: `https://files.test/${n}.png` },
});

function renderPages(path: string) {
  return renderApp(
    <Routes>
      <Route path="/pages/video/index" element={<VideoTab />} />
      <Route path="/svideo/index" element={<ShortVideos />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

const slides = () => screen.getAllByTestId('svideo');
const current = () => slides().find((slide) => slide.getAttribute('aria-current') === 'true') as HTMLElement;
const players = () => screen.getAllByTestId<HTMLVideoElement>('svideo-player');
const press = (key: string) => step(() => fireEvent.keyDown(screen.getByRole('feed'), { key }));

describe('svideo/index: short videos, full screen', () => {
  it('opens from a cover in the video tab at that video, the older ones after it, and plays it muted', async () => {
    videos = [video(3), video(2), video(1)];
    renderPages('/pages/video/index');
    await shows('Video number 3');
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Play' })[1] as HTMLElement));
    await vi.waitFor(() => expect(slides()).toHaveLength(2));
    expect(slides().map((slide) => slide.getAttribute('aria-label'))).toEqual(['Video number 2', 'Video number 1']);
    expect(current().getAttribute('aria-label')).toBe('Video number 2');
    expect(asked).toContainEqual({ path: 'video/lists', body: expect.objectContaining({ before: 'v2' }) as unknown });
    expect(played).toEqual(['https://files.test/2.mp4']);
    expect(players().map((player) => player.muted)).toEqual([true, true]);
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Turn the sound on' })));
    expect(players().map((player) => player.muted)).toEqual([false, false]);
    expect(within(current()).getByRole('button', { name: 'Turn the sound off' })).toBeTruthy();
  });

  it('moves with the keys and the scroll, one playing at a time, players only near it, the next page ahead', async () => {
    videos = Array.from({ length: 30 }, (_, i) => video(30 - i));
    renderPages('/svideo/index?id=v30');
    await vi.waitFor(() => expect(slides()).toHaveLength(21));
    expect(players()).toHaveLength(2);
    await press('ArrowDown');
    expect(current().getAttribute('aria-label')).toBe('Video number 29');
    expect(played.at(-1)).toBe('https://files.test/29.mp4');
    expect(paused).toContain('https://files.test/30.mp4');
    expect(players().map((player) => player.getAttribute('src'))).toEqual([
      'https://files.test/30.mp4',
      'https://files.test/29.mp4',
      'https://files.test/28.mp4',
    ]);
    await press('ArrowUp');
    await press('ArrowUp');
    expect(current().getAttribute('aria-label')).toBe('Video number 30');
    // A swipe: the feed scrolled by eighteen screens of 600 pixels, three from the last loaded.
    const feed = screen.getByRole('feed');
    Object.defineProperty(feed, 'clientHeight', { configurable: true, value: 600 });
    feed.scrollTop = 18 * 600;
    await step(() => fireEvent.scroll(feed));
    expect(current().getAttribute('aria-label')).toBe('Video number 12');
    await vi.waitFor(() => expect(slides()).toHaveLength(30));
    expect(asked.map((call) => call.body['before'])).toEqual(['v30', 'v10']);
    await press('End');
    expect(current().getAttribute('aria-label')).toBe('Video number 12');
  });

  it('likes the video in view, and sends a visitor who likes to sign in', async () => {
    videos = [video(2), video(1)];
    localStorage.setItem('user', JSON.stringify(USER));
    renderPages('/svideo/index?id=v2');
    await vi.waitFor(() => expect(slides()).toHaveLength(2));
    expect(within(current()).getByTestId('svideo-likes').textContent).toBe('2');
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Like' })));
    await vi.waitFor(() => expect(within(current()).getByTestId('svideo-likes').textContent).toBe('3'));
    expect(within(current()).getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    expect(asked.at(-1)).toEqual({
      path: 'article/zan',
      body: expect.objectContaining({ id: 'v2', zan: true }) as unknown,
    });
    cleanup();
    localStorage.clear();
    renderPages('/svideo/index?id=v2');
    await vi.waitFor(() => expect(slides()).toHaveLength(2));
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Like' })));
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/user\/login/));
  });

  it('opens the comments and the page of the video in view', async () => {
    videos = [video(1)];
    renderPages('/svideo/index?id=v1');
    await vi.waitFor(() => expect(slides()).toHaveLength(1));
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Comments' })));
    expect(screen.getByTestId('where').textContent).toBe('/article/ping?id=v1');
    cleanup();
    renderPages('/svideo/index?id=v1');
    await vi.waitFor(() => expect(slides()).toHaveLength(1));
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Video page' })));
    expect(screen.getByTestId('where').textContent).toBe('/video/view?id=v1');
  });

  it('shows a play button when the browser refuses to start, and plays on a tap', async () => {
    videos = [video(1)];
    refusePlay = true;
    renderPages('/svideo/index?id=v1');
    await vi.waitFor(() => expect(within(current()).getByRole('button', { name: 'Play' })).toBeTruthy());
    refusePlay = false;
    await step(() => fireEvent.click(within(current()).getByRole('button', { name: 'Play' })));
    expect(within(current()).queryByRole('button', { name: 'Play' })).toBeNull();
    expect(played).toEqual(['https://files.test/1.mp4', 'https://files.test/1.mp4']);
  });

  it('says why when the videos cannot be read, and reads them again on Retry', async () => {
    videos = [video(1)];
    api.use(
      http.post(
        '*/index.php/api/video/lists',
        () => HttpResponse.json({ err: 'parameter error', code: 'bad_params' }),
        {
          once: true,
        },
      ),
    );
    renderPages('/svideo/index');
    await shows('Parameter error');
    expect(screen.queryByText('No videos yet')).toBeNull();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await vi.waitFor(() => expect(slides()).toHaveLength(1));
  });

  it('starts from the newest without an id, and says when there are no videos', async () => {
    videos = [video(2), video(1)];
    renderPages('/svideo/index');
    await vi.waitFor(() => expect(slides()).toHaveLength(2));
    expect(current().getAttribute('aria-label')).toBe('Video number 2');
    cleanup();
    videos = [];
    renderPages('/svideo/index?id=v9');
    await shows('No videos yet');
  });
});
