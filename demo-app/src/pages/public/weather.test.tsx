// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOT_CITIES } from '../../features/weather/hot-cities';
import { CITY_KEY, RECENT_CITIES_KEY, weatherKey } from '../../features/weather/weather';
import { en } from '../../i18n/en';
import { renderApp, shows, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import CityChooser from './city';
import Weather from './tianqi';

const HANGZHOU = { name: 'Hangzhou', admin: 'Zhejiang', country: 'China', latitude: 30.25, longitude: 120.17 };
const DAYS = Array.from({ length: 15 }, (_, i) => ({
  date: `2026-12-${String(i + 1).padStart(2, '0')}`,
  code: i === 1 ? 61 : 1,
  max: 10 + i,
  min: 2 + i,
  rain: i === 1 ? 80 : null,
}));

const asked: { path: string; body: Record<string, unknown> }[] = [];
let weatherFails = false;
const api = setupServer(
  http.post('*/index.php/api/index/:path', async ({ request, params }) => {
    const path = params['path'] as string;
    const body = (await request.json()) as Record<string, unknown>;
    asked.push({ path, body });
    if (path === 'tianqi') {
      if (weatherFails) return HttpResponse.json({ err: 'x', code: 'weather_unavailable' });
      return HttpResponse.json({
        ret: { current: { temperature: 8.4, code: 3, humidity: 71, wind: 12.5 }, days: DAYS },
      });
    }
    if (path === 'city') return HttpResponse.json({ ret: 'Hangzhou', city: HANGZHOU });
    if (path === 'city_search') {
      const results = String(body['keyword']).toLowerCase().startsWith('hang') ? [HANGZHOU] : [];
      return HttpResponse.json({ ret: results });
    }
    return HttpResponse.json({ err: 'x', code: 'bad_params' });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  asked.length = 0;
  weatherFails = false;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

const openPage = (path: string) =>
  renderApp(
    <Routes>
      <Route path="/public/tianqi" element={<Weather />} />
      <Route path="/public/city" element={<CityChooser />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path },
  );

/** A browser whose location is `at`, or refused. */
function geolocation(at: { latitude: number; longitude: number } | 'refused') {
  vi.stubGlobal('navigator', {
    ...navigator,
    geolocation: {
      getCurrentPosition: (ok: PositionCallback, fail: PositionErrorCallback) =>
        at === 'refused'
          ? fail({ code: 1, message: 'denied' } as GeolocationPositionError)
          : ok({ coords: at } as GeolocationPosition),
    },
  });
}

describe('public/tianqi: the weather page', () => {
  it('asks where to show, locates the device, names its city and shows now and 15 days', async () => {
    geolocation({ latitude: 30.26, longitude: 120.16 });
    openPage('/public/tianqi');
    await shows('Choose a city to see its weather');
    fireEvent.click(screen.getByRole('button', { name: 'Use my location' }));
    await shows('Hangzhou');
    await shows('8°');
    expect(screen.getByText('Overcast')).toBeTruthy();
    expect(screen.getByText('Humidity 71% · Wind 13 km/h')).toBeTruthy();
    expect(screen.getByText('Next 15 days')).toBeTruthy();
    const days = screen.getAllByTestId('weather-day');
    expect(days).toHaveLength(15);
    expect(days[0]?.textContent).toContain('Today · Mainly clear');
    expect(days[0]?.textContent).toContain('2° / 10°');
    expect(days[1]?.textContent).toMatch(/Wed.*12\/2.*Rain/);
    expect(days[1]?.textContent).toContain('Rain 80%');
    expect(asked.map((a) => a.path)).toEqual(['city', 'tianqi']);
    expect(asked[0]?.body).toMatchObject({ latitude: 30.26, longitude: 120.16 });
    expect(JSON.parse(localStorage.getItem(CITY_KEY) ?? '{}')).toMatchObject({ name: 'Hangzhou' });
  });

  it('says so when the location is refused, and when the weather cannot be had, with Retry', async () => {
    geolocation('refused');
    openPage('/public/tianqi');
    fireEvent.click(await screen.findByRole('button', { name: 'Use my location' }));
    await shows('Location failed, check permission');
    expect(asked).toEqual([]);
    cleanup();

    localStorage.setItem(CITY_KEY, JSON.stringify(HANGZHOU));
    weatherFails = true;
    openPage('/public/tianqi');
    await shows('The weather cannot be had now, please retry');
    weatherFails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await shows('Next 15 days');
  });
});

describe('public/city: the city chooser', () => {
  it('finds a city by name, keeps it for the weather page and among the recent ones', async () => {
    localStorage.setItem(CITY_KEY, JSON.stringify({ ...HANGZHOU, name: 'Elsewhere' }));
    openPage('/public/tianqi');
    await shows('Elsewhere');
    fireEvent.click(screen.getByRole('button', { name: 'City' }));
    fireEvent.change(await screen.findByPlaceholderText('Search for a city'), { target: { value: 'Hang' } });
    // The results take the place of the lists shown before a search, the popular cities among them.
    expect(await screen.findByText('Zhejiang, China', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.click(screen.getByText('Hangzhou'));
    // The chooser closes, the city kept for the weather page.
    await vi.waitFor(() => expect(screen.queryByPlaceholderText('Search for a city')).toBeNull());
    expect(JSON.parse(localStorage.getItem(CITY_KEY) ?? '{}')).toEqual(HANGZHOU);
    expect(asked.find((a) => a.path === 'city_search')?.body).toMatchObject({ keyword: 'Hang' });
    expect(JSON.parse(localStorage.getItem(RECENT_CITIES_KEY) ?? '[]')).toEqual([HANGZHOU]);
  });

  it('says when no place has the name, and lists the recent cities before a search', async () => {
    localStorage.setItem(RECENT_CITIES_KEY, JSON.stringify([{ ...HANGZHOU, name: 'Yuhang' }]));
    openPage('/public/city');
    expect(await screen.findByText('Recent')).toBeTruthy();
    expect(screen.getByText('Yuhang')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search for a city'), { target: { value: 'Atlantis' } });
    await shows('No place of that name');
    // The lists before a search make way for the results.
    expect(screen.queryByText('Yuhang')).toBeNull();
    expect(screen.queryByText('Popular cities')).toBeNull();
  });

  it('offers the popular cities at one tap, named in the app’s language, and keeps the one chosen', async () => {
    openPage('/public/city');
    expect(await screen.findByText('Popular cities')).toBeTruthy();
    const offered = HOT_CITIES.map((city) =>
      screen.getByRole('button', { name: en.city[`hot_${city.key}` as keyof typeof en.city] }),
    );
    expect(offered).toHaveLength(16);
    fireEvent.click(screen.getByRole('button', { name: "Xi'an" }));
    await vi.waitFor(() => expect(screen.queryByPlaceholderText('Search for a city')).toBeNull());
    const xian = { name: "Xi'an", country: 'China', latitude: 34.3416, longitude: 108.9398 };
    expect(JSON.parse(localStorage.getItem(CITY_KEY) ?? '{}')).toEqual(xian);
    expect(JSON.parse(localStorage.getItem(RECENT_CITIES_KEY) ?? '[]')).toEqual([xian]);
    // Nothing was asked of the server: the popular cities are known to the app.
    expect(asked).toEqual([]);
  });
});

describe('the weather’s words', () => {
  it('names the WMO codes', () => {
    expect([0, 2, 45, 53, 66, 63, 75, 81, 86, 96, 7].map(weatherKey)).toEqual([
      'weather.code_clear',
      'weather.code_partlyCloudy',
      'weather.code_fog',
      'weather.code_drizzle',
      'weather.code_freezingRain',
      'weather.code_rain',
      'weather.code_snow',
      'weather.code_showers',
      'weather.code_snowShowers',
      'weather.code_thunderstorm',
      'weather.code_unknown',
    ]);
  });
});
