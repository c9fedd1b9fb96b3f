import { randomBytes } from 'node:crypto';
import type {
  PayoutAccounts,
  PayoutMethod,
  WithdrawalRecord,
  WithdrawalStatus,
  WithdrawalStore,
} from '../store/index.js';
import { lineOf } from './addresses.js';
import { personNameOf } from './identity.js';
import { isRowKey, MAINLAND, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of coin withdrawal (docs/limits.md). */
export const WITHDRAWAL_LIMITS = {
  /** Gold coins a yuan takes. */
  coinsPerYuan: 100,
  /** Whole yuan at a time, from... */
  minYuan: 1,
  /** ...to (the refusal's text says so: keep it in step). */
  maxYuan: 200,
  /** The Alipay holder's real name: 2 to this many characters, no digits. */
  nameMaxLength: 30,
  /** The Alipay account: a mainland mobile number, or an email address of at most this many characters. */
  accountMaxLength: 100,
  /** Why the operator rejected a withdrawal: 1 to this many characters. */
  reasonMaxLength: 100,
  /** A page of the member's withdrawals. */
  pageSize: 20,
  /** A page of the operator's queue. */
  queuePageSize: 50,
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A binding as the product API hands it over: `type` `alipay` with the holder's `name` and the `account`, unchecked;
 * or `wechat` with the receipt `code`, already checked as an image the member uploaded (undefined when it is not).
 */
export interface PayoutBinding {
  type: unknown;
  name?: unknown;
  account?: unknown;
  code?: string | undefined;
}

/** Why the operator's review of a withdrawal was refused. */
export type WithdrawalReviewFailure = 'not_pending' | 'bad_review';

/**
 * Coin withdrawal (spec §2 renwu: tixian_band, tixian, tixian_list; §5 "amount must be an integer; Alipay real name
 * and receiving account required; the WeChat receipt code must be uploaded; the withdrawal agreement must be agreed
 * first"): the member binds where coins are paid to and asks for whole yuan; the coins leave their ledger at once,
 * and the operator pays the money out of band and marks it paid, or rejects it and the coins come back. No HTTP here.
 */
export interface WithdrawalService {
  /** The member's bound accounts; all empty before any. */
  accounts(memberId: string): Promise<PayoutAccounts>;
  /** Binds (or replaces) the member's Alipay account, or their WeChat receipt code. */
  bind(memberId: string, binding: PayoutBinding): Promise<MemberResult<PayoutAccounts>>;
  /**
   * Asks to withdraw `amount` yuan to the bound account of `type`: refused without the agreement, when the amount is
   * not a whole number in bounds, the account is not bound, one is under review already, or the coins fall short.
   */
  withdraw(
    memberId: string,
    request: { amount: unknown; type: unknown; agree: unknown },
  ): Promise<MemberResult<WithdrawalRecord>>;
  /** A page of the member's withdrawals, newest first; `before` is the id of the last one shown. */
  list(memberId: string, before: unknown): Promise<MemberResult<WithdrawalRecord[]>>;
  /**
   * The operator's review: `paid` true once the money is sent, or false with a `reason`, which returns the coins.
   * `not_pending` when the withdrawal is not under review (none, or reviewed already).
   */
  review(
    id: string,
    review: { paid: unknown; reason: unknown },
  ): Promise<{ ok: true; value: WithdrawalRecord } | { ok: false; failure: WithdrawalReviewFailure; message: string }>;
  /** The operator's queue: withdrawals in `status` (default pending), oldest first; `after` the last id seen. */
  queue(
    status: unknown,
    after: unknown,
  ): Promise<{ ok: true; value: WithdrawalRecord[] } | { ok: false; message: string }>;
}

const STATUSES: readonly WithdrawalStatus[] = ['pending', 'paid', 'rejected'];
const NONE: PayoutAccounts = { alipayName: '', alipayAccount: '', wechatCode: '', updatedAt: 0 };

/** The Alipay account as stored: a mainland mobile number or an email address, trimmed; undefined otherwise. */
function alipayAccountOf(value: unknown): string | undefined {
  const account = lineOf(value, WITHDRAWAL_LIMITS.accountMaxLength);
  return account !== undefined && (MAINLAND.test(account) || EMAIL.test(account)) ? account : undefined;
}

/**
 * Where a withdrawal by `method` is paid to, as bound now: the Alipay holder's name and account, or '' and the WeChat
 * receipt code; undefined when that account is not bound.
 */
export function payoutTo(
  bound: PayoutAccounts | undefined,
  method: PayoutMethod,
): { accountName: string; account: string } | undefined {
  if (method === 'alipay') {
    return bound?.alipayAccount ? { accountName: bound.alipayName, account: bound.alipayAccount } : undefined;
  }
  return bound?.wechatCode ? { accountName: '', account: bound.wechatCode } : undefined;
}

/** Creates the withdrawal service over the store. */
export function createWithdrawalService(deps: {
  withdrawals: WithdrawalStore;
  now: () => number;
  /** Told of each review, after it is stored. */
  onReviewed?: (record: WithdrawalRecord) => Promise<void>;
}): WithdrawalService {
  const { withdrawals } = deps;
  return {
    async accounts(memberId) {
      return (await withdrawals.accounts(memberId)) ?? NONE;
    },
    async bind(memberId, binding) {
      if (binding.type === 'alipay') {
        const name = personNameOf(binding.name, WITHDRAWAL_LIMITS.nameMaxLength);
        if (name === undefined) return fail('payout_name_invalid');
        const account = alipayAccountOf(binding.account);
        if (account === undefined) return fail('payout_account_invalid');
        return {
          ok: true,
          value: await withdrawals.bind(memberId, { alipayName: name, alipayAccount: account }, deps.now()),
        };
      }
      if (binding.type === 'wechat') {
        if (binding.code === undefined) return fail('payout_code_invalid');
        return { ok: true, value: await withdrawals.bind(memberId, { wechatCode: binding.code }, deps.now()) };
      }
      return fail('payout_type_invalid');
    },
    async withdraw(memberId, { amount, type, agree }) {
      if (agree !== true) return fail('withdraw_agreement_required');
      if (typeof amount !== 'number' || !Number.isInteger(amount)) return fail('withdraw_amount_invalid');
      if (amount < WITHDRAWAL_LIMITS.minYuan || amount > WITHDRAWAL_LIMITS.maxYuan)
        return fail('withdraw_amount_range');
      if (type !== 'alipay' && type !== 'wechat') return fail('payout_type_invalid');
      const method: PayoutMethod = type;
      const to = payoutTo(await withdrawals.accounts(memberId), method);
      if (!to) return fail('withdraw_account_missing');
      const record = {
        id: randomBytes(8).toString('hex'),
        memberId,
        amount,
        coins: amount * WITHDRAWAL_LIMITS.coinsPerYuan,
        method,
        ...to,
        createdAt: deps.now(),
      };
      const outcome = await withdrawals.request(record);
      if (outcome === 'pending') return fail('withdraw_pending');
      if (outcome === 'coins') return fail('coins_insufficient');
      if (outcome === 'missing') return fail('user_missing');
      return { ok: true, value: { ...record, source: 'coins', status: 'pending', reason: '' } };
    },
    async list(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await withdrawals.byMember(memberId, { before, limit: WITHDRAWAL_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async review(id, { paid, reason }) {
      if (typeof paid !== 'boolean') return { ok: false, failure: 'bad_review', message: 'paid must be boolean.' };
      const why = paid ? '' : lineOf(reason, WITHDRAWAL_LIMITS.reasonMaxLength);
      if (why === undefined) {
        return {
          ok: false,
          failure: 'bad_review',
          message: `reason is required: 1 to ${WITHDRAWAL_LIMITS.reasonMaxLength} characters.`,
        };
      }
      const reviewed =
        isRowKey(id) && id !== undefined
          ? await withdrawals.review(id, { paid, reason: why, now: deps.now() })
          : undefined;
      if (!reviewed) return { ok: false, failure: 'not_pending', message: 'no such withdrawal under review' };
      await deps.onReviewed?.(reviewed);
      return { ok: true, value: reviewed };
    },
    async queue(status, after) {
      const wanted = status ?? 'pending';
      if (!STATUSES.includes(wanted as WithdrawalStatus)) {
        return { ok: false, message: 'status must be pending, paid or rejected.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a withdrawal id listed.' };
      const page = await withdrawals.list({
        status: wanted as WithdrawalStatus,
        after,
        limit: WITHDRAWAL_LIMITS.queuePageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a withdrawal id listed.' };
    },
  };
}
