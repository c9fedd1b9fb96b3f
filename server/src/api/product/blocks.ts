import type { BlockedMember } from '../../members/blocks.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** One line of the block list: who, as they show now, and since when. A cancelled member shows no name. */
function blockedObject({ id, member, createdAt }: BlockedMember) {
  const open = member && member.cancelledAt === undefined ? member : undefined;
  return { id, username: open?.username ?? '', img: open?.img ?? '', created_at: createdAt };
}

/**
 * `member/lahei/uid_s/{id}` (spec §7): blocks member `id`, or unblocks them, by `block` (true or false) or, left out,
 * toggling; answers `{ret: {blocked}}`. `member/lahei_list` (`before?`: the id of the last one shown) answers
 * `{ret: [{id, username, img, created_at}]}`, newest first, twenty at a time. Both need the member's `token`.
 */
export function blockRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/lahei/uid_s/:id', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { id } = request.params as { id?: string };
    const result = await deps.blocks.set(me.value.id, id, body['block']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  post('member/lahei_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.blocks.list(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(blockedObject) } : refuse(result.failure);
  });
}
