import { summaryOf } from '../../shop/announcements.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * The operator's announcements to sellers (spec §2 shop/business-gonggao, business-gonggao-view), for a member with
 * an open shop (`shop_not_open` otherwise), both needing the member's `token`:
 * - `shop/gonggao_list` (`before?`: the id of the last one) answers `{ret: [{id, title, summary, pinned, created_at,
 *   updated_at, read}], unread}`: pinned first, then the newest, twenty at a time, `summary` the first 80 characters
 *   of the content on one line, `read` whether the member has opened it, `unread` how many of all they have not.
 * - `shop/gonggao_view` (`id`) answers `{ret: {id, title, content, pinned, created_at, updated_at, read: true}}` and
 *   marks it read for the member; `announcement_missing` when there is none, or it was removed.
 *
 * `shop/apply_info` carries `unread_announcements` for the seller's home.
 */
export function announcementRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('shop/gonggao_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.announcements.page(me.value.id, body['before']);
    if (!result.ok) return refuse(result.failure);
    const { announcements, unread } = result.value;
    return {
      ret: announcements.map((announcement) => ({
        id: announcement.id,
        title: announcement.title,
        summary: summaryOf(announcement.content),
        pinned: announcement.pinned,
        created_at: announcement.createdAt,
        updated_at: announcement.updatedAt,
        read: announcement.read,
      })),
      unread,
    };
  });

  post('shop/gonggao_view', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.announcements.read(me.value.id, body['id']);
    if (!result.ok) return refuse(result.failure);
    const { id, title, content, pinned, createdAt, updatedAt } = result.value;
    return { ret: { id, title, content, pinned, created_at: createdAt, updated_at: updatedAt, read: true } };
  });
}
