import { useQuery } from '@tanstack/react-query';
import { Button, ErrorBlock, List, SearchBar, Selector } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EPIDEMIC_QUERY,
  EPIDEMIC_SORTS,
  countryLines,
  epidemicFigures,
  type EpidemicFigures,
  type EpidemicSort,
} from '../../features/epidemic/epidemic';
import { errorText } from '../../features/api/errors';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import './epidemic.css';

/** Countries shown at first, and added by each "show more": the list may hold 250, too many for a phone at once. */
export const COUNTRIES_PAGE = 50;

/** The label of each sort, by its translation key. */
const SORT_LABELS: Record<EpidemicSort, string> = {
  cases: 'epidemic.sortCases',
  deaths: 'epidemic.sortDeaths',
  todayCases: 'epidemic.sortToday',
};

/** Numbers and today's changes as the app's language groups them; a change carries its sign. */
function useFigures() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const plain = new Intl.NumberFormat(i18n.language);
    const change = new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' });
    return { number: (value: number) => plain.format(value), change: (value: number) => change.format(value) };
  }, [i18n.language]);
}

/** The world's totals, each with today's change when there is one, and when the provider updated them. */
function WorldTotals({ figures }: { figures: EpidemicFigures }) {
  const { t, i18n } = useTranslation();
  const { number, change } = useFigures();
  const { world } = figures;
  const totals = [
    { key: 'cases', value: world.cases, today: world.todayCases },
    { key: 'deaths', value: world.deaths, today: world.todayDeaths },
    { key: 'recovered', value: world.recovered, today: world.todayRecovered },
    { key: 'active', value: world.active, today: 0 },
  ];
  const updated = new Date(figures.updated).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="epidemic-world" aria-label={t('epidemic.world')}>
      <h2>{t('epidemic.world')}</h2>
      <div className="epidemic-totals">
        {totals.map((total) => (
          <div key={total.key} className={`epidemic-total epidemic-${total.key}`} data-testid="epidemic-total">
            <span className="epidemic-total-label">{t(`epidemic.${total.key}`)}</span>
            <strong>{number(total.value)}</strong>
            {total.today !== 0 && (
              <span className="epidemic-change">{t('epidemic.today', { value: change(total.today) })}</span>
            )}
          </div>
        ))}
      </div>
      <p className="epidemic-updated">{t('epidemic.updated', { time: updated })}</p>
    </section>
  );
}

/** The countries and regions: a search by name, a choice of sort, and the first rows with "show more". */
function CountryList({ figures }: { figures: EpidemicFigures }) {
  const { t, i18n } = useTranslation();
  const { number, change } = useFigures();
  const [keyword, setKeyword] = useState('');
  const [sort, setSort] = useState<EpidemicSort>('cases');
  const [shown, setShown] = useState(COUNTRIES_PAGE);
  const lines = useMemo(
    () => countryLines({ countries: figures.countries, keyword, sort, locale: i18n.language }),
    [figures.countries, keyword, sort, i18n.language],
  );
  // A new search or sort starts again from its first rows.
  const search = (value: string) => {
    setKeyword(value);
    setShown(COUNTRIES_PAGE);
  };
  const sortBy = (value: EpidemicSort | undefined) => {
    if (value === undefined) return;
    setSort(value);
    setShown(COUNTRIES_PAGE);
  };

  let rows;
  if (lines.length === 0) {
    const title = keyword.trim() === '' ? t('epidemic.noCountries') : t('epidemic.none');
    rows = <ErrorBlock status="empty" title={title} description="" />;
  } else {
    rows = (
      <>
        <List header={t('epidemic.countries')}>
          {lines.slice(0, shown).map((line) => (
            <List.Item
              key={`${line.iso2 ?? ''}-${line.country}`}
              data-testid="epidemic-country"
              description={t('epidemic.details', {
                deaths: number(line.deaths),
                recovered: number(line.recovered),
              })}
              extra={
                <span className="epidemic-row-figures">
                  <strong>{t('epidemic.casesValue', { value: number(line.cases) })}</strong>
                  {line.todayCases !== 0 && (
                    <span className="epidemic-change">{t('epidemic.today', { value: change(line.todayCases) })}</span>
                  )}
                </span>
              }
            >
              <span className="epidemic-name">{line.name}</span>
            </List.Item>
          ))}
        </List>
        {lines.length > shown && (
          <div className="epidemic-more">
            <Button block onClick={() => setShown((count) => count + COUNTRIES_PAGE)}>
              {t('epidemic.more')}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <>
      <div className="epidemic-tools">
        <SearchBar placeholder={t('epidemic.search')} value={keyword} onChange={search} maxLength={40} />
        <Selector
          aria-label={t('epidemic.sortBy')}
          options={EPIDEMIC_SORTS.map((value) => ({ label: t(SORT_LABELS[value]), value }))}
          value={[sort]}
          onChange={(values) => sortBy(values[0])}
        />
      </div>
      {rows}
    </>
  );
}

/**
 * The epidemic page (spec §1; `public/yiqing`, beside the weather page): the world's confirmed cases, deaths,
 * recovered and active with today's changes, and the countries and regions, searchable by name in either language
 * and sorted by cases, deaths or today's new cases. Visitors see it too.
 */
export default function Epidemic() {
  const { t, i18n } = useTranslation();
  const figures = useQuery({
    queryKey: [EPIDEMIC_QUERY],
    queryFn: () => epidemicFigures({ locale: i18n.language }),
    enabled: true,
    // The provider updates its figures every few minutes at most; asking again sooner would show nothing new.
    staleTime: 10 * 60_000,
    retry: false,
  });

  let body;
  if (figures.isPending) {
    body = <DelayedLoading />;
  } else if (figures.isError) {
    body = (
      <ErrorBlock status="disconnected" title={errorText(figures.error, t)} description="">
        <Button color="primary" onClick={() => void figures.refetch()}>
          {t('common.retry')}
        </Button>
      </ErrorBlock>
    );
  } else {
    body = (
      <>
        <WorldTotals figures={figures.data} />
        <CountryList figures={figures.data} />
        <p className="epidemic-source">{t('epidemic.source')}</p>
      </>
    );
  }

  return (
    <div className="page">
      <NavBar title={t('epidemic.title')} />
      {body}
    </div>
  );
}
