import type { MarkedProduct, ProductList, ProductRecord } from '../../store/index.js';
import { viewerOf } from './articles.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';
import { yuanOf } from './wallet.js';
import { PRODUCT_LIMITS, type ProductInput } from '../../shop/products.js';

/** A product as lists show it: no details. */
function productCard(record: ProductRecord) {
  return {
    id: record.id,
    shop_id: record.shopId,
    typeid: record.categoryId,
    title: record.title,
    price: yuanOf(record.price),
    stock: record.stock,
    images: record.images,
    status: record.status,
    reason: record.reason,
    created_at: record.createdAt,
  };
}

/**
 * The shop's products (spec §2 shop: index, view, business-add, business-list):
 * - `shop/typeid` answers `{ret: [{id, name, fresh}]}`, the classifications in the operator's order; `fresh` marks
 *   food and fresh items (their orders' damage refund is claimed within 24 hours).
 * - `shop/list` (`typeid?`, `shop?`: a shop's id, `keyword?`: those whose title holds it, as `article/list` finds
 *   articles, `before?`; `token` optional) answers `{ret: [product]}`: on sale,
 *   newest first, twenty at a time, none of a member a block stands between with the viewer.
 * - `shop/view` (`id`; `token` optional) answers `{ret: product with content and collected, shop: {id, name,
 *   icon}}`: on sale, or the viewer's own; `product_missing` otherwise. A member's look enters their browsing
 *   history, unless the product is their own.
 * - `shop/shoucang` (`token`, `id`, `shoucang`: true to keep as a favourite, false to let go) answers `{ret:
 *   {collected}}`; at most 500 (`favourite_limit`).
 * - `shop/shoucang_list` and `shop/history` (`token`, `before?`) answer the member's favourites and browsing history
 *   (the latest 100 looks), `{ret: [product with marked_at]}`, the latest first, twenty at a time, whatever each
 *   product's status now; `shop/shoucang_del` and `shop/history_del` (`token`, `ids?`: 1 to 100 products, or all
 *   without) take products out: `{ret: {removed}}`.
 * - `shop/business_add` (`token`, `imgs` 1 to 9 images the seller uploaded, `title`, `price` in yuan, `typeid`,
 *   `stock`, `content`) adds a product to the seller's open shop, to be reviewed: `{ret: product}`.
 * - `shop/business_list` (`token`, `status?`, `before?`) answers the seller's products, newest first.
 * - `shop/business_shelf` (`token`, `id`, `on`) puts one on the shelf or takes it off: `{ret: product}`.
 *
 * A product is `{id, shop_id, typeid, title, price (yuan), stock, images, status (pending, on_sale, rejected,
 * off_shelf, banned), reason, created_at}`.
 */
export function shopProductRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('shop/typeid', async () => {
    const categories = await deps.products.categories();
    return { ret: categories.map(({ id, name, fresh }) => ({ id, name, fresh })) };
  });

  post('shop/list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.products.onSale(viewerId, {
      category: body['typeid'],
      shopId: body['shop'],
      keyword: body['keyword'],
      before: body['before'],
    });
    return result.ok ? { ret: result.value.map(productCard) } : refuse(result.failure);
  });

  post('shop/view', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.products.view(viewerId, body['id']);
    if (!result.ok) return refuse(result.failure);
    const product = result.value;
    const shop = await deps.shops.open(product.shopId);
    let collected = false;
    if (viewerId !== undefined) {
      await deps.products.looked(viewerId, product);
      collected = (await deps.products.kept(viewerId, [product.id])).has(product.id);
    }
    return {
      ret: { ...productCard(product), content: product.content, collected },
      shop: shop ? { id: shop.id, name: shop.name, icon: shop.icon } : null,
    };
  });

  post('shop/shoucang', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.products.keep(me.value.id, body['id'], body['shoucang']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  /** A product of a member's list, with when it entered it. */
  const marked = (record: MarkedProduct) => ({ ...productCard(record), marked_at: record.markedAt });
  for (const [list, path, del] of [
    ['favourite', 'shop/shoucang_list', 'shop/shoucang_del'],
    ['history', 'shop/history', 'shop/history_del'],
  ] as const satisfies readonly (readonly [ProductList, string, string])[]) {
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await deps.products.marks(me.value.id, list, body['before']);
      return result.ok ? { ret: result.value.map(marked) } : refuse(result.failure);
    });
    post(del, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await deps.products.unmark(me.value.id, list, body['ids']);
      return result.ok ? { ret: { removed: result.value } } : refuse(result.failure);
    });
  }

  /** The product a seller sends to add or change, its images checked as their own uploads. */
  const productInput = async (memberId: string, body: Record<string, unknown>): Promise<ProductInput> => ({
    images: await ownImages(deps, memberId, body['imgs'] ?? [], PRODUCT_LIMITS.imagesMax),
    title: body['title'],
    price: body['price'],
    category: body['typeid'],
    stock: body['stock'],
    content: body['content'],
  });

  post('shop/business_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.products.add(me.value.id, await productInput(me.value.id, body));
    return result.ok ? { ret: productCard(result.value) } : refuse(result.failure);
  });

  post('shop/business_edit', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.products.edit(me.value.id, body['id'], await productInput(me.value.id, body));
    return result.ok ? { ret: productCard(result.value) } : refuse(result.failure);
  });

  post('shop/business_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.products.mine(me.value.id, body['status'], body['before']);
    return result.ok ? { ret: result.value.map(productCard) } : refuse(result.failure);
  });

  post('shop/business_shelf', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.products.shelve(me.value.id, body['id'], body['on']);
    return result.ok ? { ret: productCard(result.value) } : refuse(result.failure);
  });
}
