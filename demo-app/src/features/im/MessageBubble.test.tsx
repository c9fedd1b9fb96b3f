// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Message } from 'parley-im';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-utils';
import { MessageBubble } from './MessageBubble';

afterEach(cleanup);

const XSS = '<img src=x onerror=alert(1)>';
const FILES = 'https://files.test/uploads/im/abc';

function received(type: string, payload: unknown): Message {
  return {
    messageId: `${type}-1`,
    type,
    timestamp: 1000,
    senderId: 'bob',
    payload,
    status: 'success',
    recalled: false,
    scene: 'private',
    receiverId: 'me',
    read: false,
  };
}

function show(message: Message, language: 'en' | 'zh-CN' = 'en') {
  const noop = () => undefined;
  return renderApp(
    <MessageBubble
      message={message}
      me="me"
      emoji={undefined}
      showSender={false}
      onRetry={noop}
      onRecall={noop}
      onDelete={noop}
    />,
    { language },
  );
}

const media = () => screen.getByTestId('media');

describe('media bubbles', () => {
  it('shows an image at its size scaled to fit, from the thumbnail, and opens the full image on tap', async () => {
    show(
      received('image', {
        url: `${FILES}/cat.png`,
        thumbnail: `${FILES}/cat.png?x-oss-process=image/resize,m_lfit,h_200`,
        name: 'cat.png',
        size: 1234,
        contentType: 'image/png',
        width: 800,
        height: 400,
      }),
    );
    const img = within(media()).getByRole('img', { name: 'cat.png' });
    expect(img.getAttribute('src')).toBe(`${FILES}/cat.png?x-oss-process=image/resize,m_lfit,h_200`);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['200', '100']);
    fireEvent.click(img);
    await waitFor(() =>
      expect(document.querySelector(`.adm-image-viewer-content img[src="${FILES}/cat.png"]`)).not.toBeNull(),
    );
  });

  it('shows a video as its thumbnail with a play button that opens a player with controls', () => {
    show(
      received('video', {
        video: {
          name: 'clip.mp4',
          url: `${FILES}/clip.mp4`,
          width: 1280,
          height: 720,
          contentType: 'video/mp4',
          size: 100,
          duration: 75,
        },
        thumbnail: { name: 'clip.jpg', url: `${FILES}/clip.jpg`, width: 356, height: 200, contentType: 'image/jpeg' },
      }),
    );
    const play = within(media()).getByRole('button', { name: 'Play video' });
    expect(play.querySelector('img')?.getAttribute('src')).toBe(`${FILES}/clip.jpg`);
    expect(play.textContent).toContain('1:15');
    expect(media().querySelector('video')).toBeNull();
    fireEvent.click(play);
    const video = media().querySelector('video');
    expect(video?.getAttribute('src')).toBe(`${FILES}/clip.mp4`);
    expect(video?.hasAttribute('controls')).toBe(true);
  });

  it('leaves a video’s cover plain when its thumbnail does not load, and plays it without a poster', () => {
    const snapshot = `${FILES}/clip.avi?x-oss-process=video/snapshot,t_0000,f_jpg,h_200,m_fast,ar_auto`;
    show(
      received('video', {
        video: { name: 'clip.avi', url: `${FILES}/clip.avi`, width: 0, height: 0, size: 100, duration: 0 },
        thumbnail: { name: 'clip.avi', url: snapshot, width: 0, height: 0, contentType: 'image/jpeg' },
      }),
    );
    const play = within(media()).getByRole('button', { name: 'Play video' });
    const cover = play.querySelector('img');
    expect(cover?.getAttribute('src')).toBe(snapshot);
    fireEvent.error(cover as HTMLImageElement);
    expect(play.querySelector('img')).toBeNull();
    fireEvent.click(play);
    expect(media().querySelector('video')?.hasAttribute('poster')).toBe(false);
  });

  it('shows audio as a player with its duration', () => {
    show(
      received('audio', {
        url: `${FILES}/voice.mp3`,
        name: 'voice.mp3',
        size: 5,
        contentType: 'audio/mpeg',
        duration: 12.4,
      }),
    );
    const audio = media().querySelector('audio');
    expect(audio?.getAttribute('src')).toBe(`${FILES}/voice.mp3`);
    expect(audio?.hasAttribute('controls')).toBe(true);
    expect(media().textContent).toContain('0:12');
  });

  it('shows a file with its name, size and a download link', () => {
    show(
      received('file', { url: `${FILES}/notes.pdf`, name: 'notes.pdf', size: 1536, contentType: 'application/pdf' }),
      'zh-CN',
    );
    expect(within(media()).getByText('notes.pdf')).toBeTruthy();
    expect(within(media()).getByText('1.5 KB')).toBeTruthy();
    const link = within(media()).getByRole('link', { name: '下载' });
    expect(link.getAttribute('href')).toBe(`${FILES}/notes.pdf`);
    expect(link.getAttribute('download')).toBe('notes.pdf');
  });

  it('shows names from the payload as text, and never uses a URL that is not http(s)', () => {
    show(received('file', { url: 'javascript:alert(1)', name: XSS, size: 10, contentType: 'text/html' }));
    expect(within(media()).getByText(XSS)).toBeTruthy();
    expect(media().querySelector('img[src="x"]')).toBeNull();
    expect(within(media()).queryByRole('link')).toBeNull();
    cleanup();

    show(received('image', { url: 'javascript:alert(1)', thumbnail: 'data:image/svg+xml,<svg/>', name: XSS }));
    expect(media().querySelector('img')).toBeNull();
    expect(within(media()).getByText('File not available')).toBeTruthy();
    expect(within(media()).getByText(XSS)).toBeTruthy();
    cleanup();

    show(received('video', { video: { url: 'javascript:alert(1)', name: XSS }, thumbnail: 'nonsense' }));
    expect(within(media()).queryByRole('button', { name: 'Play video' })).toBeNull();
    expect(within(media()).getByText(XSS)).toBeTruthy();
    cleanup();

    show(received('audio', 'not an object'));
    expect(media().querySelector('audio')).toBeNull();
    expect(within(media()).getByText('File not available')).toBeTruthy();
  });
});
