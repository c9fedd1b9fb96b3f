import { apiPost, type CallContext } from '../api/request';
import type { StoredUser } from './api';

/** A code to show: the QR code carries `ticket`; `key` stays on this device, for its polls. */
export interface QrCode {
  ticket: string;
  key: string;
  expires_at: number;
}

/** Where a shown code stands, as `member/qr_login_status` answers. */
export type QrLoginStatus =
  | { status: 'waiting'; expires_at: number }
  | { status: 'scanned'; expires_at: number; user: { username: string; img: string } }
  | { status: 'cancelled' }
  | { status: 'expired' }
  | { status: 'confirmed'; user: StoredUser };

/** A poll's answer: once confirmed, the otp that connects this device to messaging comes along. */
export interface QrPoll {
  state: QrLoginStatus;
  otp: string | null;
}

/** The device that asks to sign in, as the phone is shown it before it confirms. */
export interface QrLoginRequest {
  device: string;
  address: string;
  created_at: number;
  expires_at: number;
}

/** How often the device asks whether its code was scanned and confirmed. */
export const QR_POLL_MS = 2_000;

/** Whether a code's sign-in is over: this device signed in, or it needs a new code. */
export const isSettled = (state: QrLoginStatus | undefined) =>
  state?.status === 'confirmed' || state?.status === 'expired' || state?.status === 'cancelled';

/** The page a phone opens from the code: the app's own `user/scan-login`, on this same site. */
export function qrLoginLink(ticket: string, where: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${where.origin}${where.pathname}#/user/scan-login?${new URLSearchParams({ ticket }).toString()}`;
}

/** Asks for a new code for this device, which is not signed in. */
export async function createQrCode(context: CallContext): Promise<QrCode> {
  // The user and privacy agreements, ticked on the login page before a code is asked for (spec §5).
  return (await apiPost<{ ret: QrCode }>('member/qr_login', { agree: true }, context)).ret;
}

/** Where this device's code stands. */
export async function pollQrCode(code: Pick<QrCode, 'ticket' | 'key'>, context: CallContext): Promise<QrPoll> {
  const answer = await apiPost<{ ret: QrLoginStatus; otp?: string | null }>(
    'member/qr_login_status',
    { ticket: code.ticket, key: code.key },
    context,
  );
  return { state: answer.ret, otp: answer.otp ?? null };
}

/** The signed-in phone opened a code: which device asks to sign in. */
export async function scanQrCode(ticket: string, context: CallContext): Promise<QrLoginRequest> {
  return (await apiPost<{ ret: QrLoginRequest }>('member/qr_login_scan', { ticket }, context)).ret;
}

/** The phone confirms the sign-in (`true`) or turns it down. */
export async function settleQrCode(ticket: string, confirm: boolean, context: CallContext): Promise<void> {
  await apiPost(confirm ? 'member/qr_login_confirm' : 'member/qr_login_cancel', { ticket }, context, {
    loading: true,
  });
}
