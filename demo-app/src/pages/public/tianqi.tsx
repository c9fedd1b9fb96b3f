import { useQuery } from '@tanstack/react-query';
import { Button, ErrorBlock, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { errorText } from '../../features/api/errors';
import { ApiError } from '../../features/api/request';
import {
  WEATHER_QUERY,
  chooseCity,
  chosenCity,
  cityAt,
  forecast,
  locate,
  weatherKey,
  type City,
} from '../../features/weather/weather';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import '../member/feedback.css';
import './weather.css';

/** A forecast's day as the list shows it: Today, else the weekday and the date, in the app's language. */
function dayLabel(date: string, index: number, locale: string, today: string): string {
  if (index === 0) return today;
  // The date is the place's own: read it at noon UTC and show it in UTC, so that no time zone moves it a day.
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    month: 'numeric',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/**
 * The weather page (spec §1, §2 public/tianqi, §9: 15 days): the weather now and the next fifteen days of the city
 * chosen, or of where the device is (`index/city` names it). The city opens the city chooser (public/city).
 */
export default function Weather() {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const [city, setCity] = useState<City | undefined>(chosenCity);
  const context = { locale: i18n.language };
  const weather = useQuery({
    queryKey: [WEATHER_QUERY, city?.latitude, city?.longitude],
    queryFn: () => forecast(city as City, context),
    enabled: city !== undefined,
    staleTime: 10 * 60_000,
    retry: false,
  });

  const here = async () => {
    try {
      const at = await locate();
      const found = (await cityAt(at, context)) ?? { name: t('weather.here'), ...at };
      chooseCity(found);
      setCity(found);
    } catch (error) {
      toastError(error instanceof ApiError ? errorText(error, t) : t('weather.locateFailed'));
    }
  };

  let body;
  if (!city) {
    body = (
      <div className="weather-empty">
        <ErrorBlock status="empty" title={t('weather.noCity')} description="" />
        <Button color="primary" block onClick={() => void here()}>
          {t('weather.locate')}
        </Button>
        <Button block onClick={() => open('public/city')}>
          {t('weather.choose')}
        </Button>
      </div>
    );
  } else if (weather.isPending) {
    body = <DelayedLoading />;
  } else if (weather.isError) {
    body = (
      <ErrorBlock status="disconnected" title={errorText(weather.error, t)} description="">
        <Button color="primary" onClick={() => void weather.refetch()}>
          {t('common.retry')}
        </Button>
      </ErrorBlock>
    );
  } else {
    const { current, days } = weather.data;
    body = (
      <>
        <section className="weather-now" aria-label={t('weather.now')}>
          <span className="weather-temperature">{Math.round(current.temperature)}°</span>
          <span className="weather-words">{t(weatherKey(current.code))}</span>
          <span className="weather-details">
            {current.humidity !== null && t('weather.humidity', { value: Math.round(current.humidity) })}
            {current.humidity !== null && current.wind !== null && ' · '}
            {current.wind !== null && t('weather.wind', { value: Math.round(current.wind) })}
          </span>
        </section>
        <List header={t('weather.days', { count: days.length })}>
          {days.map((day, index) => (
            <List.Item
              key={day.date}
              data-testid="weather-day"
              description={day.rain !== null ? t('weather.rain', { value: day.rain }) : undefined}
              extra={`${Math.round(day.min)}° / ${Math.round(day.max)}°`}
            >
              {dayLabel(day.date, index, i18n.language, t('weather.today'))} · {t(weatherKey(day.code))}
            </List.Item>
          ))}
        </List>
      </>
    );
  }

  return (
    <div className="page">
      <NavBar
        title={t('weather.title')}
        right={
          city && (
            <button type="button" className="feedback-mine" onClick={() => open('public/city')}>
              {t('weather.change')}
            </button>
          )
        }
      />
      {city && (
        <h2 className="weather-city">
          <button type="button" onClick={() => open('public/city')}>
            {city.name}
          </button>
        </h2>
      )}
      {body}
    </div>
  );
}
