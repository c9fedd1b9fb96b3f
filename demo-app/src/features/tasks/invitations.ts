import { apiPost, type CallContext } from '../api/request';

/** The invitation page's data as `renwu/yaoqing_info` answers it. */
export interface InvitationInfo {
  /** The member's invitation code. */
  code: string;
  invited: number;
  /** Coins the member's invitations paid. */
  coins: number;
  /** Each sign-up pays `coins`, for at most `daily_max` in 24 hours. */
  rules: { coins: number; daily_max: number };
}

/** A member invited, as `renwu/yaoqing_list` answers: empty name and avatar once their account is cancelled. */
export interface InvitedFriend {
  id: string;
  username: string;
  img: string;
  /** 0 when the daily limit was reached. */
  coins: number;
  created_at: number;
}

export async function invitationInfo(context: CallContext): Promise<InvitationInfo> {
  return (await apiPost<{ ret: InvitationInfo }>('renwu/yaoqing_info', {}, context)).ret;
}

/** A page of the members the member invited, newest first; `before` is the id of the last one shown. */
export async function invitedPage(before: string | undefined, context: CallContext): Promise<InvitedFriend[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: InvitedFriend[] }>('renwu/yaoqing_list', body, context)).ret;
}

/** The link a friend signs up with: this app's login page with the code, on whatever host serves the app. */
export function invitationLink(
  code: string,
  location: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  return `${location.origin}${location.pathname}#/user/login?invite=${encodeURIComponent(code)}`;
}
