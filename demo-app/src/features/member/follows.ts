import { apiPost, type CallContext } from '../api/request';

/** The query key of follow lists, which following or unfollowing anywhere makes stale. */
export const FOLLOWS_QUERY = 'member-follows';

/** Which list: whom a member follows, or who follows them. */
export type FollowListType = 'follows' | 'fans';

/** One member on a follow list, as `member/guanzhu_list` answers it, newest first. */
export interface FollowedMember {
  id: string;
  /** Empty for a member who has since cancelled their account. */
  username: string;
  img: string;
  qianming: string;
  created_at: number;
  /** Whether the signed-in member follows this one. */
  followed: boolean;
}

/**
 * Follows (`follow` true) or unfollows member `id` (`member/guanzhu/uid_s/{id}`); resolves with the new state and
 * how many fans `id` has now.
 */
export async function setFollowed(
  id: string,
  follow: boolean,
  context: CallContext,
): Promise<{ followed: boolean; fans: number }> {
  const path = `member/guanzhu/uid_s/${encodeURIComponent(id)}`;
  return (await apiPost<{ ret: { followed: boolean; fans: number } }>(path, { follow }, context, { loading: true }))
    .ret;
}

/**
 * A page of a follow list, newest first: member `owner`'s (the signed-in member's when undefined) follows or fans;
 * `before` is the id of the last one shown.
 */
export async function followPage(
  params: { type: FollowListType; owner: string | undefined; before: string | undefined },
  context: CallContext,
): Promise<FollowedMember[]> {
  const { type, owner, before } = params;
  const body = { type, ...(owner !== undefined && { id: owner }), ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: FollowedMember[] }>('member/guanzhu_list', body, context)).ret;
}

/**
 * A page of members to find (`member/user_list`): those whose nickname holds `keyword` or whose id it is, or the
 * newest members without one; `before` is the id of the last one shown.
 */
export async function findMembers(
  keyword: string,
  before: string | undefined,
  context: CallContext,
): Promise<FollowedMember[]> {
  const body = { ...(keyword !== '' && { keyword }), ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: FollowedMember[] }>('member/user_list', body, context)).ret;
}
