import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SHOTS,
  launchBrowser,
  memberOf,
  phoneContext,
  pngFile,
  productApi,
  signIn,
  startE2eServer,
  uploadFile,
  type E2eServer,
} from './support.js';

const AUTH = { authorization: 'Bearer demo-secret-key', 'content-type': 'application/json' };

/** A second and a half of video, 320 x 180, recorded by the browser itself from a canvas: no fixture needed. */
async function recordVideo(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage();
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const paint = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    let frame = 0;
    const timer = setInterval(() => {
      paint.fillStyle = frame++ % 2 ? '#e33' : '#3a3';
      paint.fillRect(0, 0, 320, 180);
    }, 40);
    recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  });
  await page.close();
  return Buffer.from(base64, 'base64');
}

/**
 * A stand-in for the operator's media server on loopback: it plays `video` for any stream at `/live/<stream>.webm`
 * and records which streams were asked for.
 */
async function startMediaServer(video: Buffer): Promise<{ server: Server; base: string; played: string[] }> {
  const played: string[] = [];
  const server = createServer((req, res) => {
    const stream = /^\/live\/([a-z0-9]+)\.webm$/.exec(req.url ?? '')?.[1];
    if (!stream) {
      res.writeHead(404).end();
      return;
    }
    played.push(stream);
    res.writeHead(200, { 'content-type': 'video/webm', 'content-length': video.length });
    res.end(video);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, played };
}

/** Passes the member's real-name certification through the operator's review API, which makes them an anchor. */
async function certify(server: E2eServer, token: string, memberId: string): Promise<void> {
  const photo = pngFile(64, 40, (x) => (x < 32 ? [200, 60, 60] : [250, 250, 250]));
  const imgs = [];
  for (const side of ['front', 'back']) {
    imgs.push(await uploadFile(server, token, { name: `${side}.png`, type: 'image/png', buffer: photo }));
  }
  const cert = await productApi(server, 'member/renzheng_add', {
    token,
    type: 'personal',
    name: 'Wang Xiaoming',
    number: '11010519491231002X',
    imgs,
  });
  const res = await fetch(`${server.url}/api/v1/apps/demo-appkey/certifications/${memberId}/review`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ pass: true, submittedAt: cert['ret'].submitted_at }),
  });
  expect(res.status).toBe(200);
}

