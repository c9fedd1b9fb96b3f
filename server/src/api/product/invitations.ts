import type { ShownInvitation } from '../../members/invitations.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** An invitation as its inviter lists it: the member invited (empty name and avatar once cancelled), and its coins. */
function invitationObject({ invitation, invitee }: ShownInvitation) {
  return {
    id: invitation.inviteeId,
    username: invitee?.username ?? '',
    img: invitee?.img ?? '',
    coins: invitation.coins,
    created_at: invitation.createdAt,
  };
}

/**
 * Invitations (spec §2 renwu/yaoqing), both needing the member's `token`: `renwu/yaoqing_info` answers `{ret: {code,
 * invited, coins, rules: {coins, daily_max}}}` (the member's invitation code, how many signed up with it and the coins
 * they paid; each pays `coins`, at most `daily_max` in 24 hours); `renwu/yaoqing_list` (`before?`: the id of the last
 * one shown) answers `{ret: [{id, username, img, coins, created_at}]}`, newest first, twenty at a time. A new member
 * is invited by sending the code as `invite` with their first `member/login`.
 */
export function invitationRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('renwu/yaoqing_info', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { code, invited, coins, rules } = await deps.invitations.overview(me.value.id);
    return { ret: { code, invited, coins, rules: { coins: rules.coins, daily_max: rules.dailyMax } } };
  });

  post('renwu/yaoqing_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.invitations.list(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(invitationObject) } : refuse(result.failure);
  });
}
