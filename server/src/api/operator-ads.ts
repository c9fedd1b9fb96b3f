import type { FastifyInstance } from 'fastify';
import type { AppRegistry } from '../auth/apps.js';
import type { AdService } from '../content/ads.js';
import type { AdRecord } from '../store/index.js';
import { operatorCatalogRoutes } from './operator-catalog.js';

/**
 * The operator's ads (spec §3 Ad), at `/api/v1/apps/:appkey/ads` (see {@link operatorCatalogRoutes}):
 *
 * - `GET` lists them by tab and order, with how often each was shown and tapped: `{id, title, img, url, position,
 *   sort, starts_at, ends_at, impressions, clicks, created_at}`.
 * - `POST` `{title, img, url, position, sort?, starts_at?, ends_at?}` adds one: a title of 1 to 40 characters, the
 *   picture's http(s) URL, where a tap goes (an http(s) URL or a path of the app), the tab whose banner shows it
 *   (`article`, `video`, `quanzi` or `shop`), its order (0 to 9999, lower first) and when it shows (milliseconds, null
 *   for no bound); at most 100 ads.
 * - `PATCH .../:id` changes any of those; `DELETE .../:id` removes one.
 */
export function operatorAdRoutes(app: FastifyInstance, deps: { apps: AppRegistry; appkey: string; ads: AdService }) {
  const { ads } = deps;
  operatorCatalogRoutes<AdRecord>(app, deps, {
    path: 'ads',
    list: () => ads.all(),
    add: (fields) => ads.add(fields),
    update: (id, fields) => ads.update(id, fields),
    remove: (id) => ads.remove(id),
    view: (ad) => ({
      id: ad.id,
      title: ad.title,
      img: ad.img,
      url: ad.url,
      position: ad.position,
      sort: ad.sort,
      starts_at: ad.startsAt,
      ends_at: ad.endsAt,
      impressions: ad.impressions,
      clicks: ad.clicks,
      created_at: ad.createdAt,
    }),
  });
}
