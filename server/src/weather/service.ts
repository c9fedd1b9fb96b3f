import cityTimezones from 'city-timezones';
import { z } from 'zod';
import type { WeatherConfig } from '../config.js';
import type { MemberResult } from '../members/service.js';
import { askProvider } from '../providers/ask.js';

/** Bounds of the weather page and the city chooser (docs/limits.md). */
export const WEATHER_LIMITS = {
  /** Days of forecast (spec §9: 15 days). */
  days: 15,
  /** A forecast is kept this long per place (rounded to about a kilometre) before it is asked again. */
  forecastTtlMs: 10 * 60_000,
  /** A search's places are kept this long. */
  searchTtlMs: 24 * 3_600_000,
  /** Answers kept of each kind, at most. */
  cacheMax: 1_000,
  /** The provider has this long to answer. */
  timeoutMs: 5_000,
  /** A search's words: 1 to this many characters. */
  keywordMax: 40,
  /** Places a search answers, at most. */
  results: 10,
  /** `index/city` names the nearest city within this distance, in kilometres. */
  nearestKm: 150,
} as const;

/** One day of the forecast: its date (`YYYY-MM-DD`, local to the place), the WMO weather code, temperatures (°C). */
export interface ForecastDay {
  date: string;
  code: number;
  max: number;
  min: number;
  /** The day's highest chance of rain, in percent; null when the provider gives none. */
  rain: number | null;
}

/** The weather at a place now and its next {@link WEATHER_LIMITS.days} days. */
export interface Forecast {
  current: { temperature: number; code: number; humidity: number | null; wind: number | null };
  days: ForecastDay[];
}

/** A place the city chooser offers. */
export interface Place {
  name: string;
  /** Its province or state; may be empty. */
  admin: string;
  country: string;
  latitude: number;
  longitude: number;
}

/** The weather page's provider. No HTTP of our own here: the routes call this. */
export interface WeatherService {
  /** The forecast at a place; `bad_params` for coordinates that are not, `weather_unavailable` when none can be had. */
  forecast(latitude: unknown, longitude: unknown): Promise<MemberResult<Forecast>>;
  /** Places whose name starts with `keyword`, in `language` (`zh` or `en`). */
  search(keyword: unknown, language: 'zh' | 'en'): Promise<MemberResult<Place[]>>;
  /**
   * The city nearest to a place (spec §7 `index/city`), from a list of 7 000 cities kept here, named in `language`
   * when the geocoding provider knows it; undefined when none is within {@link WEATHER_LIMITS.nearestKm}.
   */
  nearest(latitude: unknown, longitude: unknown, language: 'zh' | 'en'): Promise<MemberResult<Place | undefined>>;
}

const forecastAnswer = z.object({
  current: z.object({
    temperature_2m: z.number(),
    weather_code: z.number(),
    relative_humidity_2m: z.number().nullish(),
    wind_speed_10m: z.number().nullish(),
  }),
  daily: z.object({
    time: z.array(z.string()),
    weather_code: z.array(z.number().nullable()),
    temperature_2m_max: z.array(z.number().nullable()),
    temperature_2m_min: z.array(z.number().nullable()),
    precipitation_probability_max: z.array(z.number().nullable()).optional(),
  }),
});

const searchAnswer = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().optional(),
        admin1: z.string().optional(),
      }),
    )
    .optional(),
});

/** A map that forgets entries past their time, and the oldest past its size. */
class Cache<T> {
  readonly #entries = new Map<string, { value: T; until: number }>();
  constructor(
    readonly ttlMs: number,
    readonly max: number,
  ) {}
  get(key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: T, now: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { value, until: now + this.ttlMs });
  }
}

/** A latitude and a longitude as given: numbers in range, or numeric text. */
function coordinates(latitude: unknown, longitude: unknown): { lat: number; lon: number } | undefined {
  const lat = typeof latitude === 'string' && latitude.trim() !== '' ? Number(latitude) : latitude;
  const lon = typeof longitude === 'string' && longitude.trim() !== '' ? Number(longitude) : longitude;
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return;
  return { lat, lon };
}

/** The great-circle distance between two places, in kilometres. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** What {@link createWeatherService} needs. */
export interface WeatherDeps {
  config: WeatherConfig;
  now: () => number;
  /** @default the global fetch */
  fetch?: typeof fetch;
}

