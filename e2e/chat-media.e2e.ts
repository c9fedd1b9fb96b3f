import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, pngFile } from './support.js';

describe('chat media end to end', () => {
  const app = appUnderTest();

  it('one user sends a real PNG; the other sees it in the list as an image and in the chat, loaded from its URL', async () => {
    const alice = await phoneContext(app.browser, 'zh-CN');
    const bob = await phoneContext(app.browser, 'en-US');
    await signIn(alice.page, app.server, '13700137001', 'zh-CN');
    const bobId = await signIn(bob.page, app.server, '13700137002', 'en');

    const png = pngFile(48, 32, (x) => (x < 24 ? [30, 120, 230] : [240, 180, 20]));
    await alice.page.goto(`${app.server.url}/h5/#/im/view?uid=${bobId}`);
    await alice.page.getByRole('button', { name: '添加附件' }).click();
    await alice.page.getByRole('button', { name: '图片' }).waitFor();
    await alice.page
      .getByTestId('attach-image')
      .setInputFiles({ name: 'flag.png', mimeType: 'image/png', buffer: png });
    const sent = alice.page.locator('[data-testid=message][data-status=success] .media-image');
    await sent.waitFor();
    await alice.page.screenshot({ path: `${SHOTS}chat-image-sent-zh.png` });

    // Bob's list says "[Image]"; the chat shows the picture at its own size, loaded from the storage.
    await bob.page.goto(`${app.server.url}/h5/#/im/index`);
    const row = bob.page.getByTestId('conversation').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('[Image]');
    await row.click();
    const image = bob.page.locator('[data-testid=message] .media-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(48);
    expect(await image.evaluate((img: HTMLImageElement) => [img.width, img.height, img.naturalHeight])).toEqual([
      48, 32, 32,
    ]);
    const src = (await image.getAttribute('src')) ?? '';
    expect(src.startsWith(`${app.server.url}/uploads/`)).toBe(true);
    const response = await bob.page.request.get(src);
    expect(response.status()).toBe(200);
    expect(
      Buffer.from(await response.body())
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a');

    // Tapping it opens the large view, with the full image.
    await image.click();
    const large = bob.page.locator('.adm-image-viewer-content img');
    await large.waitFor();
    await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    // The viewer fades in: the picture is taken once it is fully shown.
    const mask = bob.page.locator('.adm-mask', { has: large });
    await expect.poll(() => mask.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await bob.page.screenshot({ path: `${SHOTS}chat-image-viewer-en.png` });
    // A tap as a finger makes it: the viewer takes a press and release in the same millisecond for no tap at all.
    await large.click({ delay: 40 });
    await large.waitFor({ state: 'hidden' });
    await bob.page.screenshot({ path: `${SHOTS}chat-image-en.png` });
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);

    await alice.context.close();
    await bob.context.close();
  });

  it('a video the browser cannot read gets its cover from the server’s snapshot (ffmpeg), at the size asked', async () => {
    // MPEG-4 part 2 in a QuickTime file: ffmpeg reads it, chromium does not (as with a phone's HEVC video on a
    // desktop), so the SDK cannot take a frame itself and asks the storage for one.
    const mov = join(mkdtempSync(join(tmpdir(), 'parley-e2e-')), 'clip.mov');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '1'],
      ...['-c:v', 'mpeg4', '-y', mov],
    ]);
    const alice = await phoneContext(app.browser, 'en-US');
    const bob = await phoneContext(app.browser, 'en-US');
    const aliceId = await signIn(alice.page, app.server, '13700137003', 'en');
    const bobId = await signIn(bob.page, app.server, '13700137004', 'en');

    await alice.page.goto(`${app.server.url}/h5/#/im/view?uid=${bobId}`);
    await alice.page.getByRole('button', { name: 'Attach' }).click();
    await alice.page.getByRole('button', { name: 'Video' }).waitFor();
    await alice.page
      .getByTestId('attach-video')
      .setInputFiles({ name: 'clip.mov', mimeType: 'video/quicktime', buffer: readFileSync(mov) });
    await alice.page.locator('[data-testid=message][data-status=success] .media-video-cover').waitFor();

    await bob.page.goto(`${app.server.url}/h5/#/im/view?uid=${aliceId}`);
    const cover = bob.page.locator('[data-testid=message] .media-video-cover img');
    await cover.waitFor();
    expect(await cover.getAttribute('src')).toContain('?x-oss-process=video/snapshot,');
    // The snapshot is a real frame, 200 pixels high as the thumbnail asks, in the video's proportions.
    await expect
      .poll(() =>
        cover.evaluate((img: HTMLImageElement) => (img.complete ? [img.naturalWidth, img.naturalHeight] : [])),
      )
      .toEqual([266, 200]);
    await bob.page.screenshot({ path: `${SHOTS}chat-video-snapshot-en.png` });
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
