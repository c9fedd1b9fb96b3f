import type { KeyObject } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { WalletService } from '../members/wallet.js';
import type { RechargeRecord, WalletStore } from '../store/index.js';
import {
  alipayAmount,
  alipayPrivateKey,
  alipayPublicKey,
  readNotification,
  wapPayUrl,
  type AlipayConfig,
} from './alipay.js';

/** Bounds of payments (docs/limits.md). */
export const PAYMENT_LIMITS = {
  /** An Alipay payment closes this long after it is asked, paid or not. */
  alipayTimeoutMinutes: 30,
} as const;

/** Where Alipay posts its notifications, under the product API's base (PAY-2). */
export const ALIPAY_NOTIFY_PATH = 'pay/alipay/notify';

/** Why a recharge failed when Alipay closed its payment unpaid. */
export const ALIPAY_CLOSED_REASON = 'the Alipay payment was closed unpaid';

/** The wallet's payment providers: the URL that pays a recharge, and the providers' notifications. */
export interface PaymentService {
  /** PAY-1: the URL that pays `record` with its method, when that provider is set up; undefined otherwise. */
  payUrl(record: RechargeRecord): string | undefined;
  /**
   * PAY-2: a notification Alipay posted. `success` (what Alipay wants back, or it posts again) once it is handled or
   * needs nothing; `failure` when it is not Alipay's, or names no Alipay recharge of ours, or another amount.
   */
  alipayNotified(fields: Readonly<Record<string, string>>): Promise<'success' | 'failure'>;
}

/** What {@link createPaymentService} needs. */
export interface PaymentDeps {
  /** Alipay's application; undefined: Alipay is not set up, and recharges by it wait for the operator's report. */
  alipay: AlipayConfig | undefined;
  wallet: WalletService;
  recharges: Pick<WalletStore, 'find'>;
  /** The server's public base URL, without a trailing slash. */
  publicUrl: () => string;
  /** The product API's base path (`/index.php/api/`). */
  apiBase: string;
  now: () => number;
  logger: Logger;
}

/** Creates the payment service. @throws when Alipay's keys cannot be read */
export function createPaymentService(deps: PaymentDeps): PaymentService {
  const { alipay, logger } = deps;
  const keys: { merchant: KeyObject; alipay: KeyObject } | undefined = alipay && {
    merchant: alipayPrivateKey(alipay.privateKey),
    alipay: alipayPublicKey(alipay.alipayPublicKey),
  };

  return {
    payUrl(record) {
      if (record.method !== 'alipay' || !alipay || !keys || record.status !== 'unpaid') return undefined;
      const base = deps.publicUrl();
      return wapPayUrl(alipay, keys.merchant, {
        outTradeNo: record.id,
        amountFen: record.amount,
        subject: '钱包充值',
        notifyUrl: `${base}${deps.apiBase}${ALIPAY_NOTIFY_PATH}`,
        returnUrl: `${base}/h5/#/member/recharge-records`,
        timeoutMinutes: PAYMENT_LIMITS.alipayTimeoutMinutes,
        now: deps.now(),
      });
    },

    async alipayNotified(fields) {
      if (!alipay || !keys) return 'failure';
      const outcome = readNotification(alipay, keys.alipay, fields);
      if (!outcome) {
        logger.warn({ outTradeNo: fields['out_trade_no'] }, 'an Alipay notification failed its check; ignored');
        return 'failure';
      }
      if (outcome.kind === 'waiting') return 'success';
      const record = await deps.recharges.find(outcome.outTradeNo);
      if (!record || record.method !== 'alipay') {
        logger.warn({ outTradeNo: outcome.outTradeNo }, 'an Alipay notification names no Alipay recharge');
        return 'failure';
      }
      if (outcome.kind === 'closed') {
        if (record.status === 'unpaid') {
          await deps.wallet.review(record.id, { paid: false, reason: ALIPAY_CLOSED_REASON, reference: undefined });
        }
        return 'success';
      }
      if (outcome.amount !== alipayAmount(record.amount)) {
        logger.error(
          { outTradeNo: record.id, paid: outcome.amount, asked: alipayAmount(record.amount) },
          'an Alipay payment is not the amount of its recharge; not credited',
        );
        return 'failure';
      }
      // Paid once: a notification posted again (Alipay does, until it hears success) credits nothing more.
      if (record.status === 'success') return 'success';
      const settled = await deps.wallet.review(record.id, {
        paid: true,
        reason: undefined,
        reference: outcome.tradeNo || undefined,
      });
      if (settled.ok) return 'success';
      // Settled meanwhile by another notification: success if it was paid.
      const now = await deps.recharges.find(record.id);
      if (now?.status === 'success') return 'success';
      logger.error({ outTradeNo: record.id, status: now?.status }, 'an Alipay payment names a recharge that failed');
      return 'failure';
    },
  };
}
