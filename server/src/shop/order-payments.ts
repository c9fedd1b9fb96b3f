import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import { WALLET_LIMITS } from '../members/wallet.js';
import type { PaymentService } from '../payments/service.js';
import type { OrderRecord, OrderStore, RechargeMethod, RechargeRecord, WalletStore } from '../store/index.js';
import { ORDER_LIMITS } from './orders.js';

/** Where paying a checkout by a provider stands, as the page its provider sends the payer back to asks. */
export interface OrderPaymentState {
  /** The checkout's orders as they are now (paid once the payment arrived and was spent on them). */
  orders: OrderRecord[];
  /** The newest recharge that pays them; undefined when they were never paid by a provider. */
  recharge: RechargeRecord | undefined;
}

/**
 * Paying a checkout's orders by Alipay or WeChat Pay (spec §4 "Payment flow: fetch an order code, then pay by balance,
 * by a card/wallet provider, or by in-browser payment"). The payment is a recharge of the orders' total that names
 * their code, paid on its provider's page like any recharge (notifications, asking the provider, abnormal payments:
 * the payment service); once it is paid, its money is spent on the orders at once, as a payment by balance would
 * spend it, with the provider as their payment method. So the money is never anywhere but in the buyer's ledger:
 * should the orders be gone by then (cancelled, expired), the payment stays in the buyer's balance, which the
 * recharge's notice tells them. No HTTP here.
 */
export interface OrderPaymentService {
  /**
   * Starts paying the buyer's checkout `code` by `type` (`alipay` or `wechat`, a provider that is set up: else
   * `payment_unavailable`): every order of it unpaid and not expired (`order_missing`, `order_state` otherwise).
   * Answers the orders and the recharge whose page pays them: the one already waiting for them by the same provider,
   * or a new one (`recharge_pending` when too many of the buyer's recharges wait).
   */
  start(
    buyerId: string,
    code: unknown,
    type: unknown,
  ): Promise<MemberResult<{ orders: OrderRecord[]; recharge: RechargeRecord }>>;
  /**
   * How the buyer's checkout `code` stands; a recharge for it still waiting is asked after at its provider first,
   * for a notification that has not come yet.
   */
  state(buyerId: string, code: unknown): Promise<MemberResult<OrderPaymentState>>;
  /** Told of each recharge settled: a paid one that names a checkout pays its orders. */
  settled(record: RechargeRecord): Promise<void>;
}

/** Creates the service that pays checkouts through recharges. */
export function createOrderPaymentService(deps: {
  orders: Pick<OrderStore, 'byCode' | 'pay'>;
  recharges: Pick<WalletStore, 'recharge' | 'forOrder' | 'find'>;
  payments: Pick<PaymentService, 'ready' | 'check'>;
  now: () => number;
  logger: Logger;
  /** Told of the orders a payment paid, after it is stored. */
  onPaid?: (records: readonly OrderRecord[]) => Promise<void>;
}): OrderPaymentService {
  const { orders, recharges } = deps;
  const missing = { ok: false, failure: 'order_missing' } as const;
  const codeOf = (code: unknown) => (typeof code === 'string' && isRowKey(code) && code !== '' ? code : undefined);
  return {
    async start(buyerId, code, type) {
      if ((type !== 'alipay' && type !== 'wechat') || !deps.payments.ready(type)) {
        return { ok: false, failure: 'payment_unavailable' };
      }
      const method: RechargeMethod = type;
      const checkout = codeOf(code);
      if (checkout === undefined) return missing;
      const placed = await orders.byCode(buyerId, checkout);
      if (placed.length === 0) return missing;
      const now = deps.now();
      // An order past its time to pay is cancelled by the next look at the orders: it cannot be paid for any more.
      const payable = placed.every((o) => o.status === 'unpaid' && now - o.createdAt < ORDER_LIMITS.unpaidMs);
      if (!payable) return { ok: false, failure: 'order_state' };
      const total = placed.reduce((sum, order) => sum + order.total, 0);
      // Asked again (the payer came back without paying), the same page is opened, not a second recharge.
      const waiting = await recharges.forOrder(buyerId, checkout);
      if (waiting?.status === 'unpaid' && waiting.method === method && waiting.amount === total) {
        return { ok: true, value: { orders: placed, recharge: waiting } };
      }
      const record = { id: randomBytes(8).toString('hex'), memberId: buyerId, amount: total, method, createdAt: now };
      const stored = await recharges.recharge({ ...record, orderCode: checkout }, WALLET_LIMITS.maxUnpaid);
      if (stored === 'pending') return { ok: false, failure: 'recharge_pending' };
      if (stored === 'missing') return { ok: false, failure: 'user_missing' };
      const recharge: RechargeRecord = { ...record, status: 'unpaid', reason: '', reference: '', orderCode: checkout };
      return { ok: true, value: { orders: placed, recharge } };
    },

    async state(buyerId, code) {
      const checkout = codeOf(code);
      if (checkout === undefined) return missing;
      let recharge = await recharges.forOrder(buyerId, checkout);
      // The payer is back from the provider's page before its notification: its answer settles it now (PAY-7).
      if (recharge?.status === 'unpaid' && (await deps.payments.check(recharge, { now: true }))) {
        recharge = await recharges.find(recharge.id);
      }
      const placed = await orders.byCode(buyerId, checkout);
      if (placed.length === 0) return missing;
      return { ok: true, value: { orders: placed, recharge } };
    },

    async settled(record) {
      if (record.status !== 'success' || record.orderCode === '') return;
      const paid = await orders.pay(record.memberId, record.orderCode, deps.now(), record.method);
      if (paid.ok) {
        await deps.onPaid?.(paid.value);
        return;
      }
      deps.logger.warn(
        { recharge: record.id, code: record.orderCode, failure: paid.failure },
        "a checkout's payment arrived when its orders could not take it: it stays in the buyer's balance",
      );
    },
  };
}
