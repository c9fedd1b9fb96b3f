// @vitest-environment jsdom
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { FakeXhr, posted } from './fake-xhr';
import { errorText } from './errors';
import { ApiError } from './request';
import { UPLOAD_MAX_BYTES, UPLOAD_TIMEOUT_MS, uploadFile, type UploadTokenAnswer } from './upload';
import { NO_ADS } from '../../test-utils';

const TOKEN: UploadTokenAnswer = {
  ret: 'appkey:signature:policy',
  upload_url: 'https://files.test/uploads',
  fields: { token: 'appkey:signature:policy' },
  key_prefix: 'product/abc/42/parley_',
  url_prefix: 'https://files.test/uploads/',
  expires_at: 0,
};

let tokenAnswer: object = { ...TOKEN };
const tokenCalls: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/qiniu_token', async ({ request }) => {
    tokenCalls.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(tokenAnswer);
  }),
);

const CONTEXT = { token: 'member-token', locale: 'en' };
const png = (name = 'cat.png', type = 'image/png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type });

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  tokenAnswer = { ...TOKEN };
  tokenCalls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

describe('uploadFile', () => {
  it('asks for a token, posts token, key and file to the upload URL with growing progress, and resolves with the URL', async () => {
    const progress: number[] = [];
    const xhr = posted();
    const done = uploadFile(png(), {
      context: CONTEXT,
      uploadUrl: TOKEN.upload_url,
      onProgress: (p) => progress.push(p),
    });
    const request = await xhr;
    expect(tokenCalls[0]?.['token']).toBe('member-token');
    expect(request.url).toBe(TOKEN.upload_url);
    const form = request.form();
    expect(form.map(([name]) => name)).toEqual(['token', 'key', 'file']);
    expect(form[0]?.[1]).toBe(TOKEN.ret);
    const key = form[1]?.[1] ?? '';
    expect(key).toMatch(/^product\/abc\/42\/parley_[a-z0-9]{32}\.png$/);
    expect(form[2]?.[1]).toBe('cat.png (image/png)');

    request.progress(25, 100);
    request.progress(25, 100);
    request.progress(100, 100);
    request.respond(200, JSON.stringify({ key, url: `https://files.test/uploads/${key}` }));
    expect(await done).toBe(`https://files.test/uploads/${key}`);
    expect(progress).toEqual([0, 25, 99, 100]);
  });

  it('makes a fresh random key for every file, and names an untyped file by its extension', async () => {
    const keys: string[] = [];
    for (const file of [png('a.png'), new File(['mov'], 'clip.MOV', { type: '' }), png('photo', 'image/jpeg')]) {
      const xhr = posted();
      const done = uploadFile(file, { context: CONTEXT, uploadUrl: TOKEN.upload_url });
      const request = await xhr;
      keys.push(request.form()[1]?.[1] ?? '');
      if (file.name === 'clip.MOV') expect(request.form()[2]?.[1]).toBe('clip.MOV (video/quicktime)');
      // S3 answers nothing: the URL is the prefix and the key.
      request.respond(200);
      expect(await done).toBe(`${TOKEN.url_prefix}${keys.at(-1) ?? ''}`);
    }
    expect(keys[0]).toMatch(/\.png$/);
    expect(keys[1]).toMatch(/\.mov$/);
    expect(keys[2]).toMatch(/\.jpg$/);
    expect(new Set(keys.map((k) => k.slice(TOKEN.key_prefix.length, -4))).size).toBe(3);
  });

  it('refuses what the storage would refuse before asking for a token', async () => {
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    await expect(uploadFile(text, { context: CONTEXT, uploadUrl: TOKEN.upload_url })).rejects.toMatchObject({
      code: 'upload_wrong_type',
    });
    const big = png();
    Object.defineProperty(big, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    await expect(uploadFile(big, { context: CONTEXT, uploadUrl: TOKEN.upload_url })).rejects.toMatchObject({
      code: 'upload_too_large',
    });
    expect(tokenCalls).toEqual([]);
    expect(FakeXhr.sent).toEqual([]);
  });

  it("rejects with the storage's reason, shown as the spec's upload failure", async () => {
    const xhr = posted();
    const done = uploadFile(png(), { context: CONTEXT, uploadUrl: TOKEN.upload_url });
    (await xhr).respond(403, JSON.stringify({ code: 403, content: 'Invalid according to Policy: Policy expired.' }));
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'upload_failed', message: 'Invalid according to Policy: Policy expired.' });
    expect(errorText(error, createI18n('en').t)).toBe('Image, video and video-cover upload failed');
    expect(errorText(error, createI18n('zh-CN').t)).toBe('图片、视频、视频封面上传失败');
  });

  it('passes on a refused token (account expired) without posting', async () => {
    tokenAnswer = { err: 'account expired', code: 'token_invalid' };
    await expect(uploadFile(png(), { context: CONTEXT, uploadUrl: TOKEN.upload_url })).rejects.toMatchObject({
      code: 'token_invalid',
    });
    expect(FakeXhr.sent).toEqual([]);
  });

  it('gives up after 60 s with the timeout error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const xhr = posted();
    const done = uploadFile(png(), { context: CONTEXT, uploadUrl: TOKEN.upload_url }).catch((e: unknown) => e);
    const request = await xhr;
    vi.advanceTimersByTime(UPLOAD_TIMEOUT_MS - 1);
    expect(request.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(request.aborted).toBe(true);
    expect(await done).toMatchObject({ code: 'upload_timeout' });
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const xhr = posted();
    const done = uploadFile(png(), { context: CONTEXT, uploadUrl: TOKEN.upload_url, signal: controller.signal });
    const request = await xhr;
    controller.abort();
    expect(request.aborted).toBe(true);
    await expect(done).rejects.toMatchObject({ code: 'upload_aborted' });
  });

  it('reports a lost connection as no network', async () => {
    const xhr = posted();
    const done = uploadFile(png(), { context: CONTEXT, uploadUrl: TOKEN.upload_url });
    (await xhr).onerror?.();
    const error = await done.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network' });
    expect(errorText(error, createI18n('en').t)).toBe('No network, please retry');
  });
});
