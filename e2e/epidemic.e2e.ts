import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS, appUnderTest, phoneContext } from './support.js';

const UPDATED = Date.UTC(2026, 2, 15, 12);

/** A country as disease.sh's `/countries` gives it; `iso2` null as it gives it for a ship. */
const country = (name: string, iso2: string | null, cases: number, deaths: number, todayCases: number) => ({
  updated: UPDATED,
  country: name,
  countryInfo: { iso2, iso3: null, flag: '', lat: 0, long: 0 },
  cases,
  todayCases,
  deaths,
  todayDeaths: 0,
  recovered: Math.round(cases * 0.95),
  todayRecovered: 0,
  active: cases - deaths - Math.round(cases * 0.95),
  population: cases * 10,
});

// Not in the order of cases: the server sorts them.
const COUNTRIES = [
  country('China', 'CN', 503_302, 5_272, 35),
  country('USA', 'US', 111_820_082, 1_219_487, 0),
  country('Diamond Princess', null, 712, 13, 0),
  country('India', 'IN', 45_035_393, 533_570, 4_211),
  country('Brazil', 'BR', 38_743_918, 711_380, 0),
  country('France', 'FR', 40_138_560, 167_642, 12),
  country('Japan', 'JP', 33_803_572, 74_694, 0),
];

/** A fake disease.sh on loopback: the world's totals at `/all`, the countries at `/countries`. */
const provider = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://fake');
  res.setHeader('content-type', 'application/json');
  if (url.pathname.endsWith('/all')) {
    res.end(
      JSON.stringify({
        updated: UPDATED,
        cases: 704_753_890,
        todayCases: 1_234,
        deaths: 7_010_681,
        todayDeaths: 0,
        recovered: 675_619_811,
        todayRecovered: 567,
        active: 22_123_398,
        critical: 34_794,
        population: 7_944_935_131,
        affectedCountries: 231,
      }),
    );
    return;
  }
  if (url.pathname.endsWith('/countries')) {
    res.end(JSON.stringify(COUNTRIES));
    return;
  }
  res.statusCode = 404;
  res.end(JSON.stringify({ message: 'not found' }));
});
const epidemic = { url: '' };
beforeAll(async () => {
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  epidemic.url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v3/covid-19`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

describe('epidemic end to end', () => {
  const app = appUnderTest({ epidemic });

  it("a visitor reads the world's figures and the countries in Chinese, searches and sorts them", async () => {
    const { context, page, dialogs } = await phoneContext(app.browser, 'zh-CN');
    await page.goto(`${app.server.url}/h5/#/pages/user/index`);
    await page.getByText('疫情', { exact: true }).click();

    await page.waitForURL(/#\/public\/yiqing/);
    await page.getByRole('heading', { name: '全球' }).waitFor();
    await page.getByText('704,753,890', { exact: true }).waitFor();
    await page.getByText('今日 +1,234', { exact: true }).waitFor();
    await page.getByText(/^更新于 2026年3月1[56]日/).waitFor();
    // The server sorted them by cases, and the app named them in Chinese from their codes.
    const names = page.getByTestId('epidemic-country').locator('.epidemic-name');
    expect(await names.allTextContents()).toEqual(['美国', '印度', '法国', '巴西', '日本', '中国', 'Diamond Princess']);
    await page.getByText('数据来源：disease.sh（约翰斯·霍普金斯大学 CSSE、Worldometers）').waitFor();
    await page.screenshot({ path: `${SHOTS}epidemic-zh.png`, fullPage: true });

    await page.getByRole('option', { name: '死亡' }).click();
    expect(await names.first().textContent()).toBe('美国');
    expect(await names.nth(1).textContent()).toBe('巴西');

    await page.getByPlaceholder('搜索国家或地区').fill('中国');
    await page.getByText('确诊 503,302', { exact: true }).waitFor();
    expect(await names.allTextContents()).toEqual(['中国']);
    await page.screenshot({ path: `${SHOTS}epidemic-zh-search.png` });

    await page.getByPlaceholder('搜索国家或地区').fill('Atlantis');
    await page.getByText('没有找到该国家或地区').waitFor();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