/** Creates the weather service over its provider (Open-Meteo's APIs by default). */
export function createWeatherService(deps: WeatherDeps): WeatherService {
  const { config, now } = deps;
  const get = deps.fetch ?? fetch;
  const forecasts = new Cache<Forecast>(WEATHER_LIMITS.forecastTtlMs, WEATHER_LIMITS.cacheMax);
  const searches = new Cache<Place[]>(WEATHER_LIMITS.searchTtlMs, WEATHER_LIMITS.cacheMax);

  /** The provider's JSON answer to `url`, or undefined. */
  const ask = (url: URL) => askProvider(get, url, WEATHER_LIMITS.timeoutMs);

  const search = async (keyword: string, language: 'zh' | 'en'): Promise<Place[] | undefined> => {
    const key = `${language}:${keyword.toLowerCase()}`;
    const cached = searches.get(key, now());
    if (cached) return cached;
    if (config.geocodingUrl === '') return undefined;
    const url = new URL(config.geocodingUrl);
    url.search = new URLSearchParams({
      name: keyword,
      count: String(WEATHER_LIMITS.results),
      language,
      format: 'json',
    }).toString();
    const parsed = searchAnswer.safeParse(await ask(url));
    if (!parsed.success) return undefined;
    const places = (parsed.data.results ?? []).map((r) => ({
      name: r.name,
      admin: r.admin1 ?? '',
      country: r.country ?? '',
      latitude: r.latitude,
      longitude: r.longitude,
    }));
    searches.set(key, places, now());
    return places;
  };

  return {
    async forecast(latitude, longitude) {
      const at = coordinates(latitude, longitude);
      if (!at) return { ok: false, failure: 'bad_params' };
      if (config.forecastUrl === '') return { ok: false, failure: 'weather_unavailable' };
      // About a kilometre: places that close share a forecast.
      const key = `${at.lat.toFixed(2)},${at.lon.toFixed(2)}`;
      const cached = forecasts.get(key, now());
      if (cached) return { ok: true, value: cached };
      const url = new URL(config.forecastUrl);
      url.search = new URLSearchParams({
        latitude: at.lat.toFixed(4),
        longitude: at.lon.toFixed(4),
        current: 'temperature_2m,weather_code,relative_humidity_2m,wind_speed_10m',
        daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max',
        timezone: 'auto',
        forecast_days: String(WEATHER_LIMITS.days),
      }).toString();
      const parsed = forecastAnswer.safeParse(await ask(url));
      if (!parsed.success) return { ok: false, failure: 'weather_unavailable' };
      const { current, daily } = parsed.data;
      const days: ForecastDay[] = [];
      daily.time.slice(0, WEATHER_LIMITS.days).forEach((date, i) => {
        const code = daily.weather_code[i];
        const max = daily.temperature_2m_max[i];
        const min = daily.temperature_2m_min[i];
        if (
          code === null ||
          code === undefined ||
          max === null ||
          max === undefined ||
          min === null ||
          min === undefined
        )
          return;
        days.push({ date, code, max, min, rain: daily.precipitation_probability_max?.[i] ?? null });
      });
      const forecast: Forecast = {
        current: {
          temperature: current.temperature_2m,
          code: current.weather_code,
          humidity: current.relative_humidity_2m ?? null,
          wind: current.wind_speed_10m ?? null,
        },
        days,
      };
      forecasts.set(key, forecast, now());
      return { ok: true, value: forecast };
    },

    async search(keyword, language) {
      const words = typeof keyword === 'string' ? keyword.trim() : '';
      const length = [...words].length;
      if (length === 0 || length > WEATHER_LIMITS.keywordMax || /\p{Cc}/u.test(words)) {
        return { ok: false, failure: 'bad_params' };
      }
      const places = await search(words, language);
      return places ? { ok: true, value: places } : { ok: false, failure: 'weather_unavailable' };
    },

    async nearest(latitude, longitude, language) {
      const at = coordinates(latitude, longitude);
      if (!at) return { ok: false, failure: 'bad_params' };
      let best: { city: (typeof cityTimezones.cityMapping)[number]; km: number } | undefined;
      for (const city of cityTimezones.cityMapping) {
        const km = distanceKm(at, { lat: city.lat, lon: city.lng });
        if (!best || km < best.km) best = { city, km };
      }
      if (!best || best.km > WEATHER_LIMITS.nearestKm) return { ok: true, value: undefined };
      const { city } = best;
      const place: Place = {
        name: city.city,
        admin: city.province,
        country: city.country,
        latitude: city.lat,
        longitude: city.lng,
      };
      if (language === 'en') return { ok: true, value: place };
      // Its name in the language, where the geocoding provider has the same city (the one nearest, within 50 km).
      const named = (await search(city.city_ascii, language)) ?? [];
      const same = named
        .map((p) => ({ p, km: distanceKm({ lat: city.lat, lon: city.lng }, { lat: p.latitude, lon: p.longitude }) }))
        .filter(({ km }) => km <= 50)
        .sort((a, b) => a.km - b.km)[0]?.p;
      return {
        ok: true,
        value: same ? { ...place, name: same.name, admin: same.admin, country: same.country } : place,
      };
    },
  };
}
