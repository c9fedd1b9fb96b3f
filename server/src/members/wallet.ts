import { randomBytes } from 'node:crypto';
import type { MoneyLine, RechargeMethod, RechargeRecord, RechargeStatus, WalletStore } from '../store/index.js';
import { lineOf } from './addresses.js';
import { isRowKey, type MemberFailure, type MemberResult } from './service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of the wallet (docs/limits.md). */
export const WALLET_LIMITS = {
  /** Whole yuan a recharge asks for, from (spec §5, §9)... */
  minYuan: 1,
  /** ...to (the refusal's text says so: keep it in step). */
  maxYuan: 100_000,
  /** Recharges of one member waiting for payment at once; one more is refused until one is paid or cancelled. */
  maxUnpaid: 3,
  /** Why a recharge failed: 1 to this many characters. */
  reasonMaxLength: 100,
  /** The payment provider's reference of a paid recharge: at most this many characters. */
  referenceMaxLength: 64,
  /** A page of the member's recharges or ledger. */
  pageSize: 20,
  /** A page of the operator's queue. */
  queuePageSize: 50,
} as const;

/** Fen in a yuan: the store keeps money in fen, whole numbers, so that sums are exact. */
export const FEN_PER_YUAN = 100;

/** Why the operator's report of a recharge's payment was refused. */
export type RechargeReviewFailure = 'not_pending' | 'bad_review';

/**
 * The money wallet (spec §2 member/money, recharge, money-records, recharge-records; §5 "Recharge: minimum 1 yuan,
 * whole numbers, maximum 100000 yuan; the recharge agreement must be agreed"): a member asks to recharge whole yuan
 * by Alipay or WeChat Pay and the recharge waits for its payment; the payment is taken by the deployment's payment
 * service, which tells the server through the operator's API, and the money then enters the member's ledger. No HTTP
 * here.
 */
export interface WalletService {
  /** The member's balance and what their unpaid recharges add up to, in fen. */
  balance(memberId: string): Promise<{ balance: number; unpaid: number }>;
  /**
   * Asks to recharge `money` yuan by `type`: refused without the agreement, when the money is not a whole number in
   * bounds, the type is not `alipay` or `wechat`, or {@link WALLET_LIMITS.maxUnpaid} recharges wait already.
   */
  recharge(
    memberId: string,
    request: { money: unknown; type: unknown; agree: unknown },
  ): Promise<MemberResult<RechargeRecord>>;
  /** The member's recharge `id` waiting for payment; `recharge_missing` when they have none such. */
  waiting(memberId: string, id: unknown): Promise<MemberResult<RechargeRecord>>;
  /** Cancels the member's unpaid recharge `id`. */
  cancel(memberId: string, id: unknown): Promise<MemberResult<RechargeRecord>>;
  /** A page of the member's recharges, newest first; `before` is the id of the last one shown. */
  recharges(memberId: string, before: unknown): Promise<MemberResult<RechargeRecord[]>>;
  /** A page of the member's ledger, newest first; `before` is the id of the last line shown. */
  lines(memberId: string, before: unknown): Promise<MemberResult<MoneyLine[]>>;
  /**
   * The operator's report of a payment: `paid` true with the provider's `reference` (optional) credits the member,
   * false with a `reason` fails the recharge. `not_pending` when there is nothing to settle (none, settled already).
   */
  review(
    id: string,
    review: { paid: unknown; reason: unknown; reference: unknown },
  ): Promise<{ ok: true; value: RechargeRecord } | { ok: false; failure: RechargeReviewFailure; message: string }>;
  /**
   * PAY-8: a payment that arrived for recharge `id` but cannot be credited as it came (`reason` says why) makes it
   * `abnormal`, for the operator to settle with {@link review}; the member is told. Undefined when it is paid or
   * abnormal already, or there is none.
   */
  flag(id: string, payment: { reason: string; reference: string }): Promise<RechargeRecord | undefined>;
  /** The operator's queue: recharges in `status` (default unpaid), oldest first; `after` the last id seen. */
  queue(
    status: unknown,
    after: unknown,
  ): Promise<{ ok: true; value: RechargeRecord[] } | { ok: false; message: string }>;
}

