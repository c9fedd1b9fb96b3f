import type { ReviewRecord } from '../../store/index.js';
import { membersOf, viewerOf } from './articles.js';
import type { ProductApiDeps } from './index.js';
import { orderObjects, reviewFields, shopsOf } from './orders.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * Reviews of completed orders (spec §2 shop user-ping-add, view-ping, user-ping, business-ping; §3 "Review: quality,
 * service and logistics ratings (1 to 5), text"; §5 "text up to 200 characters; all three ratings required"):
 * - `shop/ping_add` (`token`, `id`: the buyer's completed order, `quality`, `service`, `logistics`: 1 to 5, `content`:
 *   up to 200 characters) answers `{ret: order}` with its review; once per order, within 15 days of its completion
 *   (`review_state`, `review_done`, `review_closed`).
 * - `shop/ping_list` (`token?`, `id`: a product, `before?`) answers `{ret: [review], summary: {count, quality, service,
 *   logistics}}`: the reviews of orders that held the product, newest first, twenty at a time, and the averages to one
 *   decimal; `product_missing` when the viewer cannot see the product.
 * - `shop/user_ping` (`token`, `before?`) answers the member's reviews; `shop/business_ping` (`token`, `before?`,
 *   `replied?`: true or false for those answered or not) the reviews of the member's orders as a seller: `{ret:
 *   [review]}`, newest first, twenty at a time.
 * - `shop/business_ping_reply` (`token`, `id`: a review, `content` 1 to 200 characters) answers `{ret: review}`, once
 *   (`review_replied`).
 *
 * A review is `{id (its order's), order_id, quality, service, logistics, content, reply, replied_at, created_at,
 * member: {id, username, img}, items: [{product_id, title, image}], shop: {id, name, icon} | null}`.
 */
export function reviewRoutes(post: ProductPost, deps: ProductApiDeps): void {
  /** The reviews as objects, each with its buyer and its shop. */
  const objects = async (records: readonly ReviewRecord[]) => {
    const [members, shops] = await Promise.all([
      membersOf(
        deps,
        records.map((record) => record.buyerId),
      ),
      shopsOf(deps, records),
    ]);
    return records.map((record) => ({
      id: record.orderId,
      order_id: record.orderId,
      ...reviewFields(record),
      member: members.get(record.buyerId) ?? { id: record.buyerId, username: '', img: '' },
      items: record.items.map((item) => ({ product_id: item.productId, title: item.title, image: item.image })),
      shop: shops.get(record.shopId) ?? null,
    }));
  };

  post('shop/ping_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.reviews.add(me.value.id, body['id'], {
      quality: body['quality'],
      service: body['service'],
      logistics: body['logistics'],
      content: body['content'],
    });
    if (!result.ok) return refuse(result.failure);
    const [order] = await orderObjects(deps, [result.value], me.value.id);
    return { ret: order };
  });

  post('shop/ping_list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.reviews.ofProduct(viewerId, body['id'], body['before']);
    if (!result.ok) return refuse(result.failure);
    return { ret: await objects(result.value.reviews), summary: result.value.summary };
  });

  for (const [path, side] of [
    ['shop/user_ping', 'buyer'],
    ['shop/business_ping', 'seller'],
  ] as const) {
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await deps.reviews.list(side, me.value.id, body['before'], body['replied']);
      return result.ok ? { ret: await objects(result.value) } : refuse(result.failure);
    });
  }

  post('shop/business_ping_reply', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.reviews.reply(me.value.id, body['id'], body['content']);
    return result.ok ? { ret: (await objects([result.value]))[0] } : refuse(result.failure);
  });
}
