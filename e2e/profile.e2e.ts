import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, launchBrowser, phoneContext, signIn, startE2eServer, type E2eServer } from './support.js';

/** A PNG file of `size` x `size` pixels in one colour, made here so that the test needs no fixture file. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('profile end to end', () => {
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

  it('a member changes the avatar with a real PNG and the nickname, and sees both on the user tab', async () => {
    const { context, page, dialogs } = await phoneContext(browser, 'en-US');
    const id = await signIn(page, server, '13500135001', 'en');

    await page.goto(`${server.url}/h5/#/member/sz`);
    await page.getByText('Edit profile', { exact: true }).click();
    await page.waitForURL(/#\/member\/sz-user/);
    await page.screenshot({ path: `${SHOTS}profile-before-en.png` });

    const png = solidPng(64, [230, 80, 40]);
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByText('Saved').waitFor();
    const avatar = await page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { img: string }).img);
    expect(avatar).toMatch(new RegExp(`^${server.url}/uploads/product/[0-9a-f]{16}/${id}/parley_[a-z0-9]{32}\\.png$`));
    // The stored file is the PNG, byte for byte.
    expect(Buffer.from(await (await fetch(avatar)).arrayBuffer())).toEqual(png);

    await page.getByRole('textbox', { name: 'Nickname' }).fill('Orange Cat');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').last().waitFor();
    await page.screenshot({ path: `${SHOTS}profile-after-en.png` });
    await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 5000 }).toBe(0);

    await page.goto(`${server.url}/h5/#/pages/user/index`);
    const header = page.locator('.mine-header');
    await header.getByText('Orange Cat').waitFor();
    const shown = header.locator(`img[src="${avatar}"]`);
    await shown.waitFor();
    // Decoded by the browser: the avatar is the uploaded image, not a broken link.
    await expect
      .poll(() => shown.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth))
      .toBe(64);
    await page.screenshot({ path: `${SHOTS}mine-avatar-en.png` });
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
