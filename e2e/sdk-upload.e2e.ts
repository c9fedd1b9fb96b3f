import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueOtp } from '../server/src/auth/otp.js';
import { DEMO_APP } from '../server/src/config.js';
import { MESSAGES } from '../src/protocol/index.js';
import type * as UploadPage from './sdk-upload-page.js';
import type { Decoded, Download, MediaSpec, SendReport } from './sdk-upload-page.js';
import { launchBrowser, startE2eServer, type E2eServer } from './support.js';

declare global {
  interface Window {
    ParleyUploadPage: typeof UploadPage;
  }
}

/** A received message, as far as these tests read it. */
interface Received {
  messageId: string;
  senderId: string;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * A directory for the server to serve at `/h5/`: a blank page that loads the SDK and the page helpers, bundled into
 * one browser script. The page must come from the server itself: chromium's local network access checks stop a page
 * that Playwright answers on its own from reaching a loopback server.
 */
async function pageDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-e2e-page-'));
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./sdk-upload-page.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'ParleyUploadPage',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'sdk-upload.js'), result.outputFiles[0]!.text);
  writeFileSync(
    join(dir, 'sdk-upload.html'),
    '<!doctype html><meta charset="utf-8"><title>SDK uploads</title><script src="sdk-upload.js"></script>',
  );
  return dir;
}

/**
 * Slows the page's uploads to `bytesPerSecond` (chromium's own network throttling), so that XMLHttpRequest reports
 * an upload in many steps; returns the undo.
 */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const set = (uploadThroughput: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput,
    });
  await set(bytesPerSecond);
  return async () => {
    await set(-1);
    await cdp.detach();
  };
}

/** Progress as UP-6 has it: whole numbers from 0 to 100 that only grow, ending at 100. */
function expectProgress(progress: number[], what: string): void {
  expect(progress.length, `${what}: onProgress calls`).toBeGreaterThan(1);
  expect(
    progress.every((p) => Number.isInteger(p) && p >= 0 && p <= 100),
    `${what}: onProgress values ${JSON.stringify(progress)} are whole numbers 0..100`,
  ).toBe(true);
  expect(
    progress.every((p, i) => i === 0 || p > progress[i - 1]!),
    `${what}: onProgress values ${JSON.stringify(progress)} only grow`,
  ).toBe(true);
  expect(progress.at(-1), `${what}: last onProgress`).toBe(100);
}

