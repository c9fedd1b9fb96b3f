import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { EPIDEMIC_LIMITS } from '../src/epidemic/service.js';
import { defer } from './helpers.js';
import { productServer } from './product-support.js';

const UPDATED = 1_700_000_000_000;

/** A country as disease.sh answers it. */
function country(name: string, iso2: string | null, cases: number, extra: Record<string, unknown> = {}) {
  return {
    updated: UPDATED,
    country: name,
    countryInfo: { _id: 1, iso2, iso3: 'XXX', lat: 0, long: 0, flag: 'https://disease.sh/assets/img/flags/xx.png' },
    cases,
    todayCases: 3,
    deaths: Math.round(cases / 100),
    todayDeaths: 0,
    recovered: cases - 10,
    todayRecovered: null,
    active: 10,
    critical: 0,
    population: 1000,
    continent: 'Asia',
    ...extra,
  };
}

const ALL = {
  updated: UPDATED,
  cases: 704_753_890,
  todayCases: 12,
  deaths: 7_010_681,
  todayDeaths: 1,
  recovered: 675_619_811,
  todayRecovered: 5,
  active: 22_123_398,
  critical: 34_794,
  affectedCountries: 231,
};

/** A fake disease.sh on loopback: what it was asked, and how it answers. */
async function fakeProvider() {
  const asked: string[] = [];
  const state = {
    status: 200,
    all: ALL as unknown,
    countries: [
      country('S. Korea', 'KR', 34_571_873),
      country('USA', 'US', 111_820_082),
      country('China', 'CN', 503_302),
      country('Diamond Princess', null, 712, { deaths: null }),
    ] as unknown,
  };
  const server = createServer((req: IncomingMessage, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    asked.push(path);
    res.statusCode = state.status;
    res.setHeader('content-type', 'application/json');
    if (path === '/v3/covid-19/all') return res.end(JSON.stringify(state.all));
    if (path === '/v3/covid-19/countries') return res.end(JSON.stringify(state.countries));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    asked,
    state,
    epidemic: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/covid-19/` },
  };
}

describe('the epidemic page: index/yiqing', () => {
  it('gives the world’s figures and each country’s, most cases first, asking the provider once in ten minutes', async () => {
    const fake = await fakeProvider();
    const p = await productServer({ epidemic: fake.epidemic });
    // A visitor asks: no token.
    const answer = await p.call('index/yiqing', {});
    expect(answer.ret.updated).toBe(UPDATED);
    expect(answer.ret.world).toEqual({
      cases: 704_753_890,
      todayCases: 12,
      deaths: 7_010_681,
      todayDeaths: 1,
      recovered: 675_619_811,
      todayRecovered: 5,
      active: 22_123_398,
    });
    const rows = answer.ret.countries as Array<Record<string, unknown>>;
    expect(rows.map((c) => [c['country'], c['iso2']])).toEqual([
      ['USA', 'US'],
      ['S. Korea', 'KR'],
      ['China', 'CN'],
      ['Diamond Princess', null],
    ]);
    // Only the figures the page shows, and a count the provider has none of is 0.
    expect(rows[2]).toEqual({
      country: 'China',
      iso2: 'CN',
      cases: 503_302,
      todayCases: 3,
      deaths: 5033,
      todayDeaths: 0,
      recovered: 503_292,
      todayRecovered: 0,
      active: 10,
    });
    expect(rows[3]).toMatchObject({ deaths: 0 });
    expect(fake.asked.sort()).toEqual(['/v3/covid-19/all', '/v3/covid-19/countries']);

    // Kept for ten minutes, then asked again.
    fake.state.all = { ...ALL, cases: 1 };
    await p.call('index/yiqing', {});
    expect(fake.asked).toHaveLength(2);
    p.advance(EPIDEMIC_LIMITS.ttlMs);
    expect((await p.call('index/yiqing', {})).ret.world.cases).toBe(1);
    expect(fake.asked).toHaveLength(4);
  });

  it('asks once for callers at the same time, and answers at most 250 countries', async () => {
    const fake = await fakeProvider();
    fake.state.countries = Array.from({ length: 300 }, (_, i) => country(`Land ${i}`, 'AA', i + 1));
    const p = await productServer({ epidemic: fake.epidemic });
    const answers = await Promise.all([1, 2, 3].map(() => p.call('index/yiqing', {})));
    expect(fake.asked).toHaveLength(2);
    for (const answer of answers) {
      const rows = answer.ret.countries as Array<{ cases: number }>;
      expect(rows).toHaveLength(EPIDEMIC_LIMITS.countries);
      expect(rows[0]?.cases).toBe(300);
    }
  });

  it('keeps answering the last figures while the provider fails, for a day, asking it again once a minute', async () => {
    const fake = await fakeProvider();
    const p = await productServer({ epidemic: fake.epidemic });
    expect((await p.call('index/yiqing', {})).ret.world.cases).toBe(ALL.cases);
    fake.state.status = 500;
    p.advance(EPIDEMIC_LIMITS.ttlMs);
    expect((await p.call('index/yiqing', {})).ret.world.cases).toBe(ALL.cases);
    expect(fake.asked).toHaveLength(4);
    // Not asked again within the minute after it failed.
    p.advance(EPIDEMIC_LIMITS.retryMs - 1);
    await p.call('index/yiqing', {});
    expect(fake.asked).toHaveLength(4);
    p.advance(1);
    await p.call('index/yiqing', {});
    expect(fake.asked).toHaveLength(6);
    // A day after the figures were had, they are too old to show.
    p.advance(EPIDEMIC_LIMITS.staleMs);
    expect(await p.call('index/yiqing', {})).toMatchObject({
      err: 'the epidemic figures cannot be had now, please retry',
      code: 'epidemic_unavailable',
    });
  });

  it('refuses with epidemic_unavailable when the provider is off, answers nonsense or does not answer', async () => {
    const off = await productServer();
    expect(await off.call('index/yiqing', {})).toMatchObject({ code: 'epidemic_unavailable' });

    const fake = await fakeProvider();
    fake.state.all = { cases: 'many' };
    const p = await productServer({ epidemic: fake.epidemic });
    expect(await p.call('index/yiqing', {})).toMatchObject({ code: 'epidemic_unavailable' });

    const gone = await productServer({ epidemic: { url: 'http://127.0.0.1:9/v3/covid-19' } });
    expect(await gone.call('index/yiqing', {})).toMatchObject({ code: 'epidemic_unavailable' });
  });

  it('reads PARLEY_EPIDEMIC_URL: disease.sh by default, another URL, or off', () => {
    expect(loadConfig({}).epidemic).toEqual({ url: 'https://disease.sh/v3/covid-19' });
    expect(loadConfig({ PARLEY_EPIDEMIC_URL: 'http://10.0.0.5/v3/covid-19' }).epidemic).toEqual({
      url: 'http://10.0.0.5/v3/covid-19',
    });
    expect(loadConfig({ PARLEY_EPIDEMIC_URL: 'off' }).epidemic).toEqual({ url: '' });
    expect(() => loadConfig({ PARLEY_EPIDEMIC_URL: 'ftp://x' })).toThrow(/epidemic\.url \(from PARLEY_EPIDEMIC_URL\)/);
  });
});