const STATUSES: readonly RechargeStatus[] = ['unpaid', 'success', 'abnormal', 'failed', 'cancelled'];

/** Creates the wallet service over the store. */
export function createWalletService(deps: {
  wallet: WalletStore;
  now: () => number;
  /** Told of each payment settled or flagged abnormal, after it is stored. */
  onSettled?: (record: RechargeRecord) => Promise<void>;
}): WalletService {
  const { wallet } = deps;
  const badReview = (message: string) => ({ ok: false as const, failure: 'bad_review' as const, message });
  return {
    balance: (memberId) => wallet.balance(memberId),
    async recharge(memberId, { money, type, agree }) {
      if (agree !== true) return fail('recharge_agreement_required');
      if (typeof money !== 'number' || !Number.isInteger(money)) return fail('recharge_amount_invalid');
      if (money < WALLET_LIMITS.minYuan || money > WALLET_LIMITS.maxYuan) return fail('recharge_amount_range');
      if (type !== 'alipay' && type !== 'wechat') return fail('recharge_type_invalid');
      const method: RechargeMethod = type;
      const record = {
        id: randomBytes(8).toString('hex'),
        memberId,
        amount: money * FEN_PER_YUAN,
        method,
        createdAt: deps.now(),
      };
      const outcome = await wallet.recharge(record, WALLET_LIMITS.maxUnpaid);
      if (outcome === 'pending') return fail('recharge_pending');
      if (outcome === 'missing') return fail('user_missing');
      return { ok: true, value: { ...record, status: 'unpaid', reason: '', reference: '', orderCode: '' } };
    },
    async waiting(memberId, id) {
      if (typeof id !== 'string' || !isRowKey(id)) return fail('bad_params');
      const record = await wallet.find(id);
      return record?.memberId === memberId && record.status === 'unpaid'
        ? { ok: true, value: record }
        : fail('recharge_missing');
    },
    async cancel(memberId, id) {
      if (typeof id !== 'string' || !isRowKey(id)) return fail('bad_params');
      const cancelled = await wallet.cancel(memberId, id, deps.now());
      return cancelled ? { ok: true, value: cancelled } : fail('recharge_missing');
    },
    async recharges(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await wallet.recharges(memberId, { before, limit: WALLET_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async lines(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await wallet.lines(memberId, { before, limit: WALLET_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async review(id, { paid, reason, reference }) {
      if (typeof paid !== 'boolean') return badReview('paid must be boolean.');
      const why = paid ? '' : lineOf(reason, WALLET_LIMITS.reasonMaxLength);
      if (why === undefined) return badReview(`reason is required: 1 to ${WALLET_LIMITS.reasonMaxLength} characters.`);
      const ref = !paid || reference === undefined ? '' : lineOf(reference, WALLET_LIMITS.referenceMaxLength);
      if (ref === undefined) {
        return badReview(`reference must be 1 to ${WALLET_LIMITS.referenceMaxLength} characters.`);
      }
      const settled =
        isRowKey(id) && id !== undefined
          ? await wallet.settle(id, { paid, reason: why, reference: ref, now: deps.now() })
          : undefined;
      if (!settled) return { ok: false, failure: 'not_pending', message: 'no such recharge waiting for payment' };
      await deps.onSettled?.(settled);
      return { ok: true, value: settled };
    },
    async flag(id, { reason, reference }) {
      const flagged = await wallet.flag(id, {
        reason: reason.slice(0, WALLET_LIMITS.reasonMaxLength),
        reference: reference.slice(0, WALLET_LIMITS.referenceMaxLength),
        now: deps.now(),
      });
      if (flagged) await deps.onSettled?.(flagged);
      return flagged;
    },
    async queue(status, after) {
      const wanted = status ?? 'unpaid';
      if (!STATUSES.includes(wanted as RechargeStatus)) {
        return { ok: false, message: 'status must be unpaid, success, abnormal, failed or cancelled.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a recharge id listed.' };
      const page = await wallet.list({ status: wanted as RechargeStatus, after, limit: WALLET_LIMITS.queuePageSize });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a recharge id listed.' };
    },
  };
}
