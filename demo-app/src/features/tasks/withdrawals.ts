import { apiPost, type CallContext } from '../api/request';

/** Where coins are paid out to. */
export type PayoutType = 'alipay' | 'wechat';

/** The member's bound accounts; empty fields are not bound. */
export interface PayoutAccounts {
  alipay_name: string;
  alipay_account: string;
  /** The URL of the WeChat receipt code image. */
  wechat_code: string;
}

/** The withdrawal page's data as `renwu/tixian_info` answers it. */
export interface WithdrawalInfo {
  accounts: PayoutAccounts;
  coins: number;
  /** Whole yuan from `min` to `max` at a time, at `coins_per_yuan` coins each. */
  rules: { coins_per_yuan: number; min: number; max: number };
}

/** Where a withdrawal's review stands: under review, paid, or rejected with the coins returned. */
export type WithdrawalStatus = 'pending' | 'paid' | 'rejected';

/** One withdrawal as the member lists it: Alipay's account masked. */
export interface Withdrawal {
  id: string;
  amount: number;
  coins: number;
  type: PayoutType;
  account: string;
  status: WithdrawalStatus;
  reason: string;
  created_at: number;
  reviewed_at: number | null;
}

/** What a binding sends: Alipay's holder and account, or the WeChat receipt code's URL. */
export type PayoutBinding = { type: 'alipay'; name: string; account: string } | { type: 'wechat'; img: string };

export async function withdrawalInfo(context: CallContext): Promise<WithdrawalInfo> {
  return (await apiPost<{ ret: WithdrawalInfo }>('renwu/tixian_info', {}, context)).ret;
}

/** Binds an account; resolves with all the bound accounts. */
export async function bindPayout(binding: PayoutBinding, context: CallContext): Promise<PayoutAccounts> {
  return (await apiPost<{ ret: PayoutAccounts }>('renwu/tixian_band', { ...binding }, context, { loading: true })).ret;
}

/** Asks to withdraw `amount` whole yuan to the bound account of `type`, the agreement agreed. */
export async function requestWithdrawal(amount: number, type: PayoutType, context: CallContext): Promise<Withdrawal> {
  const body = { amount, type, agree: true };
  return (await apiPost<{ ret: Withdrawal }>('renwu/tixian', body, context, { loading: true })).ret;
}

/** A page of the member's withdrawals, newest first; `before` is the id of the last one shown. */
export async function withdrawalPage(before: string | undefined, context: CallContext): Promise<Withdrawal[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Withdrawal[] }>('renwu/tixian_list', body, context)).ret;
}

/** Mainland mobile number, or an email address: what an Alipay account is. */
const ALIPAY_ACCOUNT = /^(1[2-9]\d{9}|[^\s@]+@[^\s@]+\.[^\s@]+)$/;

/**
 * What is wrong with an Alipay binding before it is sent, or undefined: the real name (2 to 30 characters, no digits)
 * and the account (a mobile number or an email address). The server checks the same.
 */
export function alipayProblem(name: string, account: string): 'name' | 'account' | undefined {
  const named = name.trim();
  if ([...named].length < 2 || [...named].length > 30 || /\d/.test(named)) return 'name';
  const trimmed = account.trim();
  if (trimmed.length > 100 || !ALIPAY_ACCOUNT.test(trimmed)) return 'account';
  return undefined;
}
