import type { KeyObject } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { WalletService } from '../members/wallet.js';
import type { RechargeMethod, RechargeRecord, WalletStore } from '../store/index.js';
import {
  alipayFen,
  alipayPrivateKey,
  alipayPublicKey,
  queryTrade,
  readNotification,
  wapPayUrl,
  type AlipayConfig,
} from './alipay.js';
import { placeH5Order, queryWechatOrder, readWechatNotification, wechatKeys, type WechatPayConfig } from './wechat.js';

/** Bounds of payments (docs/limits.md). */
export const PAYMENT_LIMITS = {
  /** A payment page closes this long after its recharge was made, paid or not. */
  timeoutMinutes: 30,
  /** WeChat Pay has this long to place an order, and either provider to answer a query (PAY-7). */
  wechatTimeoutMs: 5_000,
  /** PAY-7: a recharge's payment is asked after until this long after the recharge was made. */
  checkWithinMs: 24 * 3_600_000,
  /** PAY-7: one recharge's payment is asked after at most once in this long. */
  checkEveryMs: 10_000,
  /** PAY-7: the most recharges one list of a member's recharges asks after. */
  checkPerList: 3,
} as const;

/** Where the providers post their notifications, under the product API's base (PAY-2, PAY-5). */
export const NOTIFY_PATHS = { alipay: 'pay/alipay/notify', wechat: 'pay/wechat/notify' } as const;

/** Why a recharge failed when its provider closed its payment unpaid, by method. */
export const CLOSED_REASONS: Record<RechargeMethod, string> = {
  alipay: 'the Alipay payment was closed unpaid',
  wechat: 'the WeChat Pay payment was closed unpaid',
};

/** Fen as yuan with two decimals, as a reason shows them. */
const yuanText = (fen: number) => (fen / 100).toFixed(2);

/** What a payment page of the member's is asked with. */
export interface PayContext {
  /** The member's address, which WeChat Pay asks for. */
  payerIp: string;
}

/** The wallet's payment providers: the page that pays a recharge, and the providers' notifications. */
export interface PaymentService {
  /** Whether `method`'s provider is set up, so that its page can take a payment. */
  ready(method: RechargeMethod): boolean;
  /** Whether `record` can be paid on its provider's page: waiting for payment, by a provider that is set up. */
  payable(record: RechargeRecord): boolean;
  /**
   * PAY-1, PAY-4: the URL of the page that pays `record` with its provider; undefined when it is not payable, or its
   * provider did not give one.
   */
  payUrl(record: RechargeRecord, context: PayContext): Promise<string | undefined>;
  /**
   * PAY-2: a notification Alipay posted. `success` (what Alipay wants back, or it posts again) once it is handled or
   * needs nothing, or recorded abnormal (PAY-8); `failure` when it is not Alipay's, or names no Alipay recharge of ours.
   */
  alipayNotified(fields: Readonly<Record<string, string>>): Promise<'success' | 'failure'>;
  /**
   * PAY-7: asks the provider of `record` how its payment stands, for a notification that never came (a notify URL
   * the provider cannot reach, a server down longer than the provider retries): a recharge unpaid or cancelled, by a
   * provider that is set up, made within {@link PAYMENT_LIMITS.checkWithinMs}, and (unless `now` is set) not asked
   * after in the last {@link PAYMENT_LIMITS.checkEveryMs}. Settles it as the notification would have, and answers the
   * recharge as it is then when that changed it, else undefined. A provider that does not answer changes nothing.
   */
  check(record: RechargeRecord, options?: { now?: boolean }): Promise<RechargeRecord | undefined>;
  /** PAY-7: whether {@link check} would ask about `record` at all (the time between two asks aside). */
  askable(record: RechargeRecord): boolean;
  /** PAY-5: a notification WeChat Pay posted; true once it is handled or needs nothing (answered 204), else false. */
  wechatNotified(notice: {
    headers: { timestamp: string; nonce: string; signature: string };
    body: string;
  }): Promise<boolean>;
}

/** What {@link createPaymentService} needs. */
export interface PaymentDeps {
  /** Alipay's application; undefined: Alipay is not set up, and recharges by it wait for the operator's report. */
  alipay: AlipayConfig | undefined;
  /** The WeChat Pay merchant; undefined: WeChat Pay is not set up. */
  wechat: WechatPayConfig | undefined;
  wallet: WalletService;
  recharges: Pick<WalletStore, 'find'>;
  /** The server's public base URL, without a trailing slash. */
  publicUrl: () => string;
  /** The product API's base path (`/index.php/api/`). */
  apiBase: string;
  now: () => number;
  logger: Logger;
  /** @default the global fetch */
  fetch?: typeof fetch;
}

