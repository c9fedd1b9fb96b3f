import { useQuery } from '@tanstack/react-query';
import { List, Swiper, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { PRODUCTS_QUERY, productView, type ProductPage } from '../../features/shop/products';
import { yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import '../../features/shop/products.css';

/** The product: its images, price, title and stock, the shop that sells it, and the details. */
function Product({ page }: { page: ProductPage }) {
  const { t } = useTranslation();
  const { product, shop } = page;
  return (
    <>
      <Swiper className="product-gallery" indicatorProps={{ color: 'white' }}>
        {product.images.map((url, index) => (
          <Swiper.Item key={url}>
            <img src={url} alt={t('product.image', { n: index + 1 })} />
          </Swiper.Item>
        ))}
      </Swiper>
      <section className="product-head">
        <span className="product-price" data-testid="price">
          {yuan(product.price)}
        </span>
        <h1>{product.title}</h1>
        <span className="muted">
          {product.stock > 0 ? t('product.stock', { count: product.stock }) : t('product.soldOut')}
        </span>
        {product.status !== 'on_sale' && (
          <Tag color="warning">
            {t(`product.status_${product.status}`)}
            {product.reason && `: ${product.reason}`}
          </Tag>
        )}
      </section>
      {shop && (
        <List>
          <List.Item prefix={<img className="product-thumb" src={shop.icon} alt="" />}>{shop.name}</List.Item>
        </List>
      )}
      <List header={t('product.details')}>
        <p className="product-content">{product.content}</p>
      </List>
    </>
  );
}

/** A product's page (spec §2 shop/view, param id): on sale, or the seller's own in any state. */
export default function ProductView() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: [PRODUCTS_QUERY, 'view', id, user?.id],
    queryFn: () => productView(id, { token: user?.token, locale: i18n.language }),
    enabled: true,
    retry: false,
  });
  return (
    <div className="page">
      <NavBar title={t('product.title')} />
      <QueryView query={query}>{(page) => <Product page={page} />}</QueryView>
    </div>
  );
}
