// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../features/api/fake-xhr';
import { UPLOAD_MAX_BYTES } from '../../features/api/upload';
import { imageProgress } from '../../features/content/useImageDraft';
import { IMAGE_PROGRESS_EACH } from '../../features/content/videos';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddArticle from './add-article';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';

/** The bodies of `member/article_add` calls; the server's refusal of the next one, if any; a hold on its answer. */
const adds: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
let answerHeld: Promise<void> = Promise.resolve();
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/article/typeid', () => HttpResponse.json({ ret: { mine: [], more: [] } })),
  http.post('*/index.php/api/member/article_add', async ({ request }) => {
    adds.push((await request.json()) as Record<string, unknown>);
    await answerHeld;
    if (refusal) return HttpResponse.json(refusal);
    return HttpResponse.json({ ret: { id: 'a7' }, id: 'a7' });
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
  answerHeld = Promise.resolve();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

function renderPage() {
  return renderApp(
    <Routes>
      <Route path="/member/add-article" element={<AddArticle />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/member/add-article' },
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const publish = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Publish' })));
const pick = (...files: File[]) =>
  step(() => fireEvent.change(screen.getByLabelText('Add an image', { selector: 'input' }), { target: { files } }));
const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const progressText = () => screen.getByTestId('article-progress').textContent;
const thumb = (n: number) => screen.getByRole<HTMLImageElement>('img', { name: `Image ${n}` });
const postedFiles = () => FakeXhr.sent.map((xhr) => xhr.form().at(-1)?.[1]);

/** The `n`th upload (from 0), once it has posted. */
async function upload(n: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
  return FakeXhr.sent[n] as FakeXhr;
}

/**
 * Lets the storage take the `n`th upload, showing `half` percent at its half, when no later upload has started;
 * resolves with the file's URL.
 */
async function store(n: number, half: string): Promise<string> {
  const request = await upload(n);
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.progress(50, 100));
  expect(progressText()).toContain(`Publishing ${half}%`);
  expect(FakeXhr.sent).toHaveLength(n + 1);
  const url = `${UPLOAD_URL}/${key}`;
  await step(() => request.respond(200, JSON.stringify({ key, url })));
  return url;
}

/** Fills in a valid title and text. */
function write() {
  type('Title', 'A day at the lake');
  type('Text', 'We walked all afternoon.');
}

describe('member/add-article: images', () => {
  it('weighs each image as 10 of the progress', () => {
    expect(IMAGE_PROGRESS_EACH).toBe(10);
    expect([0, 50, 100].map((percent) => imageProgress(0, percent))).toEqual([0, 5, 10]);
    expect([imageProgress(1, 0), imageProgress(2, 50), imageProgress(8, 100)]).toEqual([10, 25, 90]);
  });

  it('shows picked images from the device at once, uploads none, and lets a removed one’s local copy go', async () => {
    let made = 0;
    const revoked: string[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: () => `blob:local/${++made}`,
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    const { unmount } = renderPage();
    await shows('Write an article');
    await pick(png('a.png'), png('b.png'));
    expect([thumb(1).src, thumb(2).src]).toEqual(['blob:local/1', 'blob:local/2']);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove image 1' })));
    expect(revoked).toEqual(['blob:local/1']);
    expect(thumb(1).src).toBe('blob:local/2');
    expect(screen.queryByRole('img', { name: 'Image 2' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
    unmount();
    expect(revoked).toEqual(['blob:local/1', 'blob:local/2']);
  });

  it('refuses a file that is no gif, jpg, jpeg or png, or is too large, when it is picked', async () => {
    renderPage();
    await shows('Write an article');
    await pick(new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    await shows('Only jpg, png, gif and jpeg images');
    const huge = png('huge.png');
    Object.defineProperty(huge, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    await pick(huge, png('fine.png'));
    await shows('Files can be at most 30 MB');
    expect(thumb(1)).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Image 2' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
  });

  it('uploads the images one by one on Publish, 10 each, then posts them in order at 100, and offers to view', async () => {
    let answer = () => {};
    answerHeld = new Promise((resolve) => (answer = resolve));
    renderPage();
    write();
    await pick(png('a.png'), png('b.png'));
    await pick(png('c.png'));
    await publish();
    const first = await store(0, '5');
    expect(progressText()).toContain('Publishing 10%');
    // While they upload the images stay as they are.
    expect(screen.getByRole('button', { name: 'Remove image 1' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Add an image' })).toBeNull();
    const second = await store(1, '15');
    expect(progressText()).toContain('Publishing 20%');
    const third = await store(2, '25');
    await vi.waitFor(() => expect(adds).toHaveLength(1));
    expect(progressText()).toContain('Publishing 30%');
    expect(postedFiles()).toEqual(['a.png (image/png)', 'b.png (image/png)', 'c.png (image/png)']);
    expect(adds[0]).toEqual(expect.objectContaining({ imgs: [first, second, third] }));
    await step(answer);
    await shows('Published');
    expect(progressText()).toContain('Publishing 100%');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'View content' })));
    expect(screen.getByTestId('where').textContent).toBe('/article/view?id=a7');
  });

  it('alerts when an upload fails at 100, keeps the form, and publishing again uploads only what is missing', async () => {
    renderPage();
    write();
    await pick(png('a.png'), png('b.png'), png('c.png'));
    await publish();
    const first = await store(0, '5');
    const refused = await upload(1);
    await step(() => refused.respond(500, JSON.stringify({ code: 'storage_down', content: 'the storage is down' })));
    await shows('Image, video and video-cover upload failed');
    expect(screen.getByText('the storage is down')).toBeTruthy();
    expect(progressText()).toContain('Publishing 100%');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'OK' })));
    await vi.waitFor(() => expect(screen.queryByTestId('article-progress')).toBeNull());
    expect(adds).toEqual([]);
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('A day at the lake');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Text').value).toBe('We walked all afternoon.');
    expect([1, 2, 3].map((n) => thumb(n).alt)).toEqual(['Image 1', 'Image 2', 'Image 3']);
    expect(screen.getByRole('button', { name: 'Remove image 1' })).toHaveProperty('disabled', false);

    await publish();
    // The first image is stored already: the progress starts past it.
    const second = await store(2, '15');
    const third = await store(3, '25');
    await shows('Published');
    expect(postedFiles()).toEqual(['a.png (image/png)', 'b.png (image/png)', 'b.png (image/png)', 'c.png (image/png)']);
    expect(adds).toEqual([expect.objectContaining({ imgs: [first, second, third] })]);
  });

  it('keeps the form when the post is refused, and publishing again uploads nothing twice', async () => {
    refusal = { err: 'too many articles today', code: 'too_frequent' };
    renderPage();
    write();
    await pick(png('a.png'));
    await publish();
    const url = await store(0, '5');
    await shows('Do not operate too frequently');
    await vi.waitFor(() => expect(screen.queryByTestId('article-progress')).toBeNull());
    refusal = undefined;
    await publish();
    await shows('Published');
    expect(FakeXhr.sent).toHaveLength(1);
    expect(adds).toEqual([expect.objectContaining({ imgs: [url] }), expect.objectContaining({ imgs: [url] })]);
  });

  it('stops the upload in flight when the member leaves the page, and posts nothing', async () => {
    const { unmount } = renderPage();
    write();
    await pick(png('a.png'), png('b.png'));
    await publish();
    const request = await upload(0);
    await step(() => request.progress(50, 100));
    unmount();
    expect(request.aborted).toBe(true);
    await step();
    expect(FakeXhr.sent).toHaveLength(1);
    expect(adds).toEqual([]);
    expect(screen.queryByText('Image, video and video-cover upload failed')).toBeNull();
  });
});
