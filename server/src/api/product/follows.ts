import type { FollowedMember } from '../../members/follows.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** One line of a follow list: who, as they show now, since when, and whether the reader follows them. */
function followedObject({ id, member, createdAt, followed }: FollowedMember) {
  const open = member && member.cancelledAt === undefined ? member : undefined;
  return {
    id,
    username: open?.username ?? '',
    img: open?.img ?? '',
    qianming: open?.intro ?? '',
    created_at: createdAt,
    followed,
  };
}

/**
 * `member/guanzhu/uid_s/{id}` (spec §2 member/guanzhu): follows member `id`, or stops, by `follow` (true or false) or,
 * left out, toggling; answers `{ret: {followed, fans}}`, `fans` being how many follow `id` now.
 * `member/guanzhu_list` (`type`: `follows`, the default, or `fans`; `id?`: whose, the member's own by default;
 * `before?`: the id of the last one shown) answers `{ret: [{id, username, img, qianming, created_at, followed}]}`,
 * newest first, twenty at a time, `followed` telling whether the asking member follows that one. `member/user_list`
 * (`keyword?`: part of a nickname, or an id; `before?`) finds members in the same shape, `created_at` being when
 * they joined (spec §2 user/user_list). All need the member's `token`.
 */
export function followRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/guanzhu/uid_s/:id', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { id } = request.params as { id?: string };
    const result = await deps.follows.set(me.value.id, id, body['follow']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  post('member/guanzhu_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.follows.list(me.value.id, body['id'], body['type'], body['before']);
    return result.ok ? { ret: result.value.map(followedObject) } : refuse(result.failure);
  });

  post('member/user_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.follows.find(me.value.id, body['keyword'], body['before']);
    return result.ok ? { ret: result.value.map(followedObject) } : refuse(result.failure);
  });
}
