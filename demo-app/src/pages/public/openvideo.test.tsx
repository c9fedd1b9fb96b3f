// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoSource } from '../../features/content/VideoPlayer';
import { renderApp, shows, step } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import OpenVideo from './openvideo';

/**
 * An uploaded video's link, and the resolutions the server has of it: the link itself, a 1080p original, is its
 * Blu-ray, where a player starts in HD.
 */
const UPLOADED = 'https://files.test/uploads/product/clip.mp4';
const SOURCES: VideoSource[] = [
  { quality: 'smooth', url: `${UPLOADED}.360p.mp4`, height: 360 },
  { quality: 'sd', url: `${UPLOADED}.480p.mp4`, height: 480 },
  { quality: 'hd', url: `${UPLOADED}.720p.mp4`, height: 720 },
  { quality: 'bluray', url: UPLOADED, height: 1080 },
];

const asked: unknown[] = [];
const api = setupServer(
  http.post('*/index.php/api/public/video_sources', async ({ request }) => {
    const { url } = (await request.json()) as { url: string };
    asked.push(url);
    return HttpResponse.json({ ret: url === UPLOADED ? SOURCES : [] });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  asked.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const open = (query: string) =>
  renderApp(
    <Routes>
      <Route path="/public/openvideo" element={<OpenVideo />} />
    </Routes>,
    { path: `/public/openvideo${query}` },
  );

const video = () => screen.getByTestId<HTMLVideoElement>('open-video');

describe('public/openvideo: the video preview', () => {
  it('plays the video of the link, with its controls, under the title', async () => {
    const url = 'https://files.test/uploads/clip.mp4';
    open(`?url=${encodeURIComponent(url)}&title=${encodeURIComponent('My clip')}`);
    await shows('My clip');
    expect(video().getAttribute('src')).toBe(url);
    expect(video().controls).toBe(true);
    expect(video().autoplay).toBe(true);
    // A link the server has no resolutions of: no switch.
    await vi.waitFor(() => expect(asked).toEqual([url]));
    await step();
    expect(screen.queryByRole('button', { name: /Resolution/ })).toBeNull();
    expect(video().getAttribute('src')).toBe(url);
  });

  it('offers the resolutions of an uploaded video, going on from the link, and switches between them', async () => {
    open(`?url=${encodeURIComponent(UPLOADED)}`);
    const button = await screen.findByRole('button', { name: 'Resolution: Blu-ray' });
    expect(asked).toEqual([UPLOADED]);
    expect(video().getAttribute('src')).toBe(UPLOADED);
    await step(() => fireEvent.click(button));
    await step(() => fireEvent.click(screen.getByRole('menuitemradio', { name: 'SD' })));
    expect(video().getAttribute('src')).toBe(`${UPLOADED}.480p.mp4`);
    expect(screen.getByRole('button', { name: 'Resolution: SD' })).toBeTruthy();
  });

  it('says the link does not exist for none, or one that is not http(s), and asks nothing', async () => {
    for (const query of ['', '?url=', `?url=${encodeURIComponent('javascript:alert(1)')}`]) {
      open(query);
      await shows('Link does not exist');
      expect(screen.queryByTestId('open-video')).toBeNull();
      expect(screen.getByText('Video')).toBeTruthy();
      cleanup();
    }
    expect(asked).toEqual([]);
  });
});
