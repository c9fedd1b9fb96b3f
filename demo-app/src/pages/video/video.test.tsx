// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VideoCard } from '../../features/content/videos';
import { renderApp, shows, step, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import Collection from '../member/record';
import VideoTab from './index';
import VideoPage from './view';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

/** The fake server's videos and channels, and the bodies of `video/lists` calls (`in`: the channel of the path). */
let videos: VideoCard[] = [];
let channels: Array<{ id: string; name: string }> = [];
const asked: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/video/lists', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    asked.push(body);
    const from = body['before'] === undefined ? 0 : videos.findIndex((v) => v.id === body['before']) + 1;
    return HttpResponse.json({ ret: videos.slice(from, from + 20) });
  }),
  http.post('*/index.php/api/video/lists/in/:typeid', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, unknown>;
    asked.push({ ...body, in: params['typeid'] });
    return HttpResponse.json({ ret: videos.filter((v) => v.channel?.id === params['typeid']) });
  }),
  http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: channels, more: [] } })),
  http.post('*/index.php/api/article/view', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    const found = videos.find((v) => v.id === body['id']);
    return HttpResponse.json(
      found
        ? { ret: { ...found, content: `The story of ${found.title}`, collected: false, mine: false } }
        : { err: 'content does not exist or was deleted by the author', code: 'article_missing' },
    );
  }),
  http.post('*/index.php/api/member/record', () =>
    HttpResponse.json({
      ret: [video(3), { ...video(4), title: 'A plain article', video: null, imgs: [] }],
    }),
  ),
  http.post('*/index.php/api/article/zan', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    asked.push({ zan: body['zan'], id: body['id'] });
    return HttpResponse.json({ ret: { likes: 2, comments: 2, liked: true } });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  videos = [];
  channels = [];
  asked.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

function renderTab(path = '/pages/video/index') {
  return renderApp(
    <Routes>
      <Route path="/pages/video/index" element={<VideoTab />} />
      <Route path="/video/view" element={<VideoPage />} />
      <Route path="/member/record" element={<Collection />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );
}

const video = (n: number): VideoCard => ({
  id: `v${n}`,
  title: `Video number ${n}`,
  summary: `About video ${n}`,
  imgs: [],
  author: { id: '7', username: 'Bob', img: '' },
  channel: null,
  created_at: Date.now(),
  likes: n,
  comments: 2,
  liked: false,
  video: { url: `https://files.test/${n}.mp4`, cover: `https://files.test/${n}.png` },
});

describe('pages/video/index: the video tab', () => {
  it('lists videos with their cover, play mark, title, author and counts, and opens one', async () => {
    videos = [video(2), video(1)];
    renderTab();
    await shows('Video number 2');
    expect(screen.getAllByTestId('video')).toHaveLength(2);
    expect(screen.getAllByText('Bob')).toHaveLength(2);
    expect([...document.querySelectorAll('.video-cover img')].map((img) => img.getAttribute('src'))).toEqual([
      'https://files.test/2.png',
      'https://files.test/1.png',
    ]);
    expect(screen.getAllByLabelText('Play')).toHaveLength(2);
    expect(screen.getByText(/2 likes/)).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('Video number 1')));
    await shows('The story of Video number 1');
    expect(screen.getByTestId('video-player').getAttribute('src')).toBe('https://files.test/1.mp4');
  });

  it('pages twenty at a time', async () => {
    videos = Array.from({ length: 25 }, (_, i) => video(25 - i));
    renderTab();
    await shows('Video number 25');
    expect(screen.getAllByTestId('video')).toHaveLength(20);
    expect(asked.map((body) => body['before'])).toEqual([undefined]);
  });

  it('shows one channel’s videos in its tab, from video/lists/in/{id} (spec §7)', async () => {
    channels = [
      { id: 'c1', name: 'Travel' },
      { id: 'c2', name: 'Food' },
    ];
    videos = [
      { ...video(3), channel: { id: 'c2', name: 'Food' } },
      { ...video(2), channel: { id: 'c1', name: 'Travel' } },
      video(1),
    ];
    renderTab();
    await shows('Video number 1');
    expect(screen.getAllByTestId('video')).toHaveLength(3);
    await step(() => fireEvent.click(screen.getByText('Travel')));
    await shows('Video number 2');
    expect(screen.getAllByTestId('video')).toHaveLength(1);
    expect(asked.at(-1)).toMatchObject({ in: 'c1' });
    expect(asked.at(-1)).not.toHaveProperty('typeid');
    await step(() => fireEvent.click(screen.getByText('Food')));
    await shows('Video number 3');
    expect(screen.queryByText('Video number 2')).toBeNull();
    videos = [];
    await step(() => fireEvent.click(screen.getByText('Travel')));
    await shows('No videos in this channel yet');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Channels' })));
    expect(screen.getByTestId('where').textContent).toBe('/article/typeid');
  });

  it('says when there is none; the publish button is for signed-in members', async () => {
    renderTab();
    await shows('No videos yet');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    cleanup();
    localStorage.setItem('user', JSON.stringify(USER));
    renderTab();
    await shows('No videos yet');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
    expect(screen.getByTestId('where').textContent).toBe('/member/add-video');
  });
});

describe('member/record: My collection', () => {
  it('shows a collected video as in the video tab, opening the video page, and an article as an article', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    videos = [video(3)];
    renderTab('/member/record');
    await shows('Video number 3');
    expect(screen.getAllByTestId('video')).toHaveLength(1);
    expect(screen.getAllByTestId('article')).toHaveLength(1);
    expect(document.querySelector('.video-cover img')?.getAttribute('src')).toBe('https://files.test/3.png');
    await step(() => fireEvent.click(screen.getByText('Video number 3')));
    await shows('The story of Video number 3');
    expect(screen.getByTestId('video-player').getAttribute('src')).toBe('https://files.test/3.mp4');
  });
});

describe('video/view: a video', () => {
  it('plays the video with its cover as the poster, with title, author, text, likes and comments', async () => {
    localStorage.setItem('user', JSON.stringify(USER));
    videos = [video(1)];
    renderTab('/video/view?id=v1');
    await shows('The story of Video number 1');
    const player = screen.getByTestId('video-player');
    expect(player.tagName).toBe('VIDEO');
    expect(player.getAttribute('src')).toBe('https://files.test/1.mp4');
    expect(player.getAttribute('poster')).toBe('https://files.test/1.png');
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.hasAttribute('playsinline')).toBe(true);
    expect(screen.getByText('Bob')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Like' })));
    expect(asked).toContainEqual({ zan: true, id: 'v1' });
    await step(() => fireEvent.click(screen.getByText('Bob')));
    expect(screen.getByTestId('where').textContent).toBe('/user/home?id=7');
  });

  it('says so when the video does not exist or was deleted', async () => {
    renderTab('/video/view?id=gone');
    await shows('Content does not exist or was deleted by the author');
  });
});
