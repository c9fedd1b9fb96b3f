// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr } from '../../features/api/fake-xhr';
import { fakePost } from '../../features/circle/fake-posts';
import type { Language } from '../../i18n';
import { renderApp, shows, step, uploadHandlers, Where, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AddPost from './add-quanzi';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';

/** The bodies of `member/quanzi_add` calls, and the server's refusal of the next one, if any. */
const adds: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/topic/index', () => HttpResponse.json({ ret: [] })),
  http.post('*/index.php/api/member/quanzi_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    adds.push(body);
    if (refusal) return HttpResponse.json(refusal);
    const post = fakePost(1, { title: String(body['title']), content: String(body['content']), mine: true });
    return HttpResponse.json({ ret: post, id: post.id });
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

function renderPage(language: Language = 'en') {
  return renderApp(
    <Routes>
      <Route path="/member/add-quanzi" element={<AddPost />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/member/add-quanzi', language },
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const publish = () =>
  step(() => fireEvent.click(screen.getAllByRole('button', { name: 'Post' }).at(-1) as HTMLElement));
const SHORT = 'The title must not be less than 5 characters';

describe('member/add-quanzi: the title', () => {
  it('has a title field above the text', async () => {
    renderPage();
    await shows('New post');
    const title = screen.getByLabelText('Title');
    expect(title.getAttribute('placeholder')).toBe('5 to 30 characters');
    expect(
      title.compareDocumentPosition(screen.getByLabelText('Text')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('refuses a title under 5 characters, checked before the text, and sends nothing', async () => {
    renderPage();
    await shows('New post');
    await publish();
    await shows(SHORT);
    expect(screen.queryByText('The text cannot be blank')).toBeNull();
    type('Text', 'Spring at the lake');
    // Four characters after trimming, counted as characters (an emoji is one, though two UTF-16 units).
    for (const title of ['Four', '  四个字啊  ', '😀😀😀😀']) {
      type('Title', title);
      await publish();
    }
    expect(adds).toEqual([]);
  });

  it('refuses a title over 30 characters', async () => {
    renderPage();
    await shows('New post');
    type('Title', 'x'.repeat(31));
    type('Text', 'Spring at the lake');
    await publish();
    await shows('The title has at most 30 characters');
    expect(adds).toEqual([]);
  });

  it('says so in Chinese too', async () => {
    renderPage('zh-CN');
    await shows('发帖');
    fireEvent.change(screen.getByLabelText('标题'), { target: { value: '春天' } });
    fireEvent.change(screen.getByLabelText('正文'), { target: { value: '湖边的花开了' } });
    await step(() => fireEvent.click(screen.getAllByRole('button', { name: '发布' }).at(-1) as HTMLElement));
    await shows('标题不能少于 5 个字');
    expect(adds).toEqual([]);
  });

  it('sends a title of 5 characters, trimmed, with the text, and closes', async () => {
    renderPage();
    await shows('New post');
    type('Title', '  Lake!  ');
    type('Text', 'Spring at the lake');
    await publish();
    await shows('Posted');
    expect(adds).toEqual([expect.objectContaining({ title: 'Lake!', content: 'Spring at the lake', imgs: [] })]);
    expect(screen.getByTestId('where').textContent).toBe('/pages/article/index');
  });

  it('shows the server’s refusal of the title in the app’s words', async () => {
    refusal = { err: 'title must not be less than 5 characters', code: 'post_title_short' };
    renderPage();
    await shows('New post');
    type('Title', 'Spring walk');
    type('Text', 'Spring at the lake');
    await publish();
    await shows(SHORT);
    expect(adds).toHaveLength(1);
    expect(screen.queryByTestId('where')).toBeNull();
  });
});

describe('member/add-quanzi: images', () => {
  const pick = (...files: File[]) =>
    step(() => fireEvent.change(screen.getByLabelText('Add an image', { selector: 'input' }), { target: { files } }));
  const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
  const progressText = () => screen.getByTestId('post-progress').textContent;
  const postedFiles = () => FakeXhr.sent.map((xhr) => xhr.form().at(-1)?.[1]);
  const write = () => {
    type('Title', 'A spring walk');
    type('Text', 'Spring at the lake');
  };

  /** The `n`th upload (from 0), once it has posted. */
  async function upload(n: number): Promise<FakeXhr> {
    await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(n));
    return FakeXhr.sent[n] as FakeXhr;
  }

  /** Lets the storage take the `n`th upload, alone, showing `half` percent at its half; resolves with its URL. */
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

  it('shows picked images at once and uploads them one by one when posted, 10 each, then the post', async () => {
    renderPage();
    await shows('New post');
    write();
    await pick(png('a.png'), png('b.png'));
    expect(screen.getByRole('img', { name: 'Image 2' })).toBeTruthy();
    expect(FakeXhr.sent).toEqual([]);
    await publish();
    const first = await store(0, '5');
    expect(progressText()).toContain('Publishing 10%');
    const second = await store(1, '15');
    await shows('Posted');
    expect(postedFiles()).toEqual(['a.png (image/png)', 'b.png (image/png)']);
    expect(adds).toEqual([expect.objectContaining({ imgs: [first, second] })]);
    expect(screen.getByTestId('where').textContent).toBe('/pages/article/index');
  });

  it('alerts when an upload fails at 100, keeps the post, and posting again uploads only what is missing', async () => {
    renderPage();
    await shows('New post');
    write();
    await pick(png('a.png'), png('b.png'));
    await publish();
    const first = await store(0, '5');
    const refused = await upload(1);
    await step(() => refused.respond(500, JSON.stringify({ code: 'storage_down', content: 'the storage is down' })));
    await shows('Image, video and video-cover upload failed');
    expect(progressText()).toContain('Publishing 100%');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'OK' })));
    await vi.waitFor(() => expect(screen.queryByTestId('post-progress')).toBeNull());
    expect(adds).toEqual([]);
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('A spring walk');
    expect(screen.getByRole('img', { name: 'Image 2' })).toBeTruthy();

    await publish();
    const second = await store(2, '15');
    await shows('Posted');
    expect(postedFiles()).toEqual(['a.png (image/png)', 'b.png (image/png)', 'b.png (image/png)']);
    expect(adds).toEqual([expect.objectContaining({ imgs: [first, second] })]);
  });

  it('stops the upload in flight when the member leaves the page', async () => {
    const { unmount } = renderPage();
    await shows('New post');
    write();
    await pick(png('a.png'));
    await publish();
    const request = await upload(0);
    unmount();
    expect(request.aborted).toBe(true);
    await step();
    expect(adds).toEqual([]);
  });
});
