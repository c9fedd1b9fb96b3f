import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { CartEntry } from '../../features/shop/CartEntry';
import { ProductGrid } from '../../features/shop/ProductGrid';
import { PRODUCTS_QUERY, shopFront } from '../../features/shop/products';
import { ShopHead } from '../../features/shop/ShopHead';
import { NavBar } from '../../ui/NavBar';

/**
 * A shop's page (spec §2 shop/shop, param id): an open shop's icon, name and description, and its products on sale,
 * newest first; the cart in the bar. A shop not open, or behind a block, says so.
 */
export default function ShopFrontPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: [PRODUCTS_QUERY, 'shop', id, user?.id],
    queryFn: () => shopFront(id, { token: user?.token, locale: i18n.language }),
    enabled: true,
    retry: false,
  });
  return (
    <div className="page">
      <NavBar title={query.data?.name ?? t('shopFront.title')} right={<CartEntry />} />
      <QueryView query={query}>
        {(shop) => (
          <>
            <ShopHead shop={shop} />
            <ProductGrid shop={shop.id} empty={t('product.none')} />
          </>
        )}
      </QueryView>
    </div>
  );
}
