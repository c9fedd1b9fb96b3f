import { apiPost, type CallContext } from '../api/request';

/** The query key of everything about products; invalidating it refreshes the lists and pages. */
export const PRODUCTS_QUERY = 'products';

/** Where a product stands: to be reviewed, on sale, rejected, off the shelf, or prohibited. */
export type ProductStatus = 'pending' | 'on_sale' | 'rejected' | 'off_shelf' | 'banned';

/** A classification of products. */
export interface Category {
  id: string;
  name: string;
}

/** A product as lists show it; the price in yuan. */
export interface Product {
  id: string;
  shop_id: string;
  typeid: string;
  title: string;
  price: number;
  stock: number;
  images: string[];
  status: ProductStatus;
  reason: string;
  created_at: number;
}

/**
 * A product's page: its details, whether the member keeps it as a favourite (`collected`, false for a visitor; spec
 * §2 shop/shoucang), and the shop that sells it.
 */
export interface ProductPage {
  product: Product & { content: string; collected: boolean };
  shop: { id: string; name: string; icon: string } | null;
}

/** What adding or editing a product sends. */
export interface ProductDraft {
  imgs: string[];
  title: string;
  price: number;
  typeid: string;
  stock: number;
  content: string;
}

/** A product's form as the seller fills it in: `price` and `stock` as typed, `typeid` undefined until chosen. */
export interface ProductFields {
  imgs: string[];
  title: string;
  price: string;
  typeid: string | undefined;
  stock: string;
  content: string;
}

/** The form of a product to be added: nothing filled in. */
export const EMPTY_PRODUCT_FIELDS: ProductFields = {
  imgs: [],
  title: '',
  price: '',
  typeid: undefined,
  stock: '',
  content: '',
};

/** The form of the seller's product to be edited, filled in as it stands. */
export function productFields(product: ProductPage['product']): ProductFields {
  return {
    imgs: [...product.images],
    title: product.title,
    price: String(product.price),
    // A product whose classification was removed stands under none: the seller chooses one again.
    typeid: product.typeid === '' ? undefined : product.typeid,
    stock: String(product.stock),
    content: product.content,
  };
}

/** What a form that `productProblem` passed sends. */
export function productDraft(fields: ProductFields & { typeid: string }): ProductDraft {
  return {
    imgs: fields.imgs,
    title: fields.title.trim(),
    price: Number(fields.price.trim()),
    typeid: fields.typeid,
    stock: Number(fields.stock.trim()),
    content: fields.content.trim(),
  };
}

/** Bounds of a product; the server checks the same. */
export const PRODUCT_LIMITS = { imagesMax: 9, titleMax: 60, priceMax: 1_000_000, stockMax: 999_999, contentMax: 5_000 };

export async function categories(context: CallContext): Promise<Category[]> {
  return (await apiPost<{ ret: Category[] }>('shop/typeid', {}, context)).ret;
}

/** Which products on sale a list shows: of classification `typeid`, of shop `shop`, titled with `keyword`, or all. */
export interface ProductFilter {
  typeid?: string | undefined;
  shop?: string | undefined;
  keyword?: string | undefined;
}

/** A page of products on sale, newest first, as `filter` says. */
export async function productPage(
  filter: ProductFilter,
  before: string | undefined,
  context: CallContext,
): Promise<Product[]> {
  const body = {
    ...(filter.typeid !== undefined && { typeid: filter.typeid }),
    ...(filter.shop !== undefined && { shop: filter.shop }),
    ...(filter.keyword !== undefined && { keyword: filter.keyword }),
    ...(before !== undefined && { before }),
  };
  return (await apiPost<{ ret: Product[] }>('shop/list', body, context)).ret;
}

/** An open shop as its page shows it (spec §2 shop/shop). */
export interface ShopFront {
  id: string;
  name: string;
  icon: string;
  intro: string;
  /** When it opened. */
  opened_at: number | null;
}

export async function shopFront(id: string, context: CallContext): Promise<ShopFront> {
  return (await apiPost<{ ret: ShopFront }>('shop/shop', { id }, context)).ret;
}

/**
 * The query key of product `id`'s page as member `memberId` (undefined: a visitor) sees it; the product's page and the
 * cart's lines share it.
 */
export function productViewKey(id: string, memberId: string | undefined): readonly unknown[] {
  return [PRODUCTS_QUERY, 'view', id, memberId];
}

export async function productView(id: string, context: CallContext): Promise<ProductPage> {
  const answer = await apiPost<{ ret: ProductPage['product']; shop: ProductPage['shop'] }>(
    'shop/view',
    { id },
    context,
  );
  return { product: answer.ret, shop: answer.shop };
}

/** Adds a product to the seller's open shop; it is to be reviewed. */
export async function addProduct(draft: ProductDraft, context: CallContext): Promise<Product> {
  return (await apiPost<{ ret: Product }>('shop/business_add', { ...draft }, context, { loading: true })).ret;
}

/**
 * Changes the seller's product `id`, every field sent again: a change of title, images, details or classification,
 * or any change of a rejected product, sends it back to be reviewed (`pending`); price and stock alone leave its status
 * as it was. A prohibited product, or one not theirs, is refused with `product_missing`.
 */
export async function editProduct(id: string, draft: ProductDraft, context: CallContext): Promise<Product> {
  return (await apiPost<{ ret: Product }>('shop/business_edit', { id, ...draft }, context, { loading: true })).ret;
}

/** A page of the seller's own products, newest first. */
export async function myProductPage(before: string | undefined, context: CallContext): Promise<Product[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Product[] }>('shop/business_list', body, context)).ret;
}

/** A page of the seller's own products on sale, newest first. */
export async function myProductsOnSale(before: string | undefined, context: CallContext): Promise<Product[]> {
  const body = { status: 'on_sale', ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: Product[] }>('shop/business_list', body, context)).ret;
}

/** Puts the seller's product back on the shelf (`on`) or takes it off. */
export async function shelveProduct(id: string, on: boolean, context: CallContext): Promise<Product> {
  return (await apiPost<{ ret: Product }>('shop/business_shelf', { id, on }, context, { loading: true })).ret;
}

/**
 * What is wrong with a product before it is sent, in spec §5's order ("images, title, price, classification, stock
 * and details"), or undefined. `price` and `stock` are as typed.
 */
export function productProblem(
  draft: ProductFields,
):
  | 'product_images_invalid'
  | 'product_title_invalid'
  | 'product_price_invalid'
  | 'category_missing'
  | 'product_stock_invalid'
  | 'product_content_invalid'
  | undefined {
  if (draft.imgs.length === 0 || draft.imgs.length > PRODUCT_LIMITS.imagesMax) return 'product_images_invalid';
  const title = [...draft.title.trim()].length;
  if (title < 2 || title > PRODUCT_LIMITS.titleMax) return 'product_title_invalid';
  const price = draft.price.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(price) || Number(price) <= 0 || Number(price) > PRODUCT_LIMITS.priceMax) {
    return 'product_price_invalid';
  }
  if (draft.typeid === undefined) return 'category_missing';
  if (!/^\d+$/.test(draft.stock.trim()) || Number(draft.stock.trim()) > PRODUCT_LIMITS.stockMax) {
    return 'product_stock_invalid';
  }
  const content = [...draft.content.trim()].length;
  if (content < 1 || content > PRODUCT_LIMITS.contentMax) return 'product_content_invalid';
  return undefined;
}
