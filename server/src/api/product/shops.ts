import type { ShopRecord } from '../../store/index.js';
import { viewerOf } from './articles.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** A shop as its member sees it: its application and where the review stands. */
function shopObject(record: ShopRecord) {
  return {
    id: record.id,
    name: record.name,
    icon: record.icon,
    intro: record.intro,
    status: record.status,
    reason: record.reason,
    submitted_at: record.submittedAt,
    reviewed_at: record.reviewedAt ?? null,
  };
}

/**
 * The small-shop application (spec §2 shop/user-add, business-index), both needing the member's `token`:
 * - `shop/apply_info` answers `{ret: {certified, shop, unread_announcements}}`: whether the member's real-name
 *   certification has passed, their shop, or null before any application, and how many of the operator's
 *   announcements to sellers they have not read (0 until their shop is open).
 * - `shop/apply` (`name`, `icon`: an image the member uploaded, `intro`) answers `{ret: shop}`, under review until
 *   the operator approves it or rejects it with a reason; a rejected one is resubmitted the same way.
 *
 * - `shop/shop` (`id`; `token` optional) answers `{ret: {id, name, icon, intro, opened_at}}`: an open shop's page,
 *   `shop_missing` for one not open or of a member a block stands between with the viewer.
 *
 * A shop is `{id, name, icon, intro, status (pending, rejected, approved), reason, submitted_at, reviewed_at}`.
 */
export function shopRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('shop/apply_info', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const [certified, shop, unread] = await Promise.all([
      deps.certifications.certified(me.value.id),
      deps.shops.mine(me.value.id),
      deps.announcements.unread(me.value.id),
    ]);
    return { ret: { certified, shop: shop ? shopObject(shop) : null, unread_announcements: unread } };
  });

  post('shop/shop', async (body) => {
    const result = await deps.shops.visit(await viewerOf(deps, body), body['id']);
    if (!result.ok) return refuse(result.failure);
    const { id, name, icon, intro, reviewedAt } = result.value;
    return { ret: { id, name, icon, intro, opened_at: reviewedAt ?? null } };
  });

  post('shop/apply', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const icon =
      typeof body['icon'] === 'string' ? (await ownImages(deps, me.value.id, [body['icon']], 1))?.[0] : undefined;
    const result = await deps.shops.apply(me.value.id, { name: body['name'], icon, intro: body['intro'] });
    return result.ok ? { ret: shopObject(result.value) } : refuse(result.failure);
  });
}
