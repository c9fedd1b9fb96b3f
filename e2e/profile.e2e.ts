import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext, signIn, pngFile } from './support.js';

describe('profile end to end', () => {
  const app = appUnderTest();

  it('a member changes the avatar with a real PNG and the nickname, and sees both on the user tab', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    const id = await signIn(page, app.server, '13500135001', 'en');

    await page.goto(`${app.server.url}/h5/#/member/sz`);
    await page.getByText('Edit profile', { exact: true }).click();
    await page.waitForURL(/#\/member\/sz-user/);
    await page.screenshot({ path: `${SHOTS}profile-before-en.png` });

    // A landscape picture, red on its left half and blue on its right.
    const png = pngFile(120, 80, (x) => (x < 60 ? [230, 40, 40] : [40, 40, 230]));
    await page
      .getByLabel('Change avatar', { exact: true })
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    // The avatar cropper: the square in the middle, as it opens.
    const cropper = page.getByRole('dialog', { name: 'Move and scale' });
    await cropper.locator('img').waitFor();
    await page.screenshot({ path: `${SHOTS}avatar-cropper-en.png` });
    await cropper.getByRole('button', { name: 'Use' }).click();
    await page.getByText('Saved').waitFor();
    const avatar = await page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { img: string }).img);
    expect(avatar).toMatch(
      new RegExp(`^${app.server.url}/uploads/product/[0-9a-f]{16}/${id}/parley_[a-z0-9]{32}\\.png$`),
    );
    // The stored file is the middle square, 80 pixels a side: its left half red, its right half blue.
    const stored = await page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const at = (x: number) => [...context.getImageData(x, 40, 1, 1).data.slice(0, 3)];
      return { width: image.naturalWidth, height: image.naturalHeight, left: at(10), right: at(70) };
    }, avatar);
    expect(stored).toEqual({ width: 80, height: 80, left: [230, 40, 40], right: [40, 40, 230] });

    await page.getByText('Nickname', { exact: true }).click();
    await page.waitForURL(/#\/member\/sz-nickname/);
    await page.getByRole('textbox', { name: 'Nickname' }).fill('Orange Cat');
    await page.getByRole('button', { name: 'Save' }).click();
    // Saved, the page closes back to edit info, which shows the new nickname.
    await page.waitForURL(/#\/member\/sz-user/);
    await page.getByText('Orange Cat', { exact: true }).waitFor();

    await page.getByText('Gender', { exact: true }).click();
    await page.getByText('Female', { exact: true }).click();
    await page.locator('.adm-list-item', { hasText: 'Gender' }).getByText('Female').waitFor();
    await page.getByLabel('Birthday').fill('1995-02-28');
    await page.getByRole('textbox', { name: 'Region' }).fill('Hangzhou');
    await page.getByRole('textbox', { name: 'Region' }).press('Enter');
    await expect
      .poll(() =>
        page.evaluate(() => {
          const user = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, string>;
          return [user['gender'], user['birthday'], user['region']];
        }),
      )
      .toEqual(['female', '1995-02-28', 'Hangzhou']);
    await page.screenshot({ path: `${SHOTS}profile-after-en.png` });
    await expect.poll(() => page.locator('.adm-toast-main').count(), { timeout: 5000 }).toBe(0);

    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    const header = page.locator('.mine-header');
    await header.getByText('Orange Cat').waitFor();
    const shown = header.locator(`img[src="${avatar}"]`);
    await shown.waitFor();
    // Decoded by the browser: the avatar is the uploaded image, not a broken link.
    await expect
      .poll(() => shown.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth))
      .toBe(80);
    await page.screenshot({ path: `${SHOTS}mine-avatar-en.png` });
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
