import { useTranslation } from 'react-i18next';
import { TabPage } from '../TabPage';

/** Tab: pages/video/index. */
export default function Page() {
  const { t } = useTranslation();
  return <TabPage tab="video" body={t('pages.video')} />;
}
