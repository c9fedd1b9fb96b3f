import type { FastifyInstance } from 'fastify';
import { FEN_PER_YUAN, WALLET_LIMITS } from '../../members/wallet.js';
import { NOTIFY_PATHS, PAYMENT_LIMITS, type PaymentService } from '../../payments/service.js';
import type { MoneyLine, RechargeRecord } from '../../store/index.js';
import type { ProductApiDeps } from './index.js';
import { acceptForms, refuse, type ProductPost } from './reply.js';

/** Fen as the API gives money: yuan, to two decimals. */
export const yuanOf = (fen: number): number => fen / FEN_PER_YUAN;

/**
 * A recharge as its member lists it; `payable` when it can be paid on its provider's page (PAY-1, PAY-4:
 * `member/recharge_pay` opens it).
 */
function rechargeObject(record: RechargeRecord, payments: PaymentService) {
  return {
    id: record.id,
    amount: yuanOf(record.amount),
    type: record.method,
    status: record.status,
    reason: record.reason,
    created_at: record.createdAt,
    closed_at: record.closedAt ?? null,
    payable: payments.payable(record),
    order_code: record.orderCode,
  };
}

/** A line of the member's ledger. */
function lineObject(line: MoneyLine) {
  return { id: line.id, amount: yuanOf(line.amount), kind: line.kind, ref: line.ref, created_at: line.createdAt };
}

/**
 * The money wallet (spec §2 member: money, recharge, money-records, recharge-records), all needing the member's
 * `token`; money is in yuan:
 * - `member/money` answers `{ret: {balance, unpaid, rules: {min, max, max_unpaid}, providers}}`, after the orders'
 *   steps that time takes (a seller's proceeds, a late delivery's compensation) are taken: the balance, what
 *   the unpaid recharges add up to, the bounds of a recharge, and the providers set up to take a payment on their
 *   page (`alipay`, `wechat`), which can also pay a checkout's orders (`shop/pay_payment`).
 * - `member/recharge` (`money` whole yuan, `type` `alipay` or `wechat`, `agree` true: the recharge agreement)
 *   answers `{ret: recharge}` with `pay_url`, the page that pays it (PAY-1, PAY-4) or null; unpaid until its
 *   payment is reported.
 * - `member/recharge_pay` (`id`) answers `{ret: {pay_url}}` for a payable recharge waiting for payment, or
 *   `recharge_missing`, or `pay_page_unavailable` when its provider gave no page.
 * - `member/recharge_cancel` (`id`) cancels an unpaid recharge: `{ret: recharge}`; one its provider says was paid
 *   (PAY-7) is answered paid instead.
 * - `member/recharge_list` (`before?`) answers `{ret: [recharge]}`, newest first, twenty at a time, after asking the
 *   providers about the page's newest recharges unpaid or cancelled (PAY-7).
 * - `member/money_list` (`before?`) answers `{ret: [{id, amount, kind, ref, created_at}]}`, the ledger, newest first,
 *   twenty at a time.
 *
 * A recharge is `{id, amount, type, status (unpaid, success, abnormal, failed, cancelled), reason, created_at,
 * closed_at, payable, order_code}`; `order_code` names the checkout whose orders it pays once paid, empty for a
 * recharge of the wallet.
 */
export function walletRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/money', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    // What time moved (a seller's proceeds after the return window, a late delivery's compensation) is in first.
    await deps.orders.settle();
    const { balance, unpaid } = await deps.wallet.balance(me.value.id);
    return {
      ret: {
        balance: yuanOf(balance),
        unpaid: yuanOf(unpaid),
        rules: { min: WALLET_LIMITS.minYuan, max: WALLET_LIMITS.maxYuan, max_unpaid: WALLET_LIMITS.maxUnpaid },
        providers: (['alipay', 'wechat'] as const).filter((method) => deps.payments.ready(method)),
      },
    };
  });

  post('member/recharge', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.wallet.recharge(me.value.id, {
      money: body['money'],
      type: body['type'],
      agree: body['agree'],
    });
    if (!result.ok) return refuse(result.failure);
    // The page that pays it, at once, when its provider is set up; without one (or if it gave none), null.
    const payUrl = await deps.payments.payUrl(result.value, { payerIp: request.ip });
    return { ret: { ...rechargeObject(result.value, deps.payments), pay_url: payUrl ?? null } };
  });

  post('member/recharge_pay', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const waiting = await deps.wallet.waiting(me.value.id, body['id']);
    if (!waiting.ok) return refuse(waiting.failure);
    const payUrl = await deps.payments.payUrl(waiting.value, { payerIp: request.ip });
    return payUrl ? { ret: { pay_url: payUrl } } : refuse('pay_page_unavailable');
  });

  post('member/recharge_cancel', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    // PAY-7: paid already, though its notification has not come? Then it is answered paid, not cancelled; closed by
    // its provider, it is answered failed.
    const waiting = await deps.wallet.waiting(me.value.id, body['id']);
    const settled = waiting.ok ? await deps.payments.check(waiting.value, { now: true }) : undefined;
    if (settled) return { ret: rechargeObject(settled, deps.payments) };
    const result = await deps.wallet.cancel(me.value.id, body['id']);
    return result.ok ? { ret: rechargeObject(result.value, deps.payments) } : refuse(result.failure);
  });

  post('member/recharge_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    let result = await deps.wallet.recharges(me.value.id, body['before']);
    if (!result.ok) return refuse(result.failure);
    // PAY-7: the newest recharges that may have been paid without a word from their provider are asked after first.
    const asked = result.value.filter((r) => deps.payments.askable(r));
    const changed = await Promise.all(asked.slice(0, PAYMENT_LIMITS.checkPerList).map((r) => deps.payments.check(r)));
    if (changed.some(Boolean)) result = await deps.wallet.recharges(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map((r) => rechargeObject(r, deps.payments)) } : refuse(result.failure);
  });

  post('member/money_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    await deps.orders.settle();
    const result = await deps.wallet.lines(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(lineObject) } : refuse(result.failure);
  });
}

/**
 * PAY-2, PAY-5: where the payment providers post the results of payments, under the product API's base and without
 * a member's token. Alipay posts a form signed with its key and reads `success` once it is handled, else `failure`;
 * WeChat Pay posts JSON signed in its headers and reads 204 once it is handled, else 400 `{code: 'FAIL'}`. Either
 * posts again later when it is not.
 */
export function paymentNotifyRoutes(app: FastifyInstance, base: string, payments: PaymentService): void {
  void app.register((scope, _options, done) => {
    acceptForms(scope);
    // WeChat Pay signs the body as it sent it: it is kept as text, not parsed.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, String(body));
    });
    scope.post(`${base}${NOTIFY_PATHS.alipay}`, async (request, reply) => {
      const body = request.body;
      const fields: Record<string, string> = {};
      if (typeof body === 'object' && body !== null) {
        for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
      }
      const answer = await payments.alipayNotified(fields);
      return reply.code(200).type('text/plain').send(answer);
    });
    scope.post(`${base}${NOTIFY_PATHS.wechat}`, async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : '';
      };
      const handled = await payments.wechatNotified({
        headers: {
          timestamp: header('wechatpay-timestamp'),
          nonce: header('wechatpay-nonce'),
          signature: header('wechatpay-signature'),
        },
        body: typeof request.body === 'string' ? request.body : '',
      });
      return handled ? reply.code(204).send() : reply.code(400).send({ code: 'FAIL', message: 'not handled' });
    });
    done();
  });
}
