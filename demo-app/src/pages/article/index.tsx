import { useTranslation } from 'react-i18next';
import { TabPage } from '../TabPage';

/** Tab: pages/article/index. */
export default function Page() {
  const { t } = useTranslation();
  return <TabPage tab="front" body={t('pages.article')} />;
}
