import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../api/paged';
import { PagedList } from '../api/PagedList';
import { useThumbnail } from '../api/thumbnail';
import { yuan } from '../wallet/api';
import { PRODUCTS_QUERY, productPage, type ProductFilter } from './products';
import './products.css';

/**
 * Products on sale as a grid of two columns, newest first, of classification `typeid`, of shop `shop`, titled with
 * `keyword`, or all; each opens its page.
 */
export function ProductGrid({ typeid, shop, keyword, empty }: ProductFilter & { empty: string }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const thumb = useThumbnail();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [PRODUCTS_QUERY, 'on_sale', typeid ?? '', shop ?? '', keyword ?? '', user?.id],
    (before) => productPage({ typeid, shop, keyword }, before, context),
    true,
  );
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={empty} description="" />}>
      {(items) => (
        <ul className="product-grid">
          {items.map((product) => (
            <li key={product.id}>
              <button
                type="button"
                className="product-card"
                data-testid="product"
                onClick={() => open(`shop/view?id=${encodeURIComponent(product.id)}`)}
              >
                <img src={product.images[0] && thumb(product.images[0], 180)} alt="" />
                <span className="product-card-title">{product.title}</span>
                <span className="product-price">{yuan(product.price)}</span>
                {product.stock === 0 && <span className="product-card-out">{t('product.soldOut')}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </PagedList>
  );
}
