import { apiPost, type CallContext } from '../api/request';

/** Figures of the world or of one country: totals, and the changes of the provider's current day. */
export interface Totals {
  cases: number;
  todayCases: number;
  deaths: number;
  todayDeaths: number;
  recovered: number;
  todayRecovered: number;
  active: number;
}

/** One country's or region's figures: its English name and its ISO 3166 code, when the provider knows it. */
export interface Country extends Totals {
  country: string;
  iso2: string | null;
}

/** The epidemic figures (`index/yiqing`): the world's, and the countries' sorted by cases, most first. */
export interface EpidemicFigures {
  /** When the provider last updated its figures, in ms since the epoch. */
  updated: number;
  world: Totals;
  countries: Country[];
}

/** The query key of the epidemic figures. */
export const EPIDEMIC_QUERY = 'epidemic';

/** The figures of the epidemic page; visitors may ask too, so no token is sent. */
export async function epidemicFigures(context: CallContext): Promise<EpidemicFigures> {
  return (await apiPost<{ ret: EpidemicFigures }>('index/yiqing', {}, { locale: context.locale })).ret;
}

/** What the list of countries can be sorted by, most first. */
export const EPIDEMIC_SORTS = ['cases', 'deaths', 'todayCases'] as const;

/** One of {@link EPIDEMIC_SORTS}. */
export type EpidemicSort = (typeof EPIDEMIC_SORTS)[number];

// Without a name for a code, `of` answers undefined rather than the code itself, so the English name can stand in.
const chineseRegions = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'none' });

/** A country's name in Chinese, from its code; undefined when it has no code or the code has no name. */
function chineseName(country: Country): string | undefined {
  if (!country.iso2) return undefined;
  try {
    return chineseRegions.of(country.iso2.toUpperCase());
  } catch {
    // A malformed code throws; the English name is shown instead.
    return undefined;
  }
}

/** A country as the list shows it: its figures and its name in the app's language. */
export interface CountryLine extends Country {
  name: string;
}

/**
 * The countries the list shows in `locale`: those whose name in either language contains `keyword` (ignoring case),
 * most first by `sort`; ties keep the server's order, which is by cases.
 */
export function countryLines({
  countries,
  keyword,
  sort,
  locale,
}: {
  countries: readonly Country[];
  keyword: string;
  sort: EpidemicSort;
  locale: string;
}): CountryLine[] {
  const wanted = keyword.trim().toLowerCase();
  const chinese = locale.toLowerCase().startsWith('zh');
  return countries
    .map((country) => ({ country, zh: chineseName(country) }))
    .filter(({ country, zh }) =>
      [country.country, zh].some((name) => name !== undefined && name.toLowerCase().includes(wanted)),
    )
    .map(({ country, zh }) => ({ ...country, name: chinese ? (zh ?? country.country) : country.country }))
    .sort((a, b) => b[sort] - a[sort]);
}
