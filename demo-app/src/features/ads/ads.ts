import { apiPost, type CallContext } from '../api/request';

/** The tabs whose banners show ads. */
export type AdPosition = 'article' | 'video' | 'quanzi' | 'shop';

/** An ad as a banner shows it (spec §3 Ad: id, url, title), with its picture. */
export interface Ad {
  id: string;
  title: string;
  img: string;
  /** Where a tap goes: an http(s) URL (the web view) or a path of the app. */
  url: string;
}

/** The query key of the banners. */
export const ADS_QUERY = 'ads';

/** The ads a tab's banner shows now, in order. */
export async function adList(position: AdPosition, context: CallContext): Promise<Ad[]> {
  return (await apiPost<{ ret: Ad[] }>('ad/list', { position }, context)).ret;
}

/** Ads already counted as shown in this run of the app: each counts once, however often its slide comes round. */
const shown = new Set<string>();

/**
 * Counts a showing of an ad (`ad/click` with `zhanshi: 1`, spec §7), once per run of the app, or a tap (every time).
 * Counting never gets in the way: a failure is ignored.
 */
export function countAd(id: string, what: 'shown' | 'tap', context: CallContext): void {
  if (what === 'shown') {
    if (shown.has(id)) return;
    shown.add(id);
  }
  void apiPost('ad/click', { id, zhanshi: what === 'shown' ? 1 : 0 }, context).catch(() => undefined);
}
