import { useQuery } from '@tanstack/react-query';
import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { CartEntry } from '../../features/shop/CartEntry';
import { ProductGrid } from '../../features/shop/ProductGrid';
import { PRODUCTS_QUERY, categories } from '../../features/shop/products';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';
import '../../features/content/articles.css';
import { AdBanner } from '../../features/ads/AdBanner';

const ALL = 'all';

/**
 * Tab: pages/shop/index, the shop (spec §1 "shop (mall)"): products on sale, newest first, all or of one
 * classification; the cart with its count, and "My shop", the seller's home.
 */
export default function ShopPage() {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const title = useTabTitle('shop');
  const [active, setActive] = useState(ALL);
  const kinds = useQuery({
    queryKey: [PRODUCTS_QUERY, 'categories'],
    queryFn: () => categories({ locale: i18n.language }),
    enabled: true,
  }).data;
  const current = kinds?.some((kind) => kind.id === active) ? active : ALL;
  return (
    <div className="page">
      <NavBar
        title={title}
        back={false}
        right={
          <span className="shop-tab-entries">
            <CartEntry />
            <button type="button" className="feedback-mine" onClick={() => open('shop/business-index')}>
              {t('mine.shop')}
            </button>
          </span>
        }
      />
      <AdBanner position="shop" />
      {kinds !== undefined && kinds.length > 0 && (
        <div className="front-channels">
          <Tabs activeKey={current} onChange={setActive} stretch={false} className="front-tabs">
            <Tabs.Tab key={ALL} title={t('product.all')} />
            {kinds.map((kind) => (
              <Tabs.Tab key={kind.id} title={kind.name} />
            ))}
          </Tabs>
        </div>
      )}
      <ProductGrid key={current} {...(current !== ALL && { typeid: current })} empty={t('product.none')} />
    </div>
  );
}
