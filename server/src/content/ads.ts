import { randomBytes } from 'node:crypto';
import { AD_POSITIONS, type AdChanges, type AdPosition, type AdRecord, type AdStore } from '../store/index.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import { badRequest, type CatalogEditResult } from './catalog.js';
import { isHttpUrl } from './text.js';

/** Bounds of ads (docs/limits.md). */
export const AD_LIMITS = {
  /** A title: 1 to this many characters (Unicode code points) after trimming. */
  titleMax: 40,
  /** The picture's and an outside target's URL, at most. */
  urlMax: 1024,
  /** A target inside the app (`article/view?id=...`), at most. */
  pathMax: 200,
  /** The order: an integer from 0 to this. */
  sortMax: 9999,
  /** Ads the operator keeps, at most. */
  max: 100,
  /** Ads one banner shows, at most. */
  perBanner: 10,
} as const;

/** A result of the operator's change of ads. */
export type AdEditResult = CatalogEditResult<AdRecord>;
type AdEditFailure = Extract<AdEditResult, { ok: false }>;

/** The operator's ads (spec §3 Ad, §7 `ad/click`). No HTTP here. */
export interface AdService {
  /** Every ad, with its counts, for the operator. */
  all(): Promise<AdRecord[]>;
  /** The ads a tab's banner shows now, in order; `bad_params` for a tab that has none. */
  showing(position: unknown): Promise<MemberResult<AdRecord[]>>;
  /** Counts a showing (`impression`) or a tap of an ad showing now; `ad_missing` when there is none. */
  count(id: unknown, impression: boolean): Promise<MemberResult<void>>;
  /** The operator adds an ad: `{title, img, url, position, sort?, starts_at?, ends_at?}`. */
  add(fields: Record<string, unknown>): Promise<AdEditResult>;
  /** The operator changes ad `id`: any of the fields `add` takes. */
  update(id: string, fields: Record<string, unknown>): Promise<AdEditResult>;
  /** The operator removes ad `id`. */
  remove(id: string): Promise<AdEditResult>;
}

const notFound: AdEditFailure = { ok: false, failure: 'not_found', message: 'ad does not exist.' };

const isPosition = (value: unknown): value is AdPosition =>
  typeof value === 'string' && (AD_POSITIONS as readonly string[]).includes(value);

/** A path of the app: `article/view?id=1`, with or without a leading slash; no scheme, no spaces. */
const isAppPath = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= AD_LIMITS.pathMax &&
  /^\/?[a-z][\w-]*(?:\/[\w-]+)*(?:\?\S*)?$/i.test(value);

/** A time bound: null (none) or a time in milliseconds. */
const isBound = (value: unknown): value is number | null =>
  value === null || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);

/** The checked fields of the operator's change, or why they are refused. */
function fieldsOf(fields: Record<string, unknown>, required: boolean): AdChanges | AdEditFailure {
  const { title, img, url, position, sort, starts_at: startsAt, ends_at: endsAt } = fields;
  const out: AdChanges = {};
  if (title !== undefined || required) {
    const trimmed = typeof title === 'string' ? title.trim() : '';
    const length = [...trimmed].length;
    if (length === 0 || length > AD_LIMITS.titleMax || /\p{Cc}/u.test(trimmed)) {
      return badRequest(`title must be 1 to ${AD_LIMITS.titleMax} characters.`);
    }
    out.title = trimmed;
  }
  if (img !== undefined || required) {
    if (!isHttpUrl(img, AD_LIMITS.urlMax)) return badRequest('img must be an http(s) URL.');
    out.img = img;
  }
  if (url !== undefined || required) {
    if (!isHttpUrl(url, AD_LIMITS.urlMax) && !isAppPath(url))
      return badRequest('url must be an http(s) URL or a path of the app.');
    out.url = url;
  }
  if (position !== undefined || required) {
    if (!isPosition(position)) return badRequest(`position must be one of ${AD_POSITIONS.join(', ')}.`);
    out.position = position;
  }
  if (sort !== undefined) {
    if (typeof sort !== 'number' || !Number.isInteger(sort) || sort < 0 || sort > AD_LIMITS.sortMax) {
      return badRequest(`sort must be an integer from 0 to ${AD_LIMITS.sortMax}.`);
    }
    out.sort = sort;
  }
  if (startsAt !== undefined) {
    if (!isBound(startsAt)) return badRequest('starts_at must be a time in milliseconds or null.');
    out.startsAt = startsAt;
  }
  if (endsAt !== undefined) {
    if (!isBound(endsAt)) return badRequest('ends_at must be a time in milliseconds or null.');
    out.endsAt = endsAt;
  }
  return out;
}

/** Whether an ad would end before it starts. */
const inverted = (ad: Pick<AdRecord, 'startsAt' | 'endsAt'>) =>
  ad.startsAt !== null && ad.endsAt !== null && ad.endsAt <= ad.startsAt;

/** Creates the ad service over the store. */
export function createAdService(deps: { ads: AdStore; now: () => number }): AdService {
  const { ads, now } = deps;
  return {
    all: () => ads.all(),
    async showing(position) {
      if (!isPosition(position)) return { ok: false, failure: 'bad_params' };
      return { ok: true, value: await ads.showing(position, now(), AD_LIMITS.perBanner) };
    },
    async count(id, impression) {
      if (!isRowKey(id) || id === undefined) return { ok: false, failure: 'ad_missing' };
      const counted = await ads.count(id, impression ? 'impressions' : 'clicks', now());
      return counted ? { ok: true, value: undefined } : { ok: false, failure: 'ad_missing' };
    },
    async add(fields) {
      const checked = fieldsOf(fields, true);
      if ('ok' in checked) return checked;
      const record: AdRecord = {
        id: randomBytes(8).toString('hex'),
        title: checked.title as string,
        img: checked.img as string,
        url: checked.url as string,
        position: checked.position as AdPosition,
        sort: checked.sort ?? 0,
        startsAt: checked.startsAt ?? null,
        endsAt: checked.endsAt ?? null,
        impressions: 0,
        clicks: 0,
        createdAt: now(),
      };
      if (inverted(record)) return badRequest('ends_at must be after starts_at.');
      if (!(await ads.add(record, AD_LIMITS.max))) return badRequest(`at most ${AD_LIMITS.max} ads.`);
      return { ok: true, value: record };
    },
    async update(id, fields) {
      const checked = fieldsOf(fields, false);
      if ('ok' in checked) return checked;
      const current = await ads.byId(id);
      if (!current) return notFound;
      if (inverted({ ...current, ...checked })) return badRequest('ends_at must be after starts_at.');
      if (!(await ads.update(id, checked))) return notFound;
      const changed = await ads.byId(id);
      return changed ? { ok: true, value: changed } : notFound;
    },
    async remove(id) {
      const current = await ads.byId(id);
      if (!current) return notFound;
      return (await ads.remove(id, now())) ? { ok: true, value: current } : notFound;
    },
  };
}
