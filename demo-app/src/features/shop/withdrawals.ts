import { apiPost, type CallContext } from '../api/request';
import type { PayoutAccounts, PayoutType, Withdrawal } from '../tasks/withdrawals';

/** The seller withdrawal page's data as `shop/business_tixian_info` answers it; money in yuan. */
export interface ShopWithdrawalInfo {
  /** The accounts bound for withdrawal, the same as coin withdrawal's. */
  accounts: PayoutAccounts;
  balance: number;
  /** Sales income not yet withdrawn, at most the balance. */
  withdrawable: number;
  /** Whole yuan from `min` to `max` at a time. */
  rules: { min: number; max: number };
}

/** The seller's money and bound accounts for withdrawal. */
export async function shopWithdrawalInfo(context: CallContext): Promise<ShopWithdrawalInfo> {
  return (await apiPost<{ ret: ShopWithdrawalInfo }>('shop/business_tixian_info', {}, context)).ret;
}

/** Asks to withdraw `amount` whole yuan of sales income to the bound account of `type`, the agreement agreed. */
export async function requestShopWithdrawal(
  amount: number,
  type: PayoutType,
  context: CallContext,
): Promise<Withdrawal> {
  const body = { amount, type, agree: true };
  return (await apiPost<{ ret: Withdrawal }>('shop/business_tixian', body, context, { loading: true })).ret;
}

/** A page of the seller's shop withdrawals, newest first; `before` is the id of the last one shown. */
export async function shopWithdrawalPage(before: string | undefined, context: CallContext): Promise<Withdrawal[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Withdrawal[] }>('shop/business_tixian_list', body, context)).ret;
}
