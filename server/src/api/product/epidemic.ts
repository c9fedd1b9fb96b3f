import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * The epidemic page (spec §1): the world's COVID-19 figures and each country's, from the configured provider.
 * Visitors use it too: no token needed.
 *
 * - `index/yiqing` `{}` -> `{ret: {updated, world: totals, countries: [{country, iso2, ...totals}]}}`, countries most
 *   cases first (at most 250); totals are `{cases, todayCases, deaths, todayDeaths, recovered, todayRecovered,
 *   active}`. `epidemic_unavailable` when no figures can be had.
 */
export function epidemicRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('index/yiqing', async () => {
    const result = await deps.epidemic.figures();
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });
}
