import { apiPost, type CallContext } from '../api/request';

/** The query key of the block list, which blocking or unblocking anywhere makes stale. */
export const BLOCKS_QUERY = 'member-blocks';

/** One member on the block list, as `member/lahei_list` answers it, newest first. */
export interface BlockedMember {
  id: string;
  /** Empty for a member who has since cancelled their account. */
  username: string;
  img: string;
  created_at: number;
}

/** Blocks (`block` true) or unblocks member `id` (spec §7 `member/lahei/uid_s/{id}`); resolves with the new state. */
export async function setBlocked(id: string, block: boolean, context: CallContext): Promise<boolean> {
  const path = `member/lahei/uid_s/${encodeURIComponent(id)}`;
  return (await apiPost<{ ret: { blocked: boolean } }>(path, { block }, context, { loading: true })).ret.blocked;
}

/** A page of the block list, newest first; `before` is the id of the last one shown. */
export async function blockedPage(before: string | undefined, context: CallContext): Promise<BlockedMember[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: BlockedMember[] }>('member/lahei_list', body, context)).ret;
}
