import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WEATHER_LIMITS } from '../src/weather/service.js';
import { defer } from './helpers.js';
import { productServer } from './product-support.js';

/** 15 days of a forecast as Open-Meteo answers it. */
const DAYS = Array.from({ length: 16 }, (_, i) => `2026-12-${String(i + 1).padStart(2, '0')}`);
const FORECAST = {
  current: { temperature_2m: 8.4, weather_code: 3, relative_humidity_2m: 71, wind_speed_10m: 12.5 },
  daily: {
    time: DAYS,
    weather_code: DAYS.map((_, i) => (i % 2 ? 61 : 1)),
    temperature_2m_max: DAYS.map((_, i) => 10 + i),
    temperature_2m_min: DAYS.map((_, i) => 2 + i),
    precipitation_probability_max: DAYS.map((_, i) => (i % 2 ? 80 : null)),
  },
};

/** A fake Open-Meteo on loopback: what it was asked, and how it answers (`status` 200 and the answers above). */
async function fakeProvider() {
  const asked: URL[] = [];
  const state = { status: 200, forecast: FORECAST as unknown, places: {} as Record<string, unknown[]> };
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    asked.push(url);
    res.statusCode = state.status;
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v1/forecast') return res.end(JSON.stringify(state.forecast));
    const key = `${url.searchParams.get('language') ?? ''}:${url.searchParams.get('name') ?? ''}`;
    res.end(JSON.stringify({ results: state.places[key] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    asked,
    state,
    weather: { forecastUrl: `${base}/v1/forecast`, geocodingUrl: `${base}/v1/search` },
  };
}

const HANGZHOU = { latitude: 30.25, longitude: 120.17 };

describe('the weather page: index/tianqi', () => {
  it('gives the weather now and 15 days, asking the provider once per place in ten minutes', async () => {
    const fake = await fakeProvider();
    const p = await productServer({ weather: fake.weather });
    const answer = await p.call('index/tianqi', HANGZHOU);
    expect(answer.ret.current).toEqual({ temperature: 8.4, code: 3, humidity: 71, wind: 12.5 });
    const days = answer.ret.days as unknown[];
    expect(days).toHaveLength(WEATHER_LIMITS.days);
    expect(days.slice(0, 2)).toEqual([
      { date: '2026-12-01', code: 1, max: 10, min: 2, rain: null },
      { date: '2026-12-02', code: 61, max: 11, min: 3, rain: 80 },
    ]);
    const asked = fake.asked[0] as URL;
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      latitude: '30.2500',
      longitude: '120.1700',
      forecast_days: '15',
      timezone: 'auto',
    });
    // Numbers as text are numbers; a place within about a kilometre shares the answer.
    expect((await p.call('index/tianqi', { latitude: '30.2512', longitude: '120.1699' })).ret).toEqual(answer.ret);
    expect(fake.asked).toHaveLength(1);
    p.advance(WEATHER_LIMITS.forecastTtlMs);
    await p.call('index/tianqi', HANGZHOU);
    expect(fake.asked).toHaveLength(2);
  });

  it('refuses coordinates that are not, and says so when the provider fails or is off', async () => {
    const fake = await fakeProvider();
    const p = await productServer({ weather: fake.weather });
    for (const body of [
      {},
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -181 },
      { latitude: 'x', longitude: 1 },
    ]) {
      expect(await p.call('index/tianqi', body), JSON.stringify(body)).toMatchObject({ code: 'bad_params' });
    }
    expect(fake.asked).toEqual([]);
    const unavailable = {
      status: 200,
      err: 'the weather cannot be had now, please retry',
      code: 'weather_unavailable',
    };
    fake.state.status = 500;
    expect(await p.call('index/tianqi', HANGZHOU)).toEqual(unavailable);
    fake.state.status = 200;
    fake.state.forecast = { current: { temperature_2m: 'warm' } };
    expect(await p.call('index/tianqi', HANGZHOU)).toEqual(unavailable);
    const off = await productServer();
    expect(await off.call('index/tianqi', HANGZHOU)).toEqual(unavailable);
  });
});

