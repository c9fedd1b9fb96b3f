import { apiPost, type CallContext } from '../api/request';

/** The user kept under localStorage `user` (spec §3). */
export interface StoredUser {
  token: string;
  id: string;
  username: string;
  img: string;
  shiming?: number;
  phone?: string;
  member_notify_badge?: number;
  /** Customer-service teams the user is an agent of (from login and `member/info`). */
  cs_teams?: { id: string; name: string }[];
  /** The rest of the profile (spec §3); empty while unset. */
  gender?: Gender;
  birthday?: string;
  region?: string;
  qianming?: string;
  background?: string;
  /** How many members they follow, how many follow them, and the likes their articles and posts received. */
  follows?: number;
  fans?: number;
  likes?: number;
}

/** A member's gender as the profile shows it; `hidden` keeps it private. */
export type Gender = 'male' | 'female' | 'hidden';

/** Sends a login code to a phone number. */
export async function sendCode(params: { phone: string; quhao: string }, context: CallContext): Promise<void> {
  await apiPost('member/send_code', params, context, { loading: true });
}

/** Logs in with a code; the otp lets the app connect to messaging as this user. */
export async function login(
  params: { phone: string; code: string; agree: boolean; quhao: string; invite?: string },
  context: CallContext,
): Promise<{ user: StoredUser; otp: string | null }> {
  const answer = await apiPost<{ ret: StoredUser; otp: string | null }>('member/login', params, context, {
    loading: true,
  });
  return { user: answer.ret, otp: answer.otp };
}

/** The signed-in user's info and a fresh messaging otp; rejects with the server's refusal when the session is over. */
export async function memberInfo(
  context: CallContext,
): Promise<{ user: Omit<StoredUser, 'token'>; otp: string | null }> {
  const answer = await apiPost<{ ret: Omit<StoredUser, 'token'>; otp: string | null }>('member/info', {}, context);
  return { user: answer.ret, otp: answer.otp };
}

/** Another member's public profile, as `member/profile` answers it. */
export interface PublicProfile {
  id: string;
  username: string;
  img: string;
  gender?: Gender;
  region?: string;
  qianming?: string;
  background?: string;
  /** Whether the signed-in member has blocked them. */
  blocked?: boolean;
  /** Whether the signed-in member follows them. */
  followed?: boolean;
  /** 1 once their real-name certification passed (spec §3), else 0. */
  shiming?: number;
  /** How many members they follow, how many follow them, and the likes their articles and posts received. */
  follows?: number;
  fans?: number;
  likes?: number;
}

/** Another member's public profile, their follow counts, and whether the signed-in member blocked or follows them. */
export async function memberProfile(id: string, context: CallContext): Promise<PublicProfile> {
  return (await apiPost<{ ret: PublicProfile }>('member/profile', { id }, context)).ret;
}

/** Ends the session on the server; the app clears its own state whatever the answer. */
export async function logout(context: CallContext): Promise<void> {
  await apiPost('member/logout', {}, context).catch(() => undefined);
}

/**
 * Cancels the signed-in member's account (spec §5: a reason and agreement to the cancellation agreement); rejects
 * with the server's refusal. The caller then signs out without keeping a copy of the user.
 */
export async function cancelAccount(reason: string, context: CallContext): Promise<void> {
  await apiPost('member/out', { reason, agree: true }, context, { loading: true });
}
