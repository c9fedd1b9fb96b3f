import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** The banners' ads (spec §3 Ad; §7 `ad/click`). Visitors see them too: no token needed. */
export function adRoutes(post: ProductPost, deps: ProductApiDeps): void {
  // {position} -> {ret: [{id, title, img, url}]}: the ads a tab's banner shows now, in order, at most 10.
  post('ad/list', async (body) => {
    const result = await deps.ads.showing(body['position']);
    if (!result.ok) return refuse(result.failure);
    return { ret: result.value.map(({ id, title, img, url }) => ({ id, title, img, url })) };
  });

  // {id, zhanshi?} -> {ret: true}: `zhanshi: 1` (shown) counts a showing of the ad, anything else a tap.
  post('ad/click', async (body) => {
    const shown = body['zhanshi'] === 1 || body['zhanshi'] === '1' || body['zhanshi'] === true;
    const result = await deps.ads.count(body['id'], shown);
    return result.ok ? { ret: true } : refuse(result.failure);
  });
}
