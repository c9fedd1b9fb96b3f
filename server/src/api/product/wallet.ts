import type { FastifyInstance } from 'fastify';
import { FEN_PER_YUAN, WALLET_LIMITS } from '../../members/wallet.js';
import { ALIPAY_NOTIFY_PATH, type PaymentService } from '../../payments/service.js';
import type { MoneyLine, RechargeRecord } from '../../store/index.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** Fen as the API gives money: yuan, to two decimals. */
export const yuanOf = (fen: number): number => fen / FEN_PER_YUAN;

/**
 * A recharge as its member lists it; `pay_url` opens its payment with the provider (PAY-1), for one waiting for
 * payment by a provider the server is set up for, else null.
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
    pay_url: payments.payUrl(record) ?? null,
  };
}

/** A line of the member's ledger. */
function lineObject(line: MoneyLine) {
  return { id: line.id, amount: yuanOf(line.amount), kind: line.kind, ref: line.ref, created_at: line.createdAt };
}

/**
 * The money wallet (spec §2 member: money, recharge, money-records, recharge-records), all needing the member's
 * `token`; money is in yuan:
 * - `member/money` answers `{ret: {balance, unpaid, rules: {min, max, max_unpaid}}}`: the balance, what the unpaid
 *   recharges add up to, and the bounds of a recharge.
 * - `member/recharge` (`money` whole yuan, `type` `alipay` or `wechat`, `agree` true: the recharge agreement)
 *   answers `{ret: recharge}`, unpaid until its payment is reported.
 * - `member/recharge_cancel` (`id`) cancels an unpaid recharge: `{ret: recharge}`.
 * - `member/recharge_list` (`before?`) answers `{ret: [recharge]}`, newest first, twenty at a time.
 * - `member/money_list` (`before?`) answers `{ret: [{id, amount, kind, ref, created_at}]}`, the ledger, newest first,
 *   twenty at a time.
 *
 * A recharge is `{id, amount, type, status (unpaid, success, failed, cancelled), reason, created_at, closed_at,
 * pay_url}`.
 */
export function walletRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/money', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { balance, unpaid } = await deps.wallet.balance(me.value.id);
    return {
      ret: {
        balance: yuanOf(balance),
        unpaid: yuanOf(unpaid),
        rules: { min: WALLET_LIMITS.minYuan, max: WALLET_LIMITS.maxYuan, max_unpaid: WALLET_LIMITS.maxUnpaid },
      },
    };
  });

  post('member/recharge', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.wallet.recharge(me.value.id, {
      money: body['money'],
      type: body['type'],
      agree: body['agree'],
    });
    return result.ok ? { ret: rechargeObject(result.value, deps.payments) } : refuse(result.failure);
  });

  post('member/recharge_cancel', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.wallet.cancel(me.value.id, body['id']);
    return result.ok ? { ret: rechargeObject(result.value, deps.payments) } : refuse(result.failure);
  });

  post('member/recharge_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.wallet.recharges(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map((r) => rechargeObject(r, deps.payments)) } : refuse(result.failure);
  });

  post('member/money_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.wallet.lines(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(lineObject) } : refuse(result.failure);
  });
}

/**
 * PAY-2: where Alipay posts the result of a payment (a form, signed with Alipay's key), under the product API's base
 * and without a member's token. Answers the text Alipay reads: `success` once it is handled, else `failure`, after
 * which Alipay posts it again later.
 */
export function paymentNotifyRoutes(app: FastifyInstance, base: string, payments: PaymentService): void {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.post(`${base}${ALIPAY_NOTIFY_PATH}`, async (request, reply) => {
      const body = request.body;
      const fields: Record<string, string> = {};
      if (typeof body === 'object' && body !== null) {
        for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
      }
      const answer = await payments.alipayNotified(fields);
      return reply.code(200).type('text/plain').send(answer);
    });
    done();
  });
}
