import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import {
  PRODUCTS_QUERY,
  myProductPage,
  shelveProduct,
  type Product,
  type ProductStatus,
} from '../../features/shop/products';
import { yuan } from '../../features/wallet/api';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/shop/products.css';

const STATUS_COLOR: Record<ProductStatus, 'warning' | 'success' | 'danger' | 'default'> = {
  pending: 'warning',
  on_sale: 'success',
  rejected: 'danger',
  off_shelf: 'default',
  banned: 'danger',
};

/**
 * The seller's products (spec §2 shop/business-list): each with its price, stock and state (a rejected or prohibited
 * one with its reason), newest first; one on sale is taken off the shelf, one off it put back.
 */
export default function MyProducts() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [PRODUCTS_QUERY, 'mine', user?.id],
    (before) => myProductPage(before, context),
    user !== null,
  );

  const shelve = async (product: Product, on: boolean) => {
    try {
      await shelveProduct(product.id, on, context);
      toast(on ? t('product.onShelf') : t('product.offShelf'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [PRODUCTS_QUERY] });
  };

  if (!user) return null;
  return (
    <div className="page">
      <NavBar
        title={t('shop.products')}
        right={
          <button type="button" className="feedback-mine" onClick={() => open('shop/business-add')}>
            {t('shop.addProduct')}
          </button>
        }
      />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('product.noneMine')} description="" />}>
        {(items) => (
          <List>
            {items.map((product) => (
              <List.Item
                key={product.id}
                data-testid="my-product"
                prefix={<img className="product-thumb" src={product.images[0]} alt="" />}
                onClick={() => open(`shop/view?id=${encodeURIComponent(product.id)}`)}
                arrow={false}
                description={
                  <>
                    <div>
                      {yuan(product.price)} · {t('product.stock', { count: product.stock })}
                    </div>
                    {product.reason && <div>{t('product.reason', { reason: product.reason })}</div>}
                    {(product.status === 'on_sale' || product.status === 'off_shelf') && (
                      <Button
                        size="mini"
                        fill="outline"
                        onClick={(event) => {
                          event.stopPropagation();
                          void shelve(product, product.status === 'off_shelf');
                        }}
                      >
                        {product.status === 'on_sale' ? t('product.takeOff') : t('product.putOn')}
                      </Button>
                    )}
                  </>
                }
                extra={<Tag color={STATUS_COLOR[product.status]}>{t(`product.status_${product.status}`)}</Tag>}
              >
                {product.title}
              </List.Item>
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