describe('SDK uploads in a real browser', () => {
  let server: E2eServer;
  let dir: string;
  let browser: Browser;
  let context: BrowserContext;
  let alice: Page;
  let bob: Page;

  /** The SDK page, served by the server, with a client connected as `id`. */
  async function sdkPage(id: string): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}/h5/sdk-upload.html`);
    const otp = issueOtp({ secretKey: DEMO_APP.secretKey, userId: id, now: Date.now() }).otp;
    await page.evaluate((o) => window.ParleyUploadPage.connect(o), {
      url: server.url,
      appkey: DEMO_APP.appkey,
      id,
      otp,
    });
    return page;
  }

  const send = (spec: MediaSpec, abortAtProgress = false): Promise<SendReport> =>
    alice.evaluate(
      ([s, abort]) => window.ParleyUploadPage.send(s, { type: 'private', id: 'bob', data: { name: 'Bob' } }, abort),
      [spec, abortAtProgress] as const,
    );
  const receive = (messageId: string): Promise<Received> =>
    bob.evaluate((id) => window.ParleyUploadPage.receive(id), messageId) as Promise<Received>;
  const download = (url: string): Promise<Download> => bob.evaluate((u) => window.ParleyUploadPage.download(u), url);
  const decodeImage = (url: string): Promise<Decoded> =>
    bob.evaluate((u) => window.ParleyUploadPage.decodeImage(u), url);
  const decodeMedia = (url: string, kind: 'audio' | 'video'): Promise<Decoded> =>
    bob.evaluate(([u, k]) => window.ParleyUploadPage.decodeMedia(u, k), [url, kind] as const);

  /** The receiver downloads exactly the bytes that were sent. */
  async function expectSameBytes(sent: SendReport, url: string, what: string): Promise<void> {
    const back = await download(url);
    expect(back.status, `${what}: GET url status`).toBe(200);
    expect([back.size, back.sha256], `${what}: GET url [size, sha256]`).toEqual([sent.file.size, sent.file.sha256]);
  }

  beforeAll(async () => {
    dir = await pageDir();
    server = await startE2eServer({ appDir: dir });
    browser = await launchBrowser();
    context = await browser.newContext();
    alice = await sdkPage('alice');
    bob = await sdkPage('bob');
  });

  afterAll(async () => {
    await alice?.evaluate(() => window.ParleyUploadPage.disconnect());
    await bob?.evaluate(() => window.ParleyUploadPage.disconnect());
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('UP-5, UP-6: a PNG drawn on a canvas goes up with XHR progress; the receiver gets its size and the same bytes', async () => {
    const sent = await send({ kind: 'image', width: 123, height: 45 });
    expect([sent.status, sent.error], 'sendMessage image: [status, error]').toEqual(['success', undefined]);
    expectProgress(sent.progress, 'image');

    const got = await receive(sent.messageId);
    const url = got.payload['url'] as string;
    expect(got.type, 'PRIVATE_MESSAGE_RECEIVED image: type').toBe('image');
    expect(got.payload, 'PRIVATE_MESSAGE_RECEIVED image: payload').toEqual({
      url,
      name: 'drawing.png',
      size: sent.file.size,
      contentType: 'image/png',
      width: 123,
      height: 45,
      thumbnail: `${url}?x-oss-process=image/resize,m_lfit,h_45`,
    });
    await expectSameBytes(sent, url, 'image');
    expect(await decodeImage(url), 'image at url: decoded size').toMatchObject({ width: 123, height: 45 });
  });

  it('UP-5, UP-6: a WAV written in the page: the receiver gets its duration and the same bytes', async () => {
    const sent = await send({ kind: 'audio', seconds: 1.5, sampleRate: 8000 });
    expect([sent.status, sent.error], 'sendMessage audio: [status, error]').toEqual(['success', undefined]);
    expectProgress(sent.progress, 'audio');

    const got = await receive(sent.messageId);
    const url = got.payload['url'] as string;
    expect(got.payload, 'PRIVATE_MESSAGE_RECEIVED audio: payload').toMatchObject({
      name: 'tone.wav',
      size: sent.file.size,
      contentType: 'audio/wav',
    });
    expect(got.payload['duration'], 'PRIVATE_MESSAGE_RECEIVED audio: payload.duration').toBeCloseTo(1.5, 2);
    await expectSameBytes(sent, url, 'audio');
    expect((await decodeMedia(url, 'audio')).duration, 'audio at url: duration').toBeCloseTo(1.5, 2);
  });

  it('UP-6, UP-7: an MP4 recorded from a canvas: duration, size and a captured frame as a real thumbnail image', async () => {
    const color: [number, number, number] = [200, 40, 40];
    const sent = await send({ kind: 'video', width: 320, height: 240, milliseconds: 1200, color });
    expect([sent.status, sent.error], 'sendMessage video: [status, error]').toEqual(['success', undefined]);
    expectProgress(sent.progress, 'video');
    expect(
      sent.progress.some((p) => p < 90) && sent.progress.includes(90),
      `video: onProgress ${JSON.stringify(sent.progress)} covers the video (0-90), then the thumbnail (90-100)`,
    ).toBe(true);

    const got = await receive(sent.messageId);
    const video = got.payload['video'] as Record<string, unknown>;
    const thumbnail = got.payload['thumbnail'] as Record<string, unknown>;
    const url = video['url'] as string;
    expect(video, 'PRIVATE_MESSAGE_RECEIVED video: payload.video').toMatchObject({
      width: 320,
      height: 240,
      size: sent.file.size,
      contentType: sent.file.type,
      name: url.slice(url.lastIndexOf('/') + 1),
    });
    const played = await decodeMedia(url, 'video');
    expect(played, 'video at url: decoded size').toMatchObject({ width: 320, height: 240 });
    expect(video['duration'], 'PRIVATE_MESSAGE_RECEIVED video: payload.video.duration').toBeGreaterThan(0);
    expect(video['duration'], 'PRIVATE_MESSAGE_RECEIVED video: payload.video.duration').toBeCloseTo(played.duration, 2);
    await expectSameBytes(sent, url, 'video');

    // The thumbnail is its own upload: a JPEG of the first frame, at most 200 high, as its payload says.
    expect(thumbnail, 'PRIVATE_MESSAGE_RECEIVED video: payload.thumbnail').toMatchObject({
      width: 267,
      height: 200,
      contentType: 'image/jpeg',
    });
    expect(thumbnail['url'], 'PRIVATE_MESSAGE_RECEIVED video: payload.thumbnail.url').not.toBe(url);
    const frame = await download(thumbnail['url'] as string);
    expect([frame.status, frame.contentType], 'thumbnail at url: [status, content-type]').toEqual([200, 'image/jpeg']);
    const picture = await decodeImage(thumbnail['url'] as string);
    expect([picture.width, picture.height], 'thumbnail at url: decoded [width, height]').toEqual([267, 200]);
    const off = picture.center!.map((c, i) => Math.abs(c - color[i]!));
    expect(
      Math.max(...off),
      `thumbnail at url: centre pixel ${JSON.stringify(picture.center)} is the drawn colour`,
    ).toBeLessThan(40);
  });

  it('UP-5, UP-6: over a slow link XHR reports a file upload step by step; the file comes back as sent', async () => {
    const unthrottle = await throttleUploads(alice, 4 * 1024 * 1024);
    const sent = await send({ kind: 'file', bytes: 3 * 1024 * 1024, name: 'report.bin' }).finally(unthrottle);
    expect([sent.status, sent.error], 'sendMessage file: [status, error]').toEqual(['success', undefined]);
    expectProgress(sent.progress, 'file');
    const steps = sent.progress.filter((p) => p > 0 && p < 99);
    expect(
      steps.length,
      `file: onProgress ${JSON.stringify(sent.progress)} has steps between 0 and 99`,
    ).toBeGreaterThan(2);

    const got = await receive(sent.messageId);
    const url = got.payload['url'] as string;
    expect(got.payload, 'PRIVATE_MESSAGE_RECEIVED file: payload').toEqual({
      url,
      name: 'report.bin',
      size: sent.file.size,
      contentType: 'application/octet-stream',
    });
    await expectSameBytes(sent, url, 'file');
  });

  it('UP-6: aborting a large upload fails the message with 500 Upload aborted. and publishes nothing', async () => {
    const unthrottle = await throttleUploads(alice, 4 * 1024 * 1024);
    const sent = await send({ kind: 'file', bytes: 24 * 1024 * 1024, name: 'large.bin' }, true).finally(unthrottle);
    expect([sent.status, sent.error], 'sendMessage aborted file: [status, error]').toEqual([
      'fail',
      { code: 500, content: MESSAGES.uploadAborted },
    ]);
    expect(sent.progress.at(-1), 'aborted file: last onProgress').toBeLessThan(100);

    // A text sent afterwards arrives; the aborted message never does.
    const after = await alice.evaluate(() =>
      window.ParleyUploadPage.sendText('after the abort', { type: 'private', id: 'bob' }),
    );
    await receive(after);
    expect(
      await bob.evaluate(() => window.ParleyUploadPage.receivedIds()),
      'PRIVATE_MESSAGE_RECEIVED ids',
    ).not.toContain(sent.messageId);
  });
});
