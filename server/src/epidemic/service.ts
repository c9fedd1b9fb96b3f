import { z } from 'zod';
import type { EpidemicConfig } from '../config.js';
import type { MemberResult } from '../members/service.js';
import { askProvider } from '../providers/ask.js';

/** Bounds of the epidemic page (docs/limits.md). */
export const EPIDEMIC_LIMITS = {
  /** The figures are kept this long before the provider is asked again (it updates about every 10 minutes). */
  ttlMs: 10 * 60_000,
  /** While the provider fails, the last figures are still answered for this long after they were had. */
  staleMs: 24 * 3_600_000,
  /** The provider has this long to answer. */
  timeoutMs: 5_000,
  /** After the provider failed, it is not asked again for this long. */
  retryMs: 60_000,
  /** Countries and regions answered, at most. */
  countries: 250,
} as const;

/** One set of figures: cumulative counts, and the day's changes (`today...`, 0 when the provider has none yet). */
export interface EpidemicTotals {
  cases: number;
  todayCases: number;
  deaths: number;
  todayDeaths: number;
  recovered: number;
  todayRecovered: number;
  active: number;
}

/** A country's or region's figures: its English name, and its ISO 3166-1 alpha-2 code when the provider knows one. */
export interface EpidemicCountry extends EpidemicTotals {
  country: string;
  iso2: string | null;
}

/** What the epidemic page shows: the world's figures and each country's, most cases first. */
export interface EpidemicFigures {
  /** When the provider last updated its figures, in milliseconds. */
  updated: number;
  world: EpidemicTotals;
  countries: EpidemicCountry[];
}

/** The epidemic page's provider. No HTTP of our own here: the route calls this. */
export interface EpidemicService {
  /** The figures; `epidemic_unavailable` when none can be had (the provider off, failing, and nothing recent kept). */
  figures(): Promise<MemberResult<EpidemicFigures>>;
}

/** A count as disease.sh gives it: a number, or null where a country reports none. */
const count = z
  .number()
  .nullish()
  .transform((n) => (n !== null && n !== undefined && Number.isFinite(n) && n > 0 ? Math.round(n) : 0));

const totals = z.object({
  updated: z.number(),
  cases: count,
  todayCases: count,
  deaths: count,
  todayDeaths: count,
  recovered: count,
  todayRecovered: count,
  active: count,
});

const countries = z.array(
  totals.extend({
    country: z.string().min(1).max(100),
    countryInfo: z.object({ iso2: z.string().nullish() }).optional(),
  }),
);

function totalsOf(t: z.infer<typeof totals>): EpidemicTotals {
  return {
    cases: t.cases,
    todayCases: t.todayCases,
    deaths: t.deaths,
    todayDeaths: t.todayDeaths,
    recovered: t.recovered,
    todayRecovered: t.todayRecovered,
    active: t.active,
  };
}

/** What {@link createEpidemicService} needs. */
export interface EpidemicDeps {
  config: EpidemicConfig;
  now: () => number;
  /** @default the global fetch */
  fetch?: typeof fetch;
}

/** Creates the epidemic service over its provider (disease.sh's COVID-19 API by default). */
export function createEpidemicService(deps: EpidemicDeps): EpidemicService {
  const { config, now } = deps;
  const get = deps.fetch ?? fetch;
  let kept: { figures: EpidemicFigures; at: number } | undefined;
  /** The one request to the provider under way: callers at the same time share it. */
  let asking: Promise<EpidemicFigures | undefined> | undefined;
  let failedAt = -Infinity;

  /** The provider's JSON answer at `path` (under its base URL), or undefined. */
  const ask = (path: string) =>
    askProvider(get, `${config.url.replace(/\/+$/, '')}/${path}`, EPIDEMIC_LIMITS.timeoutMs);

  const fetchFigures = async (): Promise<EpidemicFigures | undefined> => {
    const [all, list] = await Promise.all([ask('all'), ask('countries')]);
    const world = totals.safeParse(all);
    const parsed = countries.safeParse(list);
    if (!world.success || !parsed.success) return undefined;
    return {
      updated: world.data.updated,
      world: totalsOf(world.data),
      countries: parsed.data
        .map((c) => {
          const iso2 = c.countryInfo?.iso2;
          return { country: c.country, iso2: iso2 && /^[A-Z]{2}$/.test(iso2) ? iso2 : null, ...totalsOf(c) };
        })
        .sort((a, b) => b.cases - a.cases || a.country.localeCompare(b.country))
        .slice(0, EPIDEMIC_LIMITS.countries),
    };
  };

  return {
    async figures() {
      if (kept && now() - kept.at < EPIDEMIC_LIMITS.ttlMs) return { ok: true, value: kept.figures };
      if (config.url !== '' && now() - failedAt >= EPIDEMIC_LIMITS.retryMs) {
        asking ??= fetchFigures().finally(() => {
          asking = undefined;
        });
        const fresh = await asking;
        if (fresh) {
          kept = { figures: fresh, at: now() };
          return { ok: true, value: fresh };
        }
        failedAt = now();
      }
      // The provider failing: the last figures, while they are recent enough to be worth showing.
      if (kept && now() - kept.at < EPIDEMIC_LIMITS.staleMs) return { ok: true, value: kept.figures };
      return { ok: false, failure: 'epidemic_unavailable' };
    },
  };
}
