import { apiPost, type CallContext } from '../api/request';

/** The weather now: °C, the WMO weather code, humidity in percent and wind in km/h (each may be unknown). */
export interface CurrentWeather {
  temperature: number;
  code: number;
  humidity: number | null;
  wind: number | null;
}

/** One day of the forecast: its date (`YYYY-MM-DD`), the WMO code, the day's highest and lowest °C, chance of rain. */
export interface ForecastDay {
  date: string;
  code: number;
  max: number;
  min: number;
  rain: number | null;
}

/** A place the weather is shown for. */
export interface City {
  name: string;
  latitude: number;
  longitude: number;
  /** Its province or state and country, as the search found it; may be empty. */
  admin?: string;
  country?: string;
}

/** The query key of forecasts. */
export const WEATHER_QUERY = 'weather';

/** The weather at a place now and its next 15 days (spec §9). */
export async function forecast(
  at: Pick<City, 'latitude' | 'longitude'>,
  context: CallContext,
): Promise<{ current: CurrentWeather; days: ForecastDay[] }> {
  return (
    await apiPost<{ ret: { current: CurrentWeather; days: ForecastDay[] } }>(
      'index/tianqi',
      { latitude: at.latitude, longitude: at.longitude },
      context,
    )
  ).ret;
}

/** The city nearest to a place (spec §7 `index/city`), or undefined when none is near. */
export async function cityAt(
  at: Pick<City, 'latitude' | 'longitude'>,
  context: CallContext,
): Promise<City | undefined> {
  const answer = await apiPost<{ ret: string; city: City | null }>(
    'index/city',
    { latitude: at.latitude, longitude: at.longitude },
    context,
    { loading: true },
  );
  return answer.city ?? undefined;
}

/** Places whose name starts with `keyword`, in the app's language. */
export async function searchCities(keyword: string, context: CallContext): Promise<City[]> {
  return (await apiPost<{ ret: City[] }>('index/city_search', { keyword }, context)).ret;
}

/** The translation key of a WMO weather code's words. */
export function weatherKey(code: number): string {
  if (code === 0) return 'weather.code_clear';
  if (code === 1) return 'weather.code_mainlyClear';
  if (code === 2) return 'weather.code_partlyCloudy';
  if (code === 3) return 'weather.code_overcast';
  if (code === 45 || code === 48) return 'weather.code_fog';
  if (code >= 51 && code <= 57) return 'weather.code_drizzle';
  if (code === 66 || code === 67) return 'weather.code_freezingRain';
  if (code >= 61 && code <= 65) return 'weather.code_rain';
  if (code >= 71 && code <= 77) return 'weather.code_snow';
  if (code >= 80 && code <= 82) return 'weather.code_showers';
  if (code === 85 || code === 86) return 'weather.code_snowShowers';
  if (code >= 95 && code <= 99) return 'weather.code_thunderstorm';
  return 'weather.code_unknown';
}

/** Where the chosen city and the recent ones are kept in the browser. */
export const CITY_KEY = 'weather_city';
export const RECENT_CITIES_KEY = 'weather_recent';
/** Recent cities kept, at most. */
export const RECENT_MAX = 8;

const isCity = (value: unknown): value is City =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as City).name === 'string' &&
  typeof (value as City).latitude === 'number' &&
  typeof (value as City).longitude === 'number';

function read(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/** The city the weather page shows, once one was chosen or located. */
export function chosenCity(): City | undefined {
  const value = read(CITY_KEY);
  return isCity(value) ? value : undefined;
}

/** The cities chosen before, the latest first. */
export function recentCities(): City[] {
  const value = read(RECENT_CITIES_KEY);
  return Array.isArray(value) ? value.filter(isCity) : [];
}

/** Keeps `city` as the weather page's, and first among the recent ones (each place once). */
export function chooseCity(city: City): void {
  const same = (a: City) => a.name === city.name && Math.abs(a.latitude - city.latitude) < 0.01;
  localStorage.setItem(CITY_KEY, JSON.stringify(city));
  const recent = [city, ...recentCities().filter((c) => !same(c))].slice(0, RECENT_MAX);
  localStorage.setItem(RECENT_CITIES_KEY, JSON.stringify(recent));
}

/** Where the device is, from the browser; rejects when it is refused or cannot tell. */
export function locate(): Promise<Pick<City, 'latitude' | 'longitude'>> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new Error('no geolocation'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
      () => reject(new Error('location failed')),
      { timeout: 10_000, maximumAge: 600_000 },
    );
  });
}