describe('live streaming end to end', () => {
  let browser: Browser;
  let server: E2eServer;
  let media: Awaited<ReturnType<typeof startMediaServer>>;

  beforeAll(async () => {
    browser = await launchBrowser();
    media = await startMediaServer(await recordVideo(browser));
    server = await startE2eServer({
      live: { pushUrl: 'rtmp://127.0.0.1:1935/live/{stream}?key={key}', playUrl: `${media.base}/live/{stream}.webm` },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => media?.server.close(resolve));
  });

  it('an anchor opens a room, the stream starts it, a viewer watches and chats, is muted, removed and restored, then co-broadcasts', async () => {
    const anchor = await phoneContext(browser, 'en-US');
    const anchorId = await signIn(anchor.page, server, '13500135071', 'en');
    const { token } = await memberOf(anchor.page);
    await certify(server, token, anchorId);

    // The anchor's page: a new room with a title and a cover.
    await anchor.page.goto(`${server.url}/h5/#/live/a1`);
    await anchor.page.getByRole('textbox', { name: 'Title' }).fill('Tea tasting');
    const chooser = anchor.page.waitForEvent('filechooser');
    await anchor.page.getByRole('button', { name: 'Cover' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: pngFile(160, 90, (x) => (x < 80 ? [30, 120, 220] : [250, 160, 30])),
    });
    await anchor.page.getByRole('button', { name: 'Cover' }).locator('img').waitFor();
    await anchor.page.getByRole('button', { name: 'Create the room' }).click();

    // Where the streaming software sends: the server and the key apart, as the room's own push URL says.
    const mine = await productApi(server, 'live/mine', { token });
    const room = mine['ret'].room as { id: string; stream: string; push_key: string; push_url: string };
    expect(room.push_url).toBe(`rtmp://127.0.0.1:1935/live/${room.stream}?key=${room.push_key}`);
    await anchor.page.getByText('rtmp://127.0.0.1:1935/live', { exact: true }).waitFor();
    await anchor.page.getByText(`${room.stream}?key=${room.push_key}`, { exact: true }).waitFor();
    await anchor.page.screenshot({ path: `${SHOTS}live-anchor-en.png` });

    // The media server asks, as nginx-rtmp's on_publish does, when the stream arrives: that starts the room.
    const hook = await fetch(`${server.url}/index.php/api/live/hook/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ app: 'live', name: room.stream, key: room.push_key }).toString(),
    });
    expect(hook.status).toBe(200);

    // A viewer finds the room live in the list and watches the stream the media server plays.
    const viewer = await phoneContext(browser, 'en-US');
    const viewerId = await signIn(viewer.page, server, '13500135072', 'en');
    await viewer.page.goto(`${server.url}/h5/#/live/index`);
    const card = viewer.page.getByTestId('live-room').filter({ hasText: 'Tea tasting' });
    await card.getByText('Live', { exact: true }).waitFor();
    await card.click();
    await viewer.page.waitForURL(/#\/live\/view\?id=/);
    const video = viewer.page.getByTestId('live-video');
    await expect
      .poll(() =>
        video.evaluate((el) => [(el as HTMLVideoElement).readyState >= 2, (el as HTMLVideoElement).videoWidth]),
      )
      .toEqual([true, 320]);
    expect(media.played).toContain(room.stream);
    // The viewer is on the room's channel: its presence counts them.
    await viewer.page.getByTestId('live-viewers').getByText('1 watching').waitFor();

    // The anchor opens the room too: two watching, and the viewer's words reach both.
    await anchor.page.getByRole('button', { name: 'Open the room' }).click();
    await anchor.page.waitForURL(/#\/live\/view\?id=/);
    await viewer.page.getByTestId('live-viewers').getByText('2 watching').waitFor();
    await viewer.page.getByRole('textbox', { name: 'Say something…' }).fill('Which tea is this?');
    await viewer.page.getByRole('button', { name: 'Send' }).click();
    await viewer.page.getByTestId('live-line').filter({ hasText: 'Which tea is this?' }).waitFor();
    const line = anchor.page.getByTestId('live-line').filter({ hasText: 'Which tea is this?' });
    await line.waitFor();
    await viewer.page.screenshot({ path: `${SHOTS}live-view-en.png` });

    // Muted: the viewer's input closes with the spec's words, and the server refuses them too.
    await line.click();
    await anchor.page.getByText('Mute', { exact: true }).click();
    const input = viewer.page.getByRole('textbox', { name: 'Say something…' });
    await expect.poll(() => input.isDisabled()).toBe(true);
    const viewerToken = (await memberOf(viewer.page)).token;
    expect(await productApi(server, 'live/say', { token: viewerToken, id: room.id, text: 'hi' })).toMatchObject({
      code: 'live_removed',
    });

    // Removed: the viewer is told and leaves the room, and cannot come back in. The first sheet has gone first: one
    // still closing would offer its actions twice.
    await expect.poll(() => anchor.page.getByRole('option', { name: 'Mute', exact: true }).count()).toBe(0);
    await line.click();
    await anchor.page.getByText('Remove from the room', { exact: true }).click();
    await viewer.page.getByText('You were removed from or muted in the live room').waitFor();
    await viewer.page.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => viewer.page.url()).not.toMatch(/#\/live\/view/);

    // Restored from the anchor's list of bans, the viewer watches again and may speak.
    await anchor.page.getByText('Banned', { exact: true }).click();
    const ban = anchor.page.getByTestId('live-ban');
    await ban.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => ban.count()).toBe(0);
    await anchor.page.getByLabel('Close', { exact: true }).click();
    await viewer.page.goto(`${server.url}/h5/#/live/view?id=${room.id}`);
    await expect.poll(() => input.isDisabled()).toBe(false);
    await input.fill('Thank you');
    await viewer.page.getByRole('button', { name: 'Send' }).click();
    await anchor.page.getByTestId('live-line').filter({ hasText: 'Thank you' }).waitFor();

    // Co-broadcast: the viewer asks to join, the anchor accepts, and the viewer is given a stream of their own.
    await viewer.page.getByRole('button', { name: 'Co-broadcast' }).click();
    await viewer.page.getByRole('button', { name: 'Ask' }).click();
    await viewer.page.getByText('Waiting for the anchor…').waitFor();
    await anchor.page.getByRole('button', { name: 'Requests 1' }).click();
    await anchor.page.getByTestId('live-link').getByRole('button', { name: 'Accept' }).click();
    await viewer.page.getByText('You are on stage').waitFor();
    const seen = await productApi(server, 'live/view', { token: viewerToken, id: room.id });
    const guest = /\/live\/([a-z0-9]+)\?key=([a-z0-9]+)$/.exec(seen['ret'].me.link.push_url as string);
    expect(guest?.[1]).not.toBe(room.stream);
    await viewer.page.getByText(`${guest?.[1]}?key=${guest?.[2]}`, { exact: true }).waitFor();
    // The guest's stream arrives: the media server asks as SRS's on_publish does, and only the guest's key will do.
    const publish = (param: string) =>
      fetch(`${server.url}/index.php/api/live/hook/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'on_publish', app: 'live', stream: guest?.[1], param }),
      });
    expect((await publish(`?key=${room.push_key}`)).status).toBe(403);
    expect((await publish(`?key=${guest?.[2]}`)).status).toBe(200);
    // Everyone in the room watches the guest in a small window over the anchor's stream.
    for (const page of [anchor.page, viewer.page]) {
      const window = page.getByTestId('live-guest').locator('video');
      await expect
        .poll(() =>
          window.evaluate((el) => [(el as HTMLVideoElement).readyState >= 2, (el as HTMLVideoElement).videoWidth]),
        )
        .toEqual([true, 320]);
    }
    expect(media.played).toContain(guest?.[1]);
    await anchor.page.screenshot({ path: `${SHOTS}live-cobroadcast-en.png` });

    // The anchor ends the live: the viewer's player gives way to the ended notice.
    const ended = await productApi(server, 'live/end', { token, id: room.id });
    expect(ended).toMatchObject({ ret: true });
    await viewer.page.getByRole('status').getByText('The live has ended').waitFor();
    // The room's end took the guest off the stage too.
    await expect.poll(() => viewer.page.getByTestId('live-guest').count()).toBe(0);
    expect(viewerId).not.toBe(anchorId);
    expect(anchor.dialogs).toEqual([]);
    expect(viewer.dialogs).toEqual([]);
    await anchor.context.close();
    await viewer.context.close();
  });
});
