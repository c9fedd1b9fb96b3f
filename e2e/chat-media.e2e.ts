import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, launchBrowser, phoneContext, signIn, startE2eServer, type E2eServer } from './support.js';

/** A `width` x `height` PNG, left half one colour and right half another, made here so that no fixture is needed. */
function twoColourPng(width: number, height: number, left: number[], right: number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const pixels = Array.from({ length: width }, (_, x) => (x < width / 2 ? left : right)).flat();
  const row = Buffer.from([0, ...pixels]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('chat media end to end', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startE2eServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('one user sends a real PNG; the other sees it in the list as an image and in the chat, loaded from its URL', async () => {
    const alice = await phoneContext(browser, 'zh-CN');
    const bob = await phoneContext(browser, 'en-US');
    await signIn(alice.page, server, '13700137001', 'zh-CN');
    const bobId = await signIn(bob.page, server, '13700137002', 'en');

    const png = twoColourPng(48, 32, [30, 120, 230], [240, 180, 20]);
    await alice.page.goto(`${server.url}/h5/#/im/view?uid=${bobId}`);
    await alice.page.getByRole('button', { name: '添加附件' }).click();
    await alice.page.getByRole('button', { name: '图片' }).waitFor();
    await alice.page
      .getByTestId('attach-image')
      .setInputFiles({ name: 'flag.png', mimeType: 'image/png', buffer: png });
    const sent = alice.page.locator('[data-testid=message][data-status=success] .media-image');
    await sent.waitFor();
    await alice.page.screenshot({ path: `${SHOTS}chat-image-sent-zh.png` });

    // Bob's list says "[Image]"; the chat shows the picture at its own size, loaded from the storage.
    await bob.page.goto(`${server.url}/h5/#/im/index`);
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
    expect(src.startsWith(`${server.url}/uploads/`)).toBe(true);
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
    await large.click();
    await large.waitFor({ state: 'hidden' });
    await bob.page.screenshot({ path: `${SHOTS}chat-image-en.png` });
    expect([...alice.dialogs, ...bob.dialogs]).toEqual([]);

    await alice.context.close();
    await bob.context.close();
  });
});
