import { useTranslation } from 'react-i18next';
import { TabPage } from '../TabPage';

/** Tab: pages/shop/index. */
export default function Page() {
  const { t } = useTranslation();
  return <TabPage tab="shop" body={t('pages.shop')} />;
}
