import type { TFunction } from 'i18next';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Relative time label (spec §9): under 5 min "just now", then minutes under 1 h, hours under 1 day, days under
 * 30 days, then the date. A time slightly in the future (clock skew) also reads "just now".
 */
export function relativeTime(timestamp: number, now: number, t: TFunction, locale: string): string {
  const ago = now - timestamp;
  if (ago < 5 * MINUTE) return t('im.justNow');
  if (ago < HOUR) return t('im.minutesAgo', { count: Math.floor(ago / MINUTE) });
  if (ago < DAY) return t('im.hoursAgo', { count: Math.floor(ago / HOUR) });
  if (ago < 30 * DAY) return t('im.daysAgo', { count: Math.floor(ago / DAY) });
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(timestamp);
}
