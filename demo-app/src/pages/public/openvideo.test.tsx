// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, shows } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import OpenVideo from './openvideo';

beforeAll(() => installAntdRender());
afterEach(() => cleanup());

const open = (query: string) =>
  renderApp(
    <Routes>
      <Route path="/public/openvideo" element={<OpenVideo />} />
    </Routes>,
    { path: `/public/openvideo${query}` },
  );

describe('public/openvideo: the video preview', () => {
  it('plays the video of the link, with its controls, under the title', async () => {
    const url = 'https://files.test/uploads/clip.mp4';
    open(`?url=${encodeURIComponent(url)}&title=${encodeURIComponent('My clip')}`);
    await shows('My clip');
    const video = screen.getByTestId<HTMLVideoElement>('open-video');
    expect(video.getAttribute('src')).toBe(url);
    expect(video.controls).toBe(true);
    expect(video.autoplay).toBe(true);
  });

  it('says the link does not exist for none, or one that is not http(s)', async () => {
    for (const query of ['', '?url=', `?url=${encodeURIComponent('javascript:alert(1)')}`]) {
      open(query);
      await shows('Link does not exist');
      expect(screen.queryByTestId('open-video')).toBeNull();
      expect(screen.getByText('Video')).toBeTruthy();
      cleanup();
    }
  });
});
