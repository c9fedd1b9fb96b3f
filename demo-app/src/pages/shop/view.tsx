import { useQuery } from '@tanstack/react-query';
import { Button, List, Swiper, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCart } from '../../app/cart';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { SHOP_QUERY, shopInfo } from '../../features/shop/api';
import { CartEntry } from '../../features/shop/CartEntry';
import { FavouriteToggle } from '../../features/shop/FavouriteToggle';
import { paymentTarget } from '../../features/shop/orders';
import { productView, productViewKey, type ProductPage } from '../../features/shop/products';
import { ReviewCard, ReviewMember } from '../../features/shop/ReviewCard';
import { useProductReviews } from '../../features/shop/useProductReviews';
import { ServiceGuarantees } from '../../features/shop/ServiceGuarantees';
import { buyableOf } from '../../features/shop/useProductLines';
import { yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toast } from '../../ui/toast';
import '../../features/shop/orders.css';
import '../../features/shop/products.css';
import '../../features/shop/reviews.css';

/** How many of a product's newest reviews its page shows; the rest are on shop/view-ping. */
const NEWEST_REVIEWS = 2;

/**
 * The bar under a product: the favourite toggle and the cart with its count, **Add to cart** and **Buy now** (payment
 * with this one product). Not for the seller's own product: one not on sale is always theirs, one on sale is when
 * their shop sells it.
 */
function Purchase({ product }: { product: ProductPage['product'] }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const cart = useCart();
  const open = useNavigateTo();
  const mine = useQuery({
    queryKey: [SHOP_QUERY, user?.id],
    queryFn: () => shopInfo({ token: user?.token, locale: i18n.language }),
    enabled: user !== null && product.status === 'on_sale',
    retry: false,
  });
  if (product.status !== 'on_sale') return null;
  // Until the member's shop is known, whether the product is theirs is not.
  if (user !== null && mine.isPending) return null;
  if (mine.data?.shop?.id === product.shop_id) return <p className="muted product-own">{t('cart.own')}</p>;
  const soldOut = buyableOf(product) === 0;
  return (
    <div className="cart-bar product-bar">
      <span className="shop-tab-entries">
        <FavouriteToggle product={product} />
        <CartEntry />
      </span>
      <Button
        fill="outline"
        color="primary"
        disabled={soldOut}
        onClick={() => {
          cart.add(product.id);
          toast(t('cart.added'));
        }}
      >
        {t('cart.add')}
      </Button>
      <Button color="primary" disabled={soldOut} onClick={() => open(paymentTarget([{ id: product.id, num: 1 }]))}>
        {t('cart.buyNow')}
      </Button>
    </div>
  );
}

/**
 * A product's reviews on its page: how many and the quality average, opening them all on shop/view-ping, and the
 * newest two. Nothing until they are read; a failure to read them leaves the row to open the page, which says why.
 */
function ProductReviewsRow({ id }: { id: string }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const { list, summary } = useProductReviews(id);
  if (!summary) return null;
  return (
    <>
      <List>
        <List.Item
          onClick={() => open(`shop/view-ping?id=${encodeURIComponent(id)}`)}
          extra={
            summary.count > 0
              ? t('review.average', { label: t('review.quality'), score: summary.quality.toFixed(1) })
              : t('review.none')
          }
        >
          {t('review.count', { count: summary.count })}
        </List.Item>
      </List>
      {list.items.slice(0, NEWEST_REVIEWS).map((review) => (
        <ReviewCard key={review.id} review={review} head={<ReviewMember member={review.member} />} />
      ))}
    </>
  );
}

/**
 * The product: its images, price, title and stock, the shop's service guarantees (spec §9), the shop that sells it,
 * its reviews, and the details.
 */
function Product({ page }: { page: ProductPage }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
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
      <ServiceGuarantees />
      {shop && (
        <List>
          <List.Item
            prefix={<img className="product-thumb" src={shop.icon} alt="" />}
            onClick={() => open(`shop/shop?id=${encodeURIComponent(shop.id)}`)}
          >
            {shop.name}
          </List.Item>
        </List>
      )}
      <ProductReviewsRow id={product.id} />
      <List header={t('product.details')}>
        <p className="product-content">{product.content}</p>
      </List>
      <Purchase product={product} />
    </>
  );
}

/**
 * A product's page (spec §2 shop/view, param id): on sale, or the seller's own in any state, with its reviews' count,
 * quality average and newest two; one on sale by someone else is kept as a favourite (spec §2 shop/shoucang), put in
 * the cart or bought at once. The server adds a member's look to their browsing history (spec §2 shop/history).
 */
export default function ProductView() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: productViewKey(id, user?.id),
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