/** The subject of a payment, as the payer sees it on the provider's page: a wallet's recharge, or a checkout's. */
const SUBJECT = { wallet: '钱包充值', order: '订单支付' } as const;

/** Creates the payment service. @throws when a provider's keys cannot be read */
export function createPaymentService(deps: PaymentDeps): PaymentService {
  const { alipay, wechat, logger } = deps;
  const alipayKeys: { merchant: KeyObject; alipay: KeyObject } | undefined = alipay && {
    merchant: alipayPrivateKey(alipay.privateKey),
    alipay: alipayPublicKey(alipay.alipayPublicKey),
  };
  const wechatKeyPair = wechat && wechatKeys(wechat);
  const notifyUrl = (method: RechargeMethod) => `${deps.publicUrl()}${deps.apiBase}${NOTIFY_PATHS[method]}`;
  // Back from the provider's page: to the recharge records, or to the checkout's result, which asks how it stands.
  const returnUrl = ({ orderCode }: RechargeRecord) =>
    orderCode === ''
      ? `${deps.publicUrl()}/h5/#/member/recharge-records`
      : `${deps.publicUrl()}/h5/#/shop/success?${new URLSearchParams({ code: orderCode }).toString()}`;
  const subject = ({ orderCode }: RechargeRecord) => (orderCode === '' ? SUBJECT.wallet : SUBJECT.order);

  /** The recharge a notification names, when it is one of ours by `method`; logged otherwise. */
  const rechargeOf = async (method: RechargeMethod, outTradeNo: string) => {
    const record = await deps.recharges.find(outTradeNo);
    if (record?.method === method) return record;
    logger.warn({ method, outTradeNo }, 'a payment notification names no recharge of its provider');
    return undefined;
  };

  /**
   * PAY-8: a payment that cannot be credited as it came makes its recharge `abnormal`, for the operator (logged too).
   * True once it is recorded so, or was: the provider may stop posting it.
   */
  const abnormal = async (record: RechargeRecord, reason: string, reference: string): Promise<boolean> => {
    logger.error({ id: record.id, method: record.method, status: record.status, reason }, 'an abnormal payment');
    if (record.status === 'abnormal') return true;
    if (await deps.wallet.flag(record.id, { reason, reference })) return true;
    const now = await deps.recharges.find(record.id);
    return now?.status === 'abnormal' || now?.status === 'success';
  };

  /**
   * Settles a paid recharge once: credited as the operator's report does; a recharge paid already needs nothing.
   * Another amount, or a payment for a recharge that had failed, makes it abnormal instead (PAY-8).
   */
  const paid = async (record: RechargeRecord, amountFen: number, reference: string): Promise<boolean> => {
    // Paid once: a notification posted again (providers do, until they hear success) credits nothing more.
    if (record.status === 'success') return true;
    if (amountFen !== record.amount) {
      return abnormal(
        record,
        `paid ${yuanText(amountFen)} yuan for a recharge of ${yuanText(record.amount)}`,
        reference,
      );
    }
    if (record.status === 'abnormal') return true;
    const settled = await deps.wallet.review(record.id, {
      paid: true,
      reason: undefined,
      reference: reference || undefined,
    });
    if (settled.ok) return true;
    const now = await deps.recharges.find(record.id);
    if (now?.status === 'success') return true;
    if (now?.status !== 'failed') return false;
    return abnormal(now, 'paid after the recharge had failed', reference);
  };

  /** PAY-7: when each recharge was last asked after, by id. */
  const checkedAt = new Map<string, number>();
  const askedNow = (id: string, now: number) => {
    if (checkedAt.size >= 10_000) {
      for (const [key, at] of checkedAt) if (now - at >= PAYMENT_LIMITS.checkEveryMs) checkedAt.delete(key);
    }
    checkedAt.set(id, now);
  };
  /** What the provider of `record` says of its payment; undefined when it did not answer, or is not set up. */
  const ask = async (record: RechargeRecord, now: number) => {
    const common = { outTradeNo: record.id, nowMs: now, timeoutMs: PAYMENT_LIMITS.wechatTimeoutMs };
    const fetcher = deps.fetch ?? fetch;
    if (record.method === 'alipay' && alipay && alipayKeys) {
      const outcome = await queryTrade({ config: alipay, keys: alipayKeys, ...common, fetch: fetcher });
      return outcome?.kind === 'paid'
        ? { kind: 'paid' as const, fen: alipayFen(outcome.amount), reference: outcome.tradeNo }
        : outcome;
    }
    if (record.method === 'wechat' && wechat && wechatKeyPair) {
      const outcome = await queryWechatOrder({ config: wechat, keys: wechatKeyPair, ...common, fetch: fetcher });
      return outcome?.kind === 'paid'
        ? { kind: 'paid' as const, fen: outcome.totalFen, reference: outcome.transactionId }
        : outcome;
    }
    return undefined;
  };

  /** Fails a recharge whose payment its provider closed unpaid, if it still waits. */
  const closed = async (record: RechargeRecord) => {
    if (record.status !== 'unpaid') return;
    await deps.wallet.review(record.id, { paid: false, reason: CLOSED_REASONS[record.method], reference: undefined });
  };

  return {
    ready(method) {
      return method === 'alipay' ? alipayKeys !== undefined : wechatKeyPair !== undefined;
    },

    payable(record) {
      return record.status === 'unpaid' && this.ready(record.method);
    },

    async payUrl(record, context) {
      if (!this.payable(record)) return undefined;
      const now = deps.now();
      if (record.method === 'alipay' && alipay && alipayKeys) {
        return wapPayUrl(alipay, alipayKeys.merchant, {
          outTradeNo: record.id,
          amountFen: record.amount,
          subject: subject(record),
          notifyUrl: notifyUrl('alipay'),
          returnUrl: returnUrl(record),
          // From the recharge's creation, so that a page asked again closes when the first would have.
          expiresAt: record.createdAt + PAYMENT_LIMITS.timeoutMinutes * 60_000,
          now,
        });
      }
      if (record.method === 'wechat' && wechat && wechatKeyPair) {
        const url = await placeH5Order({
          config: wechat,
          keys: wechatKeyPair,
          order: {
            outTradeNo: record.id,
            amountFen: record.amount,
            description: subject(record),
            notifyUrl: notifyUrl('wechat'),
            payerIp: context.payerIp,
            // From the recharge's creation, so that a page asked again closes when the first would have.
            expiresAt: record.createdAt + PAYMENT_LIMITS.timeoutMinutes * 60_000,
          },
          nowMs: now,
          timeoutMs: PAYMENT_LIMITS.wechatTimeoutMs,
          fetch: deps.fetch ?? fetch,
        });
        if (!url) logger.warn({ id: record.id }, 'WeChat Pay placed no order for a recharge');
        // WeChat Pay's H5 page comes back to where the payer was unless told: the records, as Alipay's does.
        return url && `${url}&redirect_url=${encodeURIComponent(returnUrl(record))}`;
      }
      return undefined;
    },

    askable(record) {
      if (record.status !== 'unpaid' && record.status !== 'cancelled') return false;
      if (deps.now() - record.createdAt > PAYMENT_LIMITS.checkWithinMs) return false;
      return this.ready(record.method);
    },

    async check(record, options) {
      if (!this.askable(record)) return undefined;
      const now = deps.now();
      const last = checkedAt.get(record.id);
      if (!options?.now && last !== undefined && now - last < PAYMENT_LIMITS.checkEveryMs) return undefined;
      askedNow(record.id, now);
      const outcome = await ask(record, now);
      if (!outcome || outcome.kind === 'waiting') return undefined;
      if (outcome.kind === 'closed') {
        if (record.status !== 'unpaid') return undefined;
        await closed(record);
      } else {
        logger.info({ id: record.id, method: record.method }, 'a payment found by asking its provider');
        if (!(await paid(record, outcome.fen, outcome.reference))) return undefined;
      }
      const settled = await deps.recharges.find(record.id);
      return settled && settled.status !== record.status ? settled : undefined;
    },

    async alipayNotified(fields) {
      if (!alipay || !alipayKeys) return 'failure';
      const outcome = readNotification(alipay, alipayKeys.alipay, fields);
      if (!outcome) {
        logger.warn({ outTradeNo: fields['out_trade_no'] }, 'an Alipay notification failed its check; ignored');
        return 'failure';
      }
      if (outcome.kind === 'waiting') return 'success';
      const record = await rechargeOf('alipay', outcome.outTradeNo);
      if (!record) return 'failure';
      if (outcome.kind === 'closed') {
        await closed(record);
        return 'success';
      }
      return (await paid(record, alipayFen(outcome.amount), outcome.tradeNo)) ? 'success' : 'failure';
    },

    async wechatNotified({ headers, body }) {
      if (!wechat || !wechatKeyPair) return false;
      const outcome = readWechatNotification({
        config: wechat,
        platformKey: wechatKeyPair.platform,
        headers,
        body,
        nowMs: deps.now(),
      });
      if (!outcome) {
        logger.warn('a WeChat Pay notification failed its check; ignored');
        return false;
      }
      if (outcome.kind === 'waiting') return true;
      const record = await rechargeOf('wechat', outcome.outTradeNo);
      if (!record) return false;
      if (outcome.kind === 'closed') {
        await closed(record);
        return true;
      }
      return paid(record, outcome.totalFen, outcome.transactionId);
    },
  };
}