describe('the city chooser: index/city and index/city_search', () => {
  it('names the nearest city, in the app’s language where the provider knows it', async () => {
    const fake = await fakeProvider();
    fake.state.places['zh:Hangzhou'] = [
      { name: '杭州市', latitude: 30.29, longitude: 120.16, country: '中国', admin1: '浙江省' },
      // The same name far away is another place.
      { name: '远方', latitude: 10, longitude: 10, country: 'X' },
    ];
    const p = await productServer({ weather: fake.weather });
    expect(await p.call('index/city', HANGZHOU)).toEqual({
      status: 200,
      ret: 'Hangzhou',
      city: {
        name: 'Hangzhou',
        admin: 'Zhejiang',
        country: 'China',
        latitude: expect.any(Number),
        longitude: expect.any(Number),
      },
    });
    expect(fake.asked).toEqual([]);
    const zh = await p.call('index/city', { ...HANGZHOU, i18n: { locale: 'zh-CN' } });
    expect(zh).toMatchObject({ ret: '杭州市', city: { name: '杭州市', admin: '浙江省', country: '中国' } });
    // Without the provider, the name kept here.
    const off = await productServer();
    expect((await off.call('index/city', { ...HANGZHOU, i18n: { locale: 'zh-CN' } })).ret).toBe('Hangzhou');
    // The middle of an ocean has no city near.
    expect(await p.call('index/city', { latitude: -40, longitude: -130 })).toEqual({
      status: 200,
      ret: '',
      city: null,
    });
    expect(await p.call('index/city', { latitude: 100, longitude: 0 })).toMatchObject({ code: 'bad_params' });
  });

  it('searches places by name through the provider, kept for a day', async () => {
    const fake = await fakeProvider();
    fake.state.places['en:Spring'] = [
      { name: 'Springfield', latitude: 39.8, longitude: -89.64, country: 'United States', admin1: 'Illinois' },
      { name: 'Springs', latitude: -26.25, longitude: 28.4 },
    ];
    const p = await productServer({ weather: fake.weather });
    expect((await p.call('index/city_search', { keyword: '  Spring ' })).ret).toEqual([
      { name: 'Springfield', admin: 'Illinois', country: 'United States', latitude: 39.8, longitude: -89.64 },
      { name: 'Springs', admin: '', country: '', latitude: -26.25, longitude: 28.4 },
    ]);
    expect((await p.call('index/city_search', { keyword: 'spring' })).ret).toHaveLength(2);
    expect(fake.asked).toHaveLength(1);
    expect(Object.fromEntries(fake.asked[0]?.searchParams ?? [])).toMatchObject({
      name: 'Spring',
      count: '10',
      language: 'en',
    });
    expect((await p.call('index/city_search', { keyword: 'Nowhere' })).ret).toEqual([]);
    for (const keyword of [undefined, '', '   ', 42, 'x'.repeat(WEATHER_LIMITS.keywordMax + 1)]) {
      expect(await p.call('index/city_search', { keyword }), String(keyword)).toMatchObject({ code: 'bad_params' });
    }
    const off = await productServer();
    expect(await off.call('index/city_search', { keyword: 'Spring' })).toMatchObject({ code: 'weather_unavailable' });
  });

  it('MEM-3: one address asks for at most 20 forecasts at once, then 30 a minute', async () => {
    const fake = await fakeProvider();
    const p = await productServer({ weather: fake.weather });
    const answers = await Promise.all(Array.from({ length: 21 }, () => p.call('index/tianqi', HANGZHOU)));
    expect(answers.filter((a) => a.ret !== undefined)).toHaveLength(20);
    expect(answers.filter((a) => a.code === 'too_frequent')).toHaveLength(1);
  });
});
