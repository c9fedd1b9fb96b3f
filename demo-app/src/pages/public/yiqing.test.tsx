// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../app/routes';
import type { Country, EpidemicFigures } from '../../features/epidemic/epidemic';
import type { Language } from '../../i18n';
import { renderApp, shows, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserIndex from '../user/index';
import Epidemic from './yiqing';

const country = (name: string, iso2: string | null, cases: number, deaths: number, todayCases = 0): Country => ({
  country: name,
  iso2,
  cases,
  todayCases,
  deaths,
  todayDeaths: 0,
  recovered: Math.round(cases * 0.9),
  todayRecovered: 0,
  active: Math.round(cases * 0.1) - deaths,
});

// By cases, most first, as the server sends them; the deaths and today's cases order them otherwise.
const COUNTRIES = [
  country('USA', 'US', 111_820_082, 1_219_487),
  country('India', 'IN', 45_035_393, 533_570, 4_211),
  country('France', 'FR', 40_138_560, 167_642, 12),
  country('Brazil', 'BR', 38_743_918, 711_380),
  country('China', 'CN', 503_302, 5_272, 35),
  country('Diamond Princess', null, 712, 13),
];

// Sunday 15 March 2026, noon UTC: the 15th or 16th wherever the tests run.
const UPDATED = Date.UTC(2026, 2, 15, 12);
const WORLD = {
  cases: 704_753_890,
  todayCases: 1_234,
  deaths: 7_010_681,
  todayDeaths: 0,
  recovered: 675_619_811,
  todayRecovered: 567,
  active: 22_123_398,
};

let countries: Country[] = COUNTRIES;
let fails = false;
const asked: Record<string, unknown>[] = [];
const api = setupServer(
  http.post('*/index.php/api/index/yiqing', async ({ request }) => {
    asked.push((await request.json()) as Record<string, unknown>);
    if (fails) return HttpResponse.json({ err: 'x', code: 'epidemic_unavailable' });
    const ret: EpidemicFigures = { updated: UPDATED, world: WORLD, countries };
    return HttpResponse.json({ ret });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  countries = COUNTRIES;
  fails = false;
  asked.length = 0;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const openPage = (language: Language = 'en') =>
  renderApp(
    <Routes>
      <Route path="/public/yiqing" element={<Epidemic />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/public/yiqing', language },
  );

/** The names of the rows shown, top to bottom. */
const rowNames = () =>
  screen.getAllByTestId('epidemic-country').map((row) => row.querySelector('.epidemic-name')?.textContent);

/** The world's total whose label is `label`. */
const total = (label: string) => {
  const found = screen.getAllByTestId('epidemic-total').find((box) => within(box).queryByText(label));
  if (!found) throw new Error(`no total "${label}"`);
  return found;
};

const search = (keyword: string) =>
  step(() =>
    fireEvent.change(screen.getByPlaceholderText('Search for a country or region'), { target: { value: keyword } }),
  );

describe('public/yiqing: the epidemic page', () => {
  it("shows the world's totals with today's changes, when they were updated, the countries and the source", async () => {
    openPage();
    await shows('Worldwide');
    expect(screen.getByText('Epidemic')).toBeTruthy();
    expect(total('Confirmed').textContent).toBe('Confirmed704,753,890+1,234 today');
    // No change today: none is shown, nor a "+0".
    expect(total('Deaths').textContent).toBe('Deaths7,010,681');
    expect(total('Recovered').textContent).toBe('Recovered675,619,811+567 today');
    expect(total('Active').textContent).toBe('Active22,123,398');
    expect(screen.getByText(/^Updated Mar 1[56], 2026/)).toBeTruthy();

    expect(rowNames()).toEqual(['USA', 'India', 'France', 'Brazil', 'China', 'Diamond Princess']);
    const india = screen.getAllByTestId('epidemic-country')[1] as HTMLElement;
    expect(within(india).getByText('Cases 45,035,393')).toBeTruthy();
    expect(within(india).getByText('+4,211 today')).toBeTruthy();
    expect(within(india).getByText('Deaths 533,570 · Recovered 40,531,854')).toBeTruthy();
    expect(within(screen.getAllByTestId('epidemic-country')[0] as HTMLElement).queryByText(/today/)).toBeNull();
    expect(screen.getByText('Figures: disease.sh (Johns Hopkins CSSE, Worldometers)')).toBeTruthy();

    // A visitor's call: no token, the app's language.
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toHaveProperty('token');
    expect(asked[0]).toMatchObject({ i18n: { locale: 'en' } });
  });

  it('names the countries in Chinese from their codes, the English name where there is no code', async () => {
    openPage('zh-CN');
    await shows('全球');
    expect(screen.getByText('疫情')).toBeTruthy();
    expect(total('累计确诊').textContent).toBe('累计确诊704,753,890今日 +1,234');
    expect(screen.getByText(/^更新于 2026年3月1[56]日/)).toBeTruthy();
    expect(rowNames()).toEqual(['美国', '印度', '法国', '巴西', '中国', 'Diamond Princess']);
    expect(screen.getByText('死亡 5,272 · 治愈 452,972')).toBeTruthy();
    // Searching in Chinese finds by the Chinese name.
    fireEvent.change(screen.getByPlaceholderText('搜索国家或地区'), { target: { value: '中国' } });
    await vi.waitFor(() => expect(rowNames()).toEqual(['中国']));
  });

  it('finds countries by either name, whatever the case', async () => {
    openPage();
    await shows('USA');
    await search('cHI');
    expect(rowNames()).toEqual(['China']);
    await search('巴西');
    expect(rowNames()).toEqual(['Brazil']);
    await search('');
    expect(rowNames()).toHaveLength(COUNTRIES.length);
  });

  it("sorts by deaths or by today's new cases, most first", async () => {
    openPage();
    await shows('USA');
    expect(screen.getByRole('option', { name: 'Cases' }).getAttribute('aria-selected')).toBe('true');
    await step(() => fireEvent.click(screen.getByRole('option', { name: 'Deaths' })));
    expect(rowNames()).toEqual(['USA', 'Brazil', 'India', 'France', 'China', 'Diamond Princess']);
    await step(() => fireEvent.click(screen.getByRole('option', { name: 'New today' })));
    // Ties (no new cases) keep the order by cases.
    expect(rowNames()).toEqual(['India', 'China', 'France', 'USA', 'Brazil', 'Diamond Princess']);
    // Choosing the chosen sort again keeps it rather than leaving the list unsorted.
    await step(() => fireEvent.click(screen.getByRole('option', { name: 'New today' })));
    expect(rowNames()[0]).toBe('India');
  });

  it('shows 50 countries, 50 more at a time, and starts again from 50 for a new search', async () => {
    countries = Array.from({ length: 120 }, (_, i) => country(`Land ${i + 1}`, null, 10_000 - i, 1));
    openPage();
    await shows('Land 1');
    expect(rowNames()).toHaveLength(50);
    expect(rowNames().at(-1)).toBe('Land 50');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Show more' })));
    expect(rowNames()).toHaveLength(100);
    expect(rowNames().at(-1)).toBe('Land 100');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Show more' })));
    expect(rowNames()).toHaveLength(120);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    // "Land 1" starts Land 1, 10 to 19 and 100 to 120: 32 rows.
    await search('land 1');
    expect(rowNames()).toHaveLength(32);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    await search('');
    expect(rowNames()).toHaveLength(50);
  });

  it('says when no country has the name', async () => {
    openPage();
    await shows('USA');
    await search('Atlantis');
    expect(screen.getByText('No country or region of that name')).toBeTruthy();
    expect(screen.queryAllByTestId('epidemic-country')).toEqual([]);
    // The world's totals stay.
    expect(total('Confirmed').textContent).toContain('704,753,890');
  });

  it('says when the figures cannot be had, in the app’s language, and shows them on Retry', async () => {
    fails = true;
    openPage('zh-CN');
    await shows('暂时无法获取疫情数据，请重试');
    cleanup();

    openPage();
    await shows('The epidemic figures cannot be had now, please retry');
    expect(screen.queryByText('Worldwide')).toBeNull();
    fails = false;
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await shows('Worldwide');
    expect(rowNames()).toHaveLength(COUNTRIES.length);
    expect(asked).toHaveLength(3);
  });

  it('opens from the user tab, right after the weather, for visitors too', async () => {
    expect(ROUTES.find((route) => route.path === 'public/yiqing')?.page).toBeDefined();
    renderApp(
      <>
        <UserIndex />
        <Where />
      </>,
      { path: '/pages/user/index' },
    );
    const weather = screen.getByText('Weather').closest('.adm-list-item');
    expect(weather?.nextElementSibling?.textContent).toBe('Epidemic');
    await step(() => fireEvent.click(screen.getByText('Epidemic')));
    expect(screen.getByTestId('where').textContent).toBe('/public/yiqing');
  });
});
