import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../features/api/config';
import { NavBar } from '../ui/NavBar';

/** A tab page whose feed is not built yet: the navigation bar with the tab's label and a translated notice. */
export function TabPage({ tab, body }: { tab: 'front' | 'video' | 'shop' | 'circle'; body: string }) {
  const { t } = useTranslation();
  const appShow = useAppConfig().data?.app_show ?? true;
  const label = appShow ? tab : tab === 'front' ? 'latest' : tab === 'video' ? 'hot' : tab;
  return (
    <div className="page">
      <NavBar title={t(`tab.${label}`)} back={false} />
      <ErrorBlock status="empty" title={body} description={t('common.comingSoonBody')} />
    </div>
  );
}
