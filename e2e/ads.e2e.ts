import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, memberOf, phoneContext, pngFile, signIn, uploadFile } from './support.js';

const AUTH = { authorization: 'Bearer demo-secret-key', 'content-type': 'application/json' };

describe('banner ads end to end', () => {
  const app = appUnderTest();

  it('the operator adds an ad; the front page shows it, a tap opens its target, and both are counted', async () => {
    const { context, page: login } = await phoneContext(app.browser, 'en-US');
    await signIn(login, app.server, '13500135031', 'en');
    const { token } = await memberOf(login);
    const img = await uploadFile(app.server, token, {
      name: 'banner.png',
      type: 'image/png',
      buffer: pngFile(300, 100, (x) => (x < 150 ? [250, 160, 30] : [30, 120, 220])),
    });
    // Signing in opened the front page, whose banner may be read before or after the ad is added (a busy machine
    // decides): that page closes before the ad exists, and a fresh one, signed in the same, shows it in one run.
    await login.close();
    const res = await fetch(`${app.server.url}/api/v1/apps/demo-appkey/ads`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ title: 'Topics of the week', img, url: 'topic/index', position: 'article' }),
    });
    expect(res.status).toBe(200);
    const { id } = ((await res.json()) as { content: { id: string } }).content;
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${app.server.url}/h5/#/pages/article/index`);
    const banner = page.getByRole('region', { name: 'Ads' });
    const picture = banner.getByRole('img', { name: 'Topics of the week' });
    await picture.waitFor();
    // Decoded by the browser: the banner shows the uploaded picture.
    await expect
      .poll(() => picture.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth))
      .toBe(300);
    await banner.getByText('Ad', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}ad-banner-en.png` });

    await picture.click();
    await page.waitForURL(/#\/topic\/index/);
    const counts = async () => {
      const list = await fetch(`${app.server.url}/api/v1/apps/demo-appkey/ads`, { headers: AUTH });
      const ads = ((await list.json()) as { content: { id: string; impressions: number; clicks: number }[] }).content;
      return ads.find((ad) => ad.id === id);
    };
    await expect.poll(counts).toMatchObject({ impressions: 1, clicks: 1 });
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
