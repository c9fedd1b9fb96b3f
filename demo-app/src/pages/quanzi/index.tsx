import { useTranslation } from 'react-i18next';
import { TabPage } from '../TabPage';

/** Tab: pages/quanzi/index. */
export default function Page() {
  const { t } = useTranslation();
  return <TabPage tab="circle" body={t('pages.quanzi')} />;
}
