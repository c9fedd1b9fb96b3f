import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../features/api/config';

/** The tabs that have a feed. */
export type FeedTab = 'front' | 'video' | 'shop' | 'circle';

/**
 * A tab's title: its label, except that outside app-show mode the first two read "Latest" and "Hot" (spec §1).
 */
export function useTabTitle(tab: FeedTab): string {
  const { t } = useTranslation();
  const appShow = useAppConfig().data?.app_show ?? true;
  const label = appShow ? tab : tab === 'front' ? 'latest' : tab === 'video' ? 'hot' : tab;
  return t(`tab.${label}`);
}
