import { useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Space, Tag } from 'antd-mobile';
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
 * A row's buttons by status: the shelf (`on`: back on it) and the edit, which for a rejected product resubmits it and
 * stands by the reason. A prohibited product has none.
 */
const ACTIONS: Record<ProductStatus, { shelf?: { on: boolean }; edit?: 'product.edit' | 'product.editResubmit' }> = {
  pending: { edit: 'product.edit' },
  on_sale: { shelf: { on: false }, edit: 'product.edit' },
  rejected: { edit: 'product.editResubmit' },
  off_shelf: { shelf: { on: true }, edit: 'product.edit' },
  banned: {},
};

/**
 * A row's description: price and stock, the reason of a rejected or prohibited product, and the buttons of its status
 * (none of which opens the product, as the row does).
 */
function ProductActions({
  product,
  shelve,
}: {
  product: Product;
  shelve: (product: Product, on: boolean) => Promise<void>;
}) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const { shelf, edit } = ACTIONS[product.status];
  const button = (label: string, act: () => void) => (
    <Button
      size="mini"
      fill="outline"
      onClick={(event) => {
        event.stopPropagation();
        act();
      }}
    >
      {label}
    </Button>
  );
  const editButton = edit && button(t(edit), () => open(`shop/business-add?id=${encodeURIComponent(product.id)}`));
  return (
    <>
      <div>
        {yuan(product.price)} · {t('product.stock', { count: product.stock })}
      </div>
      {(product.reason || edit === 'product.editResubmit') && (
        <div className="my-product-reason">
          {product.reason && t('product.reason', { reason: product.reason })}
          {edit === 'product.editResubmit' && editButton}
        </div>
      )}
      {(shelf || edit === 'product.edit') && (
        <Space>
          {shelf && button(shelf.on ? t('product.putOn') : t('product.takeOff'), () => void shelve(product, shelf.on))}
          {edit === 'product.edit' && editButton}
        </Space>
      )}
    </>
  );
}

/**
 * The seller's products (spec §2 shop/business-list): each with its price, stock and state (a rejected or prohibited
 * one with its reason), newest first; one on sale is taken off the shelf, one off it put back; any but a prohibited one
 * is edited, a rejected one resubmitted.
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
                description={<ProductActions product={product} shelve={shelve} />}
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
