// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, step } from '../../test-utils';
import { VideoPlayer, defaultSource, type VideoSource } from './VideoPlayer';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const URL = 'https://files.example/v.mp4';
const source = (quality: VideoSource['quality'], height: number, url = `${URL}.${height}p.mp4`) => ({
  quality,
  url,
  height,
});
const SMOOTH = source('smooth', 360);
const SD = source('sd', 480);
const HD = source('hd', 720, URL);
const BLURAY = source('bluray', 1080, URL);

const player = () => screen.getByTestId<HTMLVideoElement>('video-player');
const render = (sources: VideoSource[] | undefined, language: 'en' | 'zh-CN' = 'en') =>
  renderApp(<VideoPlayer className="article-video" testId="video-player" url={URL} cover="c.png" sources={sources} />, {
    language,
  });
const choices = () => screen.getAllByRole('menuitemradio').map((item) => item.textContent);

describe('video player resolutions (spec §2: smooth, SD, HD, Blu-ray)', () => {
  it('starts in HD when there is one, else the highest below it, else the lowest', () => {
    expect(defaultSource([SMOOTH, SD, source('hd', 720), BLURAY])?.quality).toBe('hd');
    expect(defaultSource([BLURAY, SD, SMOOTH])?.quality).toBe('sd');
    expect(defaultSource([BLURAY])?.quality).toBe('bluray');
    expect(defaultSource([])).toBeUndefined();
  });

  it('lists only the resolutions the video has, highest first, in the app’s language', async () => {
    render([SMOOTH, SD, HD]);
    expect(player().getAttribute('src')).toBe(URL);
    const button = screen.getByRole('button', { name: 'Resolution: HD' });
    await step(() => fireEvent.click(button));
    expect(choices()).toEqual(['HD', 'SD', 'Smooth']);
    expect(screen.getByRole('menuitemradio', { name: 'HD' }).getAttribute('aria-checked')).toBe('true');
    cleanup();

    render([SMOOTH, BLURAY], 'zh-CN');
    await step(() => fireEvent.click(screen.getByRole('button', { name: '清晰度: 流畅' })));
    expect(choices()).toEqual(['蓝光', '流畅']);
  });

  it('shows no switch with only the original, or before the resolutions are known', () => {
    render([HD]);
    expect(player().getAttribute('src')).toBe(URL);
    expect(screen.queryByRole('button', { name: /Resolution/ })).toBeNull();
    cleanup();
    render(undefined);
    expect(player().getAttribute('src')).toBe(URL);
    expect(screen.queryByRole('button', { name: /Resolution/ })).toBeNull();
  });

  it('switching reads the other file from where the video was, and plays on if it was playing', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    render([SMOOTH, SD, HD]);
    const video = player();
    video.currentTime = 12.5;
    Object.defineProperty(video, 'paused', { configurable: true, value: false });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Resolution: HD' })));
    await step(() => fireEvent.click(screen.getByRole('menuitemradio', { name: 'Smooth' })));
    expect(video.getAttribute('src')).toBe(SMOOTH.url);
    expect(screen.queryByRole('menu')).toBeNull();
    // The new file starts at 0 until its metadata is in; then the player goes back to where it was.
    video.currentTime = 0;
    await step(() => fireEvent.loadedMetadata(video));
    expect(video.currentTime).toBe(12.5);
    expect(play).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Resolution: Smooth' })).toBeTruthy();
  });

  it('a paused video stays paused at its place', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    render([SMOOTH, SD, HD]);
    const video = player();
    video.currentTime = 3;
    Object.defineProperty(video, 'paused', { configurable: true, value: true });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Resolution: HD' })));
    await step(() => fireEvent.click(screen.getByRole('menuitemradio', { name: 'SD' })));
    expect(video.getAttribute('src')).toBe(SD.url);
    video.currentTime = 0;
    await step(() => fireEvent.loadedMetadata(video));
    expect(video.currentTime).toBe(3);
    expect(play).not.toHaveBeenCalled();
  });
});
