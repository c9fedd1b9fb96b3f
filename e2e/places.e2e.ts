import { describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext } from './support.js';

describe('discover and places end to end', () => {
  const app = appUnderTest();

  it('a phone chooses where it is, names it, and the place opens with its map links', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en');
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 30.2501234, longitude: 120.1709876 });
    await page.goto(`${app.server.url}/h5/#/other/choose-location`);
    await page.getByRole('button', { name: 'Use where I am' }).click();
    const latitude = page.locator('.adm-list-item', { hasText: 'Latitude' }).locator('input');
    await expect.poll(() => latitude.inputValue()).toBe('30.250123');
    expect(await page.locator('.adm-list-item', { hasText: 'Longitude' }).locator('input').inputValue()).toBe(
      '120.170988',
    );
    await page.locator('.adm-list-item', { hasText: 'Name' }).locator('input').fill('West Lake');
    await page.locator('.adm-list-item', { hasText: 'Address' }).locator('input').fill('Hangzhou, Zhejiang');
    await page.screenshot({ path: `${SHOTS}choose-location-en.png` });
    await page.getByRole('button', { name: 'Use this place' }).click();

    await page.waitForURL(/#\/other\/open-location\?/);
    await page.getByText('30.250123, 120.170988').waitFor();
    await page.getByText('Hangzhou, Zhejiang').waitFor();
    const map = page.getByRole('link', { name: 'Open the map in the browser' });
    expect(await map.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=30.250123&mlon=120.170988#map=17/30.250123/120.170988',
    );
    await page.screenshot({ path: `${SHOTS}open-location-en.png` });
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('a visitor discovers: the search, the topics and the ways in, in Chinese', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'zh-CN');
    await page.goto(`${app.server.url}/h5/#/article/find`);
    await page.getByText('还没有话题').waitFor();
    await page.getByText('小视频').waitFor();
    await page.screenshot({ path: `${SHOTS}find-zh-CN.png` });
    await page.getByTestId('find-search').click();
    await page.waitForURL(/#\/search\/index$/);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
