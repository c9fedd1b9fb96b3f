import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext } from './support.js';

/** A fake Open-Meteo on loopback: 15 days of forecast, and Hangzhou for any search starting "Hang". */
const provider = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://fake');
  res.setHeader('content-type', 'application/json');
  if (url.pathname === '/v1/forecast') {
    const time = Array.from({ length: 15 }, (_, i) => `2026-12-${String(i + 1).padStart(2, '0')}`);
    res.end(
      JSON.stringify({
        current: { temperature_2m: 6.6, weather_code: 61, relative_humidity_2m: 88, wind_speed_10m: 9 },
        daily: {
          time,
          weather_code: time.map((_, i) => (i % 3 === 0 ? 61 : 2)),
          temperature_2m_max: time.map((_, i) => 9 + (i % 4)),
          temperature_2m_min: time.map((_, i) => 3 + (i % 3)),
          precipitation_probability_max: time.map((_, i) => (i % 3 === 0 ? 70 : 10)),
        },
      }),
    );
    return;
  }
  const name = url.searchParams.get('name') ?? '';
  const results = name.toLowerCase().startsWith('hang')
    ? [{ name: 'Hangzhou', latitude: 30.29, longitude: 120.16, country: 'China', admin1: 'Zhejiang' }]
    : [];
  res.end(JSON.stringify({ results }));
});
const weather = { forecastUrl: '', geocodingUrl: '' };
beforeAll(async () => {
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  weather.forecastUrl = `${base}/v1/forecast`;
  weather.geocodingUrl = `${base}/v1/search`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

describe('weather end to end', () => {
  const app = appUnderTest({ weather });

  it('a visitor chooses a city by name and reads its weather now and for 15 days', async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'en-US');
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('Weather', { exact: true }).click();
    await page.getByText('Choose a city to see its weather').waitFor();
    await page.getByRole('button', { name: 'Choose a city' }).click();
    await page.getByPlaceholder('Search for a city').fill('Hang');
    // Hangzhou, Zhejiang, China: the line of the place found.
    await page.getByText('Zhejiang, China').click();

    await page.waitForURL(/#\/public\/tianqi/);
    await page.getByRole('heading', { name: 'Hangzhou' }).waitFor();
    await page.getByText('7°', { exact: true }).waitFor();
    expect(await page.getByTestId('weather-day').count()).toBe(15);
    await page.getByText('Today · Rain').waitFor();
    await page.screenshot({ path: `${SHOTS}weather-en.png` });
    // Kept: the page opens on Hangzhou next time.
    await page.reload();
    await page.getByRole('heading', { name: 'Hangzhou' }).waitFor();
    // A popular city is one tap away, without a search; Hangzhou is now among the recent ones.
    await page.getByRole('button', { name: 'City' }).click();
    await page.getByText('Recent').waitFor();
    await page.getByRole('button', { name: 'Beijing' }).click();
    await page.waitForURL(/#\/public\/tianqi/);
    await page.getByRole('heading', { name: 'Beijing' }).waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
