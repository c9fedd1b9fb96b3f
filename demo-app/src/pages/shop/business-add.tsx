import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { ProductForm } from '../../features/shop/ProductForm';
import {
  EMPTY_PRODUCT_FIELDS,
  PRODUCTS_QUERY,
  addProduct,
  editProduct,
  productFields,
  productView,
  productViewKey,
  type ProductDraft,
  type ProductPage,
  type ProductStatus,
} from '../../features/shop/products';
import { NavBar } from '../../ui/NavBar';
import { toast } from '../../ui/toast';
import '../member/feedback.css';

/** Where the seller goes once a product is saved: their products, in place of the form. */
const PRODUCTS_PATH = '/shop/business-list';

/** A new product: added, it is to be reviewed and the seller's list opens. */
function NewProduct() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (!user) return null;

  const add = async (draft: ProductDraft) => {
    await addProduct(draft, { token: user.token, locale: i18n.language });
    toast(t('product.added'));
    await queryClient.invalidateQueries({ queryKey: [PRODUCTS_QUERY] });
    void navigate(PRODUCTS_PATH, { replace: true });
  };

  return (
    <div className="page">
      <NavBar title={t('shop.addProduct')} />
      <ProductForm initial={EMPTY_PRODUCT_FIELDS} submit={t('product.submit')} onSubmit={add} />
    </div>
  );
}

/** What the form says of review before a product in `status` is saved, if anything. */
function reviewNote(status: Exclude<ProductStatus, 'banned'>, t: TFunction): string | undefined {
  switch (status) {
    case 'on_sale':
    case 'off_shelf':
      return t('product.editNote');
    case 'rejected':
      return t('product.resubmitNote');
    case 'pending':
      return undefined;
  }
}

/**
 * The seller's product `page`, filled in as it stands: saved, a toast says whether it went back to review, and the
 * seller's list opens. A prohibited product cannot be edited.
 */
function ProductEditor({ page }: { page: ProductPage }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { product } = page;
  if (!user) return null;
  if (product.status === 'banned') {
    return <ErrorBlock status="default" title={t('product.bannedNoEdit')} description="" />;
  }

  const save = async (draft: ProductDraft) => {
    const saved = await editProduct(product.id, draft, { token: user.token, locale: i18n.language });
    toast(
      saved.status === 'pending' && product.status !== 'pending' ? t('product.savedForReview') : t('product.saved'),
    );
    // The seller's list, the product's page, the cart's lines and the lists on sale all show it.
    await queryClient.invalidateQueries({ queryKey: [PRODUCTS_QUERY] });
    void navigate(PRODUCTS_PATH, { replace: true });
  };

  return (
    <ProductForm
      initial={productFields(product)}
      submit={t('product.save')}
      note={reviewNote(product.status, t)}
      onSubmit={save}
    />
  );
}

/** The seller's product `id`, read as it stands (shop/view shows the seller their own in any status). */
function EditProduct({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const query = useQuery({
    queryKey: productViewKey(id, user?.id),
    queryFn: () => productView(id, { token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('product.editTitle')} />
      <QueryView query={query}>{(page) => <ProductEditor page={page} />}</QueryView>
    </div>
  );
}

/**
 * Add a product (spec §2 shop/business-add, §5 "Adding a product needs images, title, price, classification, stock and
 * details"), or with param id edit the seller's own: each field checked before sending, in that order. A change of
 * title, images, details or classification, or any edit of a rejected product, sends it back to review; price and
 * stock alone leave it as it was.
 */
export default function AddProduct() {
  const [params] = useSearchParams();
  const id = params.get('id');
  return id === null ? <NewProduct /> : <EditProduct id={id} />;
}
