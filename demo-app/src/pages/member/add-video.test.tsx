// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../features/api/fake-xhr';
import { UPLOAD_MAX_BYTES } from '../../features/api/upload';
import { isVideoFile, videoProgress } from '../../features/content/videos';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddVideo from './add-video';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';

/** The bodies of `member/video_add` calls, and the server's refusal of the next one, if any. */
const adds: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/article/typeid', () =>
    HttpResponse.json({ ret: { mine: [{ id: 'c1', name: 'Travel' }], more: [{ id: 'c2', name: 'Food' }] } }),
  ),
  http.post('*/index.php/api/member/video_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    adds.push(body);
    if (refusal) return HttpResponse.json(refusal);
    return HttpResponse.json({ ret: { id: 'v7' }, vid: 'v7' });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  adds.length = 0;
  refusal = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPage() {
  return renderApp(
    <Routes>
      <Route path="/member/add-video" element={<AddVideo />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/member/add-video' },
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const publish = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
const pick = (label: string, file: File) =>
  step(() => fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { files: [file] } }));
const mp4 = (name = 'lake.mp4') => new File([new Uint8Array(2048)], name, { type: 'video/mp4' });
const png = (name = 'cover.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const progressText = () => screen.getByTestId('video-progress').textContent;

/** The `n`th upload (from 0), once it has posted. */
async function upload(n: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
  return FakeXhr.sent[n] as FakeXhr;
}

/** Lets the storage take the `n`th upload, showing `half` percent at its half; resolves with the file's URL. */
async function store(n: number, half: string): Promise<string> {
  const request = await upload(n);
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.progress(50, 100));
  expect(progressText()).toContain(`Publishing ${half}%`);
  const url = `${UPLOAD_URL}/${key}`;
  await step(() => request.respond(200, JSON.stringify({ key, url })));
  return url;
}

describe('member/add-video', () => {
  it('weighs the video as 70 and the cover as 20 of the progress, and takes only the storage’s video types', () => {
    expect([videoProgress('video', 0), videoProgress('video', 50), videoProgress('video', 100)]).toEqual([0, 35, 70]);
    expect([videoProgress('cover', 0), videoProgress('cover', 50), videoProgress('cover', 100)]).toEqual([70, 80, 90]);
    expect(isVideoFile(mp4())).toBe(true);
    expect(isVideoFile(new File(['x'], 'clip.MOV', { type: '' }))).toBe(true);
    expect(isVideoFile(new File(['x'], 'clip', { type: 'video/3gpp' }))).toBe(true);
    expect(isVideoFile(new File(['x'], 'clip.webm', { type: 'video/webm' }))).toBe(false);
    expect(isVideoFile(png())).toBe(false);
  });

  it('checks the title, the text, the video and the cover, in that order, before it uploads anything', async () => {
    renderPage();
    await shows('Publish a video');
    await publish();
    await shows('The title must not be less than 5 characters');
    type('Title', 'A day at the lake');
    await publish();
    await shows('The text cannot be blank');
    type('Description', 'We walked all afternoon.');
    await publish();
    await shows('Please upload a video');
    await pick('Choose a video', png('still.png'));
    await shows('Only avi, mov, rmvb, rm, flv, mp4, 3gp videos can be published');
    const huge = mp4('huge.mp4');
    Object.defineProperty(huge, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    await pick('Choose a video', huge);
    await shows('Files can be at most 30 MB');
    await pick('Choose a video', new File([], 'empty.mp4', { type: 'video/mp4' }));
    await shows('The file is empty');
    expect(screen.queryByTestId('picked-video')).toBeNull();
    await pick('Choose a video', mp4());
    expect(screen.getByTestId('picked-video').textContent).toBe('lake.mp4 · 2 KB');
    await publish();
    await shows('A video cover is required');
    await pick('Choose a cover', mp4('not-a-cover.mp4'));
    await shows('Only jpg, png, gif and jpeg images');
    expect(FakeXhr.sent).toEqual([]);
    expect(adds).toEqual([]);
  });

  it('plays the picked video before it is sent, its cover the poster, and lets the local copy go once removed', async () => {
    const made: Blob[] = [];
    const revoked: string[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => `blob:local/${made.push(blob)}`,
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    renderPage();
    await shows('Publish a video');
    expect(screen.queryByTestId('picked-video-preview')).toBeNull();
    const clip = mp4();
    await pick('Choose a video', clip);
    const player = screen.getByTestId('picked-video-preview');
    expect(player.getAttribute('src')).toBe('blob:local/1');
    expect(made[0]).toBe(clip);
    expect(player.hasAttribute('controls')).toBe(true);
    await pick('Choose a cover', png());
    expect(screen.getByTestId('picked-video-preview').getAttribute('poster')).toBe('blob:local/2');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove the video' })));
    expect(screen.queryByTestId('picked-video-preview')).toBeNull();
    expect(revoked).toEqual(['blob:local/1']);
  });

  it('uploads the video, then the cover, then publishes, and offers to view the video', async () => {
    renderPage();
    type('Title', ' A day at the lake ');
    type('Description', 'We walked all afternoon.\n');
    await pick('Choose a video', mp4());
    await pick('Choose a cover', png());
    expect(screen.getByRole<HTMLImageElement>('img', { name: 'Cover' }).src).toMatch(/^blob:/);
    await step(() => fireEvent.click(screen.getByText('Food')));
    await publish();
    const videoUrl = await store(0, '35');
    expect(FakeXhr.sent[0]?.form().at(-1)).toEqual(['file', 'lake.mp4 (video/mp4)']);
    const coverUrl = await store(1, '80');
    expect(FakeXhr.sent[1]?.form().at(-1)).toEqual(['file', 'cover.png (image/png)']);
    await shows('Published');
    expect(adds).toEqual([
      expect.objectContaining({
        title: 'A day at the lake',
        content: 'We walked all afternoon.',
        video: videoUrl,
        img: coverUrl,
        typeid: 'c2',
      }),
    ]);
    expect(videoUrl).toMatch(/\.mp4$/);
    expect(coverUrl).toMatch(/\.png$/);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View content' })));
    expect(screen.getByTestId('where').textContent).toBe('/video/view?id=v7');
  });

  it('alerts when an upload fails, and publishing again uploads only what is missing', async () => {
    renderPage();
    type('Title', 'A day at the lake');
    type('Description', 'We walked all afternoon.');
    await pick('Choose a video', mp4());
    await pick('Choose a cover', png());
    await publish();
    await store(0, '35');
    const refused = await upload(1);
    await step(() => refused.respond(500, JSON.stringify({ code: 'storage_down', content: 'the storage is down' })));
    await shows('Image, video and video-cover upload failed');
    expect(screen.getByText('the storage is down')).toBeTruthy();
    // The progress jumps to the end under the alert.
    expect(progressText()).toContain('Publishing 100%');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'OK' })));
    await vi.waitFor(() => expect(screen.queryByTestId('video-progress')).toBeNull());
    expect(adds).toEqual([]);

    await publish();
    await store(2, '80');
    await shows('Published');
    expect(FakeXhr.sent.map((xhr) => xhr.form().at(-1)?.[1])).toEqual([
      'lake.mp4 (video/mp4)',
      'cover.png (image/png)',
      'cover.png (image/png)',
    ]);
    expect(adds).toHaveLength(1);
  });

  it('shows the server’s refusal of the post, and keeps the form', async () => {
    refusal = { err: 'please upload a video', code: 'video_invalid' };
    renderPage();
    type('Title', 'A day at the lake');
    type('Description', 'We walked all afternoon.');
    await pick('Choose a video', mp4());
    await pick('Choose a cover', png());
    await publish();
    await store(0, '35');
    await store(1, '80');
    await shows('Please upload a video');
    expect(adds).toHaveLength(1);
    expect(screen.queryByTestId('video-progress')).toBeNull();
    expect(screen.getByTestId('picked-video').textContent).toContain('lake.mp4');
  });
});
