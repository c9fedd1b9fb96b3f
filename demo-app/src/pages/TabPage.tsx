import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../features/api/config';
import { NavBar } from '../ui/NavBar';

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

/** A tab page whose feed is not built yet: the navigation bar with the tab's label and a translated notice. */
export function TabPage({ tab, body }: { tab: FeedTab; body: string }) {
  const { t } = useTranslation();
  const title = useTabTitle(tab);
  return (
    <div className="page">
      <NavBar title={title} back={false} />
      <ErrorBlock status="empty" title={body} description={t('common.comingSoonBody')} />
    </div>
  );
}
