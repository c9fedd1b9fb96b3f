import { useQuery } from '@tanstack/react-query';
import { Button, ErrorBlock, Grid, List, SearchBar } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../../app/navigation';
import { errorText } from '../../features/api/errors';
import { ApiError } from '../../features/api/request';
import { HOT_CITIES, hotCity } from '../../features/weather/hot-cities';
import { chooseCity, cityAt, locate, recentCities, searchCities, type City } from '../../features/weather/weather';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './weather.css';

/** How long typing pauses before a search is sent (spec §9 throttle and debounce default). */
const SEARCH_DELAY_MS = 500;

/** A place's line: its name, then its province and country. */
const where = (city: City) => [city.admin, city.country].filter(Boolean).join(', ');

/**
 * The city chooser (spec §1, §2 public/city: a city list with a search box): where the device is, the cities chosen
 * before, the popular ones at one tap, and places found by name. Choosing one keeps it for the weather page and goes
 * back.
 */
export default function CityChooser() {
  const { t, i18n } = useTranslation();
  const close = useClosePage();
  const context = { locale: i18n.language };
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const found = useQuery({
    queryKey: ['city-search', keyword, i18n.language],
    queryFn: () => searchCities(keyword, context),
    enabled: keyword !== '',
    staleTime: 3_600_000,
    retry: false,
  });
  const [recent] = useState(recentCities);

  const choose = (city: City) => {
    chooseCity(city);
    close();
  };
  const here = async () => {
    try {
      const at = await locate();
      choose((await cityAt(at, context)) ?? { name: t('weather.here'), ...at });
    } catch (error) {
      toastError(error instanceof ApiError ? errorText(error, t) : t('weather.locateFailed'));
    }
  };

  const line = (city: City, index: number) => (
    <List.Item key={`${city.name}-${index}`} description={where(city) || undefined} onClick={() => choose(city)}>
      {city.name}
    </List.Item>
  );

  let results = null;
  if (keyword !== '') {
    if (found.isPending) results = <DelayedLoading />;
    else if (found.isError)
      results = <ErrorBlock status="disconnected" title={errorText(found.error, t)} description="" />;
    else if (found.data.length === 0) results = <ErrorBlock status="empty" title={t('city.none')} description="" />;
    else results = <List header={t('city.results')}>{found.data.map(line)}</List>;
  }

  return (
    <div className="page">
      <NavBar title={t('city.title')} />
      <div className="city-search">
        <SearchBar placeholder={t('city.search')} value={typed} onChange={setTyped} maxLength={40} />
      </div>
      {results ?? (
        <>
          <List>
            <List.Item onClick={() => void here()}>{t('weather.locate')}</List.Item>
          </List>
          {recent.length > 0 && <List header={t('city.recent')}>{recent.map(line)}</List>}
          <List header={t('city.hotTitle')}>
            <List.Item>
              <Grid columns={4} gap={8} className="city-hot">
                {HOT_CITIES.map((city) => (
                  <Grid.Item key={city.key}>
                    <Button block size="small" onClick={() => choose(hotCity(city, t))}>
                      {t(`city.hot_${city.key}`)}
                    </Button>
                  </Grid.Item>
                ))}
              </Grid>
            </List.Item>
          </List>
        </>
      )}
    </div>
  );
}
