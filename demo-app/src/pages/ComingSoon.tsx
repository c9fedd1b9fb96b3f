import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../ui/NavBar';

/** Shown for a route of the spec whose page is not built yet, so that no route is ever blank. */
export function ComingSoon({ path }: { path: string }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <NavBar title={t('common.comingSoon')} />
      <ErrorBlock status="empty" title={t('common.comingSoon')} description={t('common.comingSoonBody')} />
      <p className="route-name">{path}</p>
    </div>
  );
}
