import type { ProductApiDeps } from './index.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';

/** The language the app asks in (`i18n.locale`, spec §7): Chinese for any `zh` locale, else English. */
function languageOf(body: ProductBody): 'zh' | 'en' {
  const i18n = body['i18n'];
  const locale = typeof i18n === 'object' && i18n !== null ? (i18n as Record<string, unknown>)['locale'] : undefined;
  return typeof locale === 'string' && locale.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * The weather page and the city chooser (spec §1, §2 public/tianqi and public/city, §7 `index/city`, §9 15 days).
 * Visitors use them too: no token needed.
 *
 * - `index/tianqi` `{latitude, longitude}` -> `{ret: {current: {temperature, code, humidity, wind}, days: [{date, code,
 *   max, min, rain}]}}`, 15 days, WMO weather codes, °C, km/h.
 * - `index/city` `{latitude, longitude}` -> `{ret: name, city: {name, admin, country, latitude, longitude} | null}`,
 *   the nearest city ('' and null when none is near).
 * - `index/city_search` `{keyword}` -> `{ret: [place]}`, in the app's language.
 */
export function weatherRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('index/tianqi', async (body) => {
    const result = await deps.weather.forecast(body['latitude'], body['longitude']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  post('index/city', async (body) => {
    const result = await deps.weather.nearest(body['latitude'], body['longitude'], languageOf(body));
    if (!result.ok) return refuse(result.failure);
    return { ret: result.value?.name ?? '', city: result.value ?? null };
  });

  post('index/city_search', async (body) => {
    const result = await deps.weather.search(body['keyword'], languageOf(body));
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });
}
