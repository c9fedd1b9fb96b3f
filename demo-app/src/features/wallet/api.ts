import { apiPost, type CallContext } from '../api/request';

/** The query key of everything the wallet shows; invalidating it refreshes the balance and both lists. */
export const WALLET_QUERY = 'wallet';

/** How a recharge is paid. */
export type RechargeType = 'alipay' | 'wechat';

/**
 * Where a recharge stands (spec §4 payment): waiting for its payment, paid, abnormal (a payment came that the server
 * could not credit by itself, checked by the operator), failed with a reason, or cancelled by the member.
 */
export type RechargeStatus = 'unpaid' | 'success' | 'abnormal' | 'failed' | 'cancelled';

/** The wallet as `member/money` answers it; money in yuan. */
export interface Wallet {
  balance: number;
  /** What the member's recharges waiting for payment add up to. */
  unpaid: number;
  /** A recharge is whole yuan from `min` to `max`; at most `max_unpaid` wait for payment at once. */
  rules: { min: number; max: number; max_unpaid: number };
  /** The providers whose pages take payments now, which can also pay a checkout's orders. */
  providers: RechargeType[];
}

/** One recharge as the member lists it. */
export interface Recharge {
  id: string;
  amount: number;
  type: RechargeType;
  status: RechargeStatus;
  reason: string;
  created_at: number;
  closed_at: number | null;
  /** Whether it can be paid on its provider's page: waiting for payment, by a provider the server is set up for. */
  payable: boolean;
  /** The code of the checkout whose orders it pays once paid; empty for a recharge of the wallet. */
  order_code: string;
}

/** A recharge just made: with the page that pays it when its provider is set up on the server, else null. */
export interface NewRecharge extends Recharge {
  pay_url: string | null;
}

/** One line of the wallet's ledger: money in (positive) or out. */
export interface MoneyLine {
  id: string;
  amount: number;
  /**
   * A recharge paid in, a payment for orders (out), an order sold once it settled (in, to its seller), a refund (in,
   * to the buyer), a shop withdrawal (out) or its money back (in), an order's late-delivery compensation (in, to the
   * buyer), or that compensation charged to the seller (out); an upheld counterfeit claim's compensation (in, to the
   * buyer), or what an upheld claim cost its seller (out).
   */
  kind:
    | 'recharge'
    | 'order'
    | 'sale'
    | 'refund'
    | 'withdraw'
    | 'withdraw_return'
    | 'compensation'
    | 'late_charge'
    | 'claim_compensation'
    | 'claim_charge';
  /** The id of what moved it: the recharge, the code of the orders paid, the order sold or compensated, the refund. */
  ref: string;
  created_at: number;
}

export async function wallet(context: CallContext): Promise<Wallet> {
  return (await apiPost<{ ret: Wallet }>('member/money', {}, context)).ret;
}

/** Asks to recharge `money` whole yuan by `type`, the recharge agreement agreed; it waits for its payment. */
export async function requestRecharge(money: number, type: RechargeType, context: CallContext): Promise<NewRecharge> {
  const body = { money, type, agree: true };
  return (await apiPost<{ ret: NewRecharge }>('member/recharge', body, context, { loading: true })).ret;
}

/** The page that pays a recharge still waiting for payment (`member/recharge_pay`, asked anew each time). */
export async function rechargePayUrl(id: string, context: CallContext): Promise<string> {
  return (await apiPost<{ ret: { pay_url: string } }>('member/recharge_pay', { id }, context, { loading: true })).ret
    .pay_url;
}

/** Cancels an unpaid recharge. */
export async function cancelRecharge(id: string, context: CallContext): Promise<Recharge> {
  return (await apiPost<{ ret: Recharge }>('member/recharge_cancel', { id }, context, { loading: true })).ret;
}

/** A page of the member's recharges, newest first; `before` is the id of the last one shown. */
export async function rechargePage(before: string | undefined, context: CallContext): Promise<Recharge[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Recharge[] }>('member/recharge_list', body, context)).ret;
}

/** A page of the wallet's ledger, newest first; `before` is the id of the last line shown. */
export async function moneyPage(before: string | undefined, context: CallContext): Promise<MoneyLine[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: MoneyLine[] }>('member/money_list', body, context)).ret;
}

/** Money as the wallet shows it: yuan to two decimals, with the yuan sign. */
export function yuan(amount: number): string {
  return `¥${amount.toFixed(2)}`;
}

/**
 * What is wrong with a recharge's amount before it is sent, or undefined: whole yuan (spec §5 "whole numbers") from
 * `min` to `max`. The server checks the same.
 */
export function rechargeProblem(
  amount: string,
  rules: Pick<Wallet['rules'], 'min' | 'max'>,
): 'recharge_amount_invalid' | 'recharge_amount_range' | undefined {
  const trimmed = amount.trim();
  if (!/^\d+$/.test(trimmed)) return 'recharge_amount_invalid';
  const value = Number(trimmed);
  return value < rules.min || value > rules.max ? 'recharge_amount_range' : undefined;
}

/** How the app leaves for a payment page: the browser's own navigation (a seam the tests replace). */
export const paymentNavigation = { go: (url: string) => window.location.assign(url) };

/**
 * Goes to a payment page at its provider (Alipay's or WeChat Pay's, which come back to the recharge records, or for a
 * checkout's orders to shop/success); false, staying, for anything but an https address: the link comes from the
 * server, and nothing else may replace the app.
 */
export function goToPayment(payUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(payUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  paymentNavigation.go(url.toString());
  return true;
}
