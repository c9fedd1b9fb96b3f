import type { ShownNotice } from '../../members/notices.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** A notification as the app shows it: the member who caused it as they show now (null for the operator's). */
function noticeObject({ notice, actor }: ShownNotice) {
  const open = actor && actor.cancelledAt === undefined ? actor : undefined;
  return {
    id: notice.id,
    kind: notice.kind,
    actor: notice.actorId === '' ? null : { id: notice.actorId, username: open?.username ?? '', img: open?.img ?? '' },
    data: notice.data,
    created_at: notice.createdAt,
    read: notice.readAt !== undefined,
  };
}

/**
 * Notifications (spec §2 member/notify, member/sz-notify): `member/notify_list` (`before?`: the id of the last one
 * shown) answers `{ret: [{id, kind, actor, data, created_at, read}]}`, newest first, twenty at a time: `follow` (a new
 * follower, `actor`), `certification` (`data: {status, reason}`, a review of the member's real-name certification),
 * `withdrawal` (`data: {amount, status, reason, source?}`, a coin withdrawal paid or rejected, or with `source` `shop` a
 * seller's), `recharge` (`data: {amount,
 * status, reason}`, a recharge of the wallet paid, `success`, or `failed`), `shop` (`data: {status, reason, title}`, the
 * member's shop application approved or rejected, `title` the shop's name), `product` (`data: {product, status, reason, title}`,
 * a product of theirs put on sale, `on_sale`, `rejected` or `banned`), `order` (`data: {order, status, total, title}`: to
 * its seller when it is `paid` and when it is `completed`, to its buyer when it is `shipped`; `title` the first
 * item's), `refund` (`data: {order, status, amount, title}`: to the seller when it is `pending` or `returned`, to the
 * buyer when it is `refused`, `returning` or `refunded`), `claim` (`data: {order, claim, kind, status, reason, title}`:
 * a guarantee claim filed, `pending`, to the seller; `upheld` or `rejected`, to the buyer and the seller; `reason` the
 * operator's, or null), `invitation` (a member who signed up with the member's code, `actor`, and the coins it paid,
 * `data: {coins}`), `report` (the decision on the member's report, `data: {report, type, status, reason, title}`,
 * `type` what was reported), `profile_reset` (the member's profile reset by an upheld report of them, `data:
 * {reason}`), `content_removed` (the member's article, post or comment removed by an upheld report, `data: {type,
 * title, reason}`, `type` the report's), `announcement` (a new announcement to sellers, `data: {announcement,
 * title}`), `comment` (a comment on the member's article or circle post, `actor`, `data: {subject, id, title, comment,
 * content}`, `subject` being `article` or `quanzi` and `content` the comment's first 50 characters) and `like` (a new
 * like of one, `actor`, `data: {subject, id, title}`). `member/notify_read` (`id?`; all without it) answers `{ret:
 * {unread}}`. `member/notify_settings` (`follow?`, `comment?`, `like?`: whether new followers, comments and likes
 * notify the member) answers `{ret: {follow, comment, like}}`. All need the member's `token`.
 */
export function noticeRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/notify_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.notices.list(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(noticeObject) } : refuse(result.failure);
  });

  post('member/notify_read', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.notices.read(me.value.id, body['id']);
    return result.ok ? { ret: { unread: result.value } } : refuse(result.failure);
  });

  post('member/notify_settings', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.notices.settings(me.value.id, {
      follow: body['follow'],
      comment: body['comment'],
      like: body['like'],
    });
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });
}
