import type { TFunction } from 'i18next';
import type { City } from './weather';

/** A city the chooser offers at one tap: the key of its name (`city.hot_<key>`) and where it is. */
export interface HotCity {
  key: string;
  latitude: number;
  longitude: number;
}

/**
 * The cities most people look up, offered before any search (spec §2 public/city, a city list with a search box), as
 * weather apps do: the four largest first, then the other large cities of the mainland.
 */
export const HOT_CITIES: readonly HotCity[] = [
  { key: 'beijing', latitude: 39.9042, longitude: 116.4074 },
  { key: 'shanghai', latitude: 31.2304, longitude: 121.4737 },
  { key: 'guangzhou', latitude: 23.1291, longitude: 113.2644 },
  { key: 'shenzhen', latitude: 22.5431, longitude: 114.0579 },
  { key: 'hangzhou', latitude: 30.2741, longitude: 120.1551 },
  { key: 'chengdu', latitude: 30.5728, longitude: 104.0668 },
  { key: 'chongqing', latitude: 29.563, longitude: 106.5516 },
  { key: 'wuhan', latitude: 30.5928, longitude: 114.3055 },
  { key: 'xian', latitude: 34.3416, longitude: 108.9398 },
  { key: 'nanjing', latitude: 32.0603, longitude: 118.7969 },
  { key: 'tianjin', latitude: 39.3434, longitude: 117.3616 },
  { key: 'suzhou', latitude: 31.2989, longitude: 120.5853 },
  { key: 'changsha', latitude: 28.2282, longitude: 112.9388 },
  { key: 'zhengzhou', latitude: 34.7466, longitude: 113.6254 },
  { key: 'qingdao', latitude: 36.0671, longitude: 120.3826 },
  { key: 'xiamen', latitude: 24.4798, longitude: 118.0894 },
];

/** A hot city as the weather page keeps a place: named in the app's language, in China. */
export function hotCity(city: HotCity, t: TFunction): City {
  return {
    name: t(`city.hot_${city.key}`),
    country: t('city.china'),
    latitude: city.latitude,
    longitude: city.longitude,
  };
}
