import { randomBytes } from 'node:crypto';
import type { PayoutAccounts, PayoutMethod, ShopStore, WithdrawalRecord, WithdrawalStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import { payoutTo, WITHDRAWAL_LIMITS } from '../members/withdrawals.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of seller withdrawal (docs/limits.md). */
export const SHOP_WITHDRAWAL_LIMITS = {
  /** Whole yuan at a time, from... */
  minYuan: 1,
  /** ...to (the refusal's text says so: keep it in step). */
  maxYuan: 50_000,
  /** A page of the seller's withdrawals. */
  pageSize: WITHDRAWAL_LIMITS.pageSize,
} as const;

/** A seller's money as the withdrawal page shows it, in fen. */
export interface ShopWithdrawalInfo {
  accounts: PayoutAccounts;
  balance: number;
  /** Sales income not yet withdrawn, at most the balance (see {@link WithdrawalStore.income}). */
  withdrawable: number;
}

/**
 * Seller withdrawal (spec §2 shop/business-tixian; §5 "amount must be an integer; ... the withdrawal agreement must
 * be agreed first"; §6 a shop owner needs an approved shop): the seller asks for whole yuan of their sales income to
 * the account bound for coin withdrawal; the yuan leave the money wallet at once, and the operator's withdrawal
 * queue pays them out or rejects the withdrawal, which returns them. Recharged money is not withdrawable: only sales
 * income not yet withdrawn, less the late-delivery compensation and the upheld guarantee claims charged (a seller's
 * balance may so fall below zero, and nothing is withdrawable until it is above again), and never more than the
 * balance. An order's proceeds are income only once it settled (spec §9 "No-reason return: 7 days": its return window
 * passed with no refund under way or claim pending, or a refund left the rest), so nothing withdrawn can still be
 * refunded. No HTTP here.
 */
export interface ShopWithdrawalService {
  /** What is bound, the balance and what is withdrawable; `shop_not_open` without an approved shop. */
  info(memberId: string): Promise<MemberResult<ShopWithdrawalInfo>>;
  /**
   * Asks to withdraw `amount` yuan to the bound account of `type`: refused without an approved shop, then in spec §5
   * order: without the agreement, when the amount is not a whole number in bounds, the account is not bound, one
   * shop withdrawal is under review already (as coin withdrawal checks), or the income falls short.
   */
  withdraw(
    memberId: string,
    request: { amount: unknown; type: unknown; agree: unknown },
  ): Promise<MemberResult<{ withdrawal: WithdrawalRecord; withdrawable: number }>>;
  /** A page of the seller's shop withdrawals, newest first; `before` is the id of the last one shown. */
  list(memberId: string, before: unknown): Promise<MemberResult<WithdrawalRecord[]>>;
}

/** Creates the seller withdrawal service over the stores. */
export function createShopWithdrawalService(deps: {
  withdrawals: WithdrawalStore;
  shops: ShopStore;
  now: () => number;
  /**
   * Settles the orders time settled (`OrderService.settle`), so that proceeds whose return window just passed are
   * withdrawable at once.
   */
  settleOrders?: () => Promise<void>;
}): ShopWithdrawalService {
  const { withdrawals } = deps;
  const selling = async (memberId: string) => {
    await deps.settleOrders?.();
    return (await deps.shops.byMember(memberId))?.status === 'approved';
  };
  return {
    async info(memberId) {
      if (!(await selling(memberId))) return fail('shop_not_open');
      const [accounts, income] = await Promise.all([withdrawals.accounts(memberId), withdrawals.income(memberId)]);
      return {
        ok: true,
        value: { accounts: accounts ?? { alipayName: '', alipayAccount: '', wechatCode: '', updatedAt: 0 }, ...income },
      };
    },
    async withdraw(memberId, { amount, type, agree }) {
      if (!(await selling(memberId))) return fail('shop_not_open');
      if (agree !== true) return fail('withdraw_agreement_required');
      if (typeof amount !== 'number' || !Number.isInteger(amount)) return fail('withdraw_amount_invalid');
      if (amount < SHOP_WITHDRAWAL_LIMITS.minYuan || amount > SHOP_WITHDRAWAL_LIMITS.maxYuan) {
        return fail('shop_withdraw_amount_range');
      }
      if (type !== 'alipay' && type !== 'wechat') return fail('payout_type_invalid');
      const method: PayoutMethod = type;
      const to = payoutTo(await withdrawals.accounts(memberId), method);
      if (!to) return fail('withdraw_account_missing');
      const record = { id: randomBytes(8).toString('hex'), memberId, amount, method, ...to, createdAt: deps.now() };
      const outcome = await withdrawals.requestShop(record);
      if (outcome === 'income') return fail('income_insufficient');
      if (outcome === 'pending') return fail('withdraw_pending');
      if (outcome === 'missing') return fail('user_missing');
      const { withdrawable } = await withdrawals.income(memberId);
      const withdrawal: WithdrawalRecord = { ...record, source: 'shop', coins: 0, status: 'pending', reason: '' };
      return { ok: true, value: { withdrawal, withdrawable } };
    },
    async list(memberId, before) {
      if (!(await selling(memberId))) return fail('shop_not_open');
      if (!isRowKey(before)) return fail('bad_params');
      const page = await withdrawals.byMember(memberId, {
        source: 'shop',
        before,
        limit: SHOP_WITHDRAWAL_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
  };
}
