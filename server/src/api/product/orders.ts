import { CLAIM_LIMITS, claimOptions } from '../../shop/claims.js';
import { SERVICE_GUARANTEES } from '../../shop/guarantees.js';
import { ORDER_LIMITS } from '../../shop/orders.js';
import { REVIEW_LIMITS } from '../../shop/reviews.js';
import type { ClaimRecord, OrderRecord, OrderReview, RefundRecord } from '../../store/index.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';
import { yuanOf } from './wallet.js';

/** A refund as the order gives it. */
function refundObject(refund: RefundRecord) {
  return {
    id: refund.id,
    amount: yuanOf(refund.amount),
    reason: refund.reason,
    description: refund.description,
    images: refund.images,
    status: refund.status,
    refuse_reason: refund.refuseReason,
    return_logistics: refund.returnLogistics ?? null,
    created_at: refund.createdAt,
    updated_at: refund.updatedAt,
  };
}

/** A guarantee claim as the order gives it. */
function claimObject(claim: ClaimRecord) {
  return {
    id: claim.id,
    kind: claim.kind,
    description: claim.description,
    images: claim.images,
    status: claim.status,
    reason: claim.reason === '' ? null : claim.reason,
    refund: yuanOf(claim.refund),
    compensation: yuanOf(claim.compensation),
    created_at: claim.createdAt,
    decided_at: claim.decidedAt ?? null,
  };
}

/** A review's ratings, words and answer, as the order and the review lists give them. */
export function reviewFields(review: OrderReview) {
  return {
    quality: review.quality,
    service: review.service,
    logistics: review.logistics,
    content: review.content,
    reply: review.reply,
    replied_at: review.repliedAt ?? null,
    created_at: review.createdAt,
  };
}

/**
 * An order as its buyer and its seller see it, member `viewerId` at `now` (what they may claim on it); `shop` is looked
 * up by the caller.
 */
function orderObject(
  record: OrderRecord,
  shop: { id: string; name: string; icon: string } | null,
  viewerId: string,
  now: number,
) {
  const claims = claimOptions(record, viewerId, now);
  return {
    id: record.id,
    code: record.code,
    shop,
    status: record.status,
    pay_method: record.payMethod,
    total: yuanOf(record.total),
    items: record.items.map((item) => ({
      product_id: item.productId,
      title: item.title,
      image: item.image,
      price: yuanOf(item.price),
      num: item.quantity,
    })),
    address: record.address,
    logistics: record.logistics ?? null,
    refund: record.refund ? refundObject(record.refund) : null,
    review: record.review ? reviewFields(record.review) : null,
    review_until:
      record.status === 'completed' && record.completedAt !== undefined
        ? record.completedAt + REVIEW_LIMITS.windowMs
        : null,
    created_at: record.createdAt,
    paid_at: record.paidAt ?? null,
    shipped_at: record.shippedAt ?? null,
    completed_at: record.completedAt ?? null,
    closed_at: record.closedAt ?? null,
    expires_at: record.createdAt + ORDER_LIMITS.unpaidMs,
    ship_by: record.paidAt === undefined ? null : record.paidAt + SERVICE_GUARANTEES.shipWithinMs,
    return_until:
      record.status === 'completed' && record.completedAt !== undefined && record.settledAt === undefined
        ? record.completedAt + SERVICE_GUARANTEES.returnWindowMs
        : null,
    compensation: yuanOf(record.compensation),
    compensated_at: record.compensatedAt ?? null,
    settled_at: record.settledAt ?? null,
    claim: record.claim ? claimObject(record.claim) : null,
    claimable: claims.claimable,
    damage_until: claims.until.damage,
    counterfeit_until: claims.until.counterfeit,
  };
}

/** The shops of `records` as orders and reviews show them (`{id, name, icon}`, null once closed), each looked up once. */
export async function shopsOf(deps: ProductApiDeps, records: readonly { shopId: string }[]) {
  const shops = new Map<string, { id: string; name: string; icon: string } | null>();
  for (const { shopId } of records) {
    if (shops.has(shopId)) continue;
    const shop = await deps.shops.open(shopId);
    shops.set(shopId, shop ? { id: shop.id, name: shop.name, icon: shop.icon } : null);
  }
  return shops;
}

/** The orders as objects to member `viewerId` (their buyer or their seller), each with its shop. */
export async function orderObjects(deps: ProductApiDeps, records: readonly OrderRecord[], viewerId: string) {
  const shops = await shopsOf(deps, records);
  const now = deps.now();
  return records.map((record) => orderObject(record, shops.get(record.shopId) ?? null, viewerId, now));
}

/**
 * The shop's orders (spec §2 shop: payment, success, user-order, user-order-view, business-order, business-send; §4
 * "Payment flow: fetch an order code, then pay by balance, by a card/wallet provider, or by in-browser payment"), all
 * needing the member's `token`; money in yuan:
 * - `shop/code` (`items: [{id, num}]`, 1 to 20 different products, 1 to 99 of each; `address`, an id of the member's
 *   addresses) answers `{ret: code, orders: [order], total}`: one unpaid order per shop, all under `code`, their
 *   stock held for 30 minutes; then they are cancelled by themselves and the stock returns.
 * - `shop/pay_payment` (`code`, `type` `balance`) pays all the code's orders from the wallet: `{ret: {code, type,
 *   paid}, orders: [order]}`; `balance_insufficient` ("insufficient balance") when the balance is short. With `type`
 *   `alipay` or `wechat` (a provider that is set up: `member/money` lists them; `payment_unavailable` otherwise) it
 *   answers `{ret: {code, type, pay_url, recharge}, orders: [order]}`: the provider's page that pays the orders'
 *   total, as a recharge (`recharge`, its id) that is spent on them once paid; the page comes back to shop/success.
 *   `pay_page_unavailable` when the provider gave no page.
 * - `shop/pay_state` (`code`) answers `{ret: {paid, recharge: {id, type, status, reason} | null}, orders: [order]}`:
 *   whether every order of the code is paid, and the newest provider payment of it, asked after at its provider
 *   first while it waits.
 * - `shop/order_list` (`status?`, `before?`) answers the buyer's orders, `shop/business_order` (`status?`, `before?`)
 *   the seller's, `{ret: [order]}`, newest first, twenty at a time.
 * - `shop/order_view` (`id`) answers `{ret: order}` to its buyer or its seller.
 * - `shop/order_cancel` (`id`): the buyer cancels an unpaid order; `shop/order_confirm` (`id`): the buyer confirms
 *   receipt of a shipped one, which completes it (ten days after shipping it completes by itself); its seller is paid
 *   once its 7-day return window passed; `shop/business_send` (`id`, `company`, `number`): the seller ships a paid
 *   one, which gives the buyer the late-delivery compensation when it is more than 48 hours after payment. Each
 *   answers `{ret: order}`, or `order_state` when the order is not in the state for it (`refund_open` while a refund
 *   waits).
 * - Refunds (spec §4 refund flow), each answering `{ret: order}`: `shop/drawback` (`id`, `amount` yuan up to the
 *   total, `reason` 1 to 30 characters, `description` 1 to 100, `imgs` 1 to 3 images the buyer uploaded) on a paid or
 *   shipped order, or a completed one until its `return_until` (`refund_ended` once it ended);
 *   `shop/drawback_cancel` (`id`), the buyer cancels it; `shop/business_drawback` (`id`, `agree`, `return?`,
 *   `reason` when refusing), the seller decides (a completed order only with `return: true`:
 *   `refund_return_required`);
 *   `shop/drawback_send` (`id`, `company`, `number`), the buyer sends the goods back;
 *   `shop/business_drawback_receive` (`id`), the seller received them and the money goes back. A step not in its
 *   state is `refund_state`. Lists take `status: refunding` for orders with a refund under way. `claim_open` while a
 *   claim waits for the operator.
 * - Guarantee claims (spec §9 damage refund and counterfeit compensation), each answering `{ret: order}`:
 *   `shop/claim_add` (`id`, `kind` `damage` or `counterfeit`, `description` 1 to 100 characters, `images` 1 to 3
 *   images the buyer uploaded) on a shipped order, or a completed one while `claimable` says so (`claim_window_passed`
 *   once its time passed); one pending at a time (`claim_open`), none while a refund is under way (`refund_open`), a
 *   kind decided once per order (`claim_decided`); `shop/claim_cancel` (`id`), the buyer cancels the pending one
 *   (`claim_missing` without). The operator decides them (`operator-claims.ts`).
 *
 * An order is `{id, code, shop: {id, name, icon} | null, status (unpaid, paid, shipped, completed, cancelled),
 * pay_method ('' or balance), total, items: [{product_id, title, image, price, num}], address: {name, phone, region,
 * detail}, logistics: {company, number} | null, refund: refund | null, review: {quality, service, logistics, content,
 * reply, replied_at, created_at} | null, review_until, created_at, paid_at, shipped_at, completed_at, closed_at,
 * expires_at, ship_by, return_until, compensation, compensated_at, settled_at, claim, claimable: {damage,
 * counterfeit}, damage_until, counterfeit_until}`, `status` also `refunded`; `ship_by` is
 * when a paid order is due to ship (spec §9 "within 48 hours"), `return_until` when a completed order can no longer
 * be returned (null once settled or not completed), `compensation` the yuan its buyer got for late delivery (0 for
 * none), `settled_at` when its seller was paid; `review_until` is when a completed order can no longer be reviewed (null
 * before it completes); lists take `status: unreviewed` for completed orders not reviewed and still in that time; a refund is `{id, amount, reason, description, images, status
 * (pending, refused, cancelled, returning, returned, refunded), refuse_reason, return_logistics, created_at,
 * updated_at}`. `claim` is the order's latest claim, `{id, kind, description, images, status (pending, upheld,
 * rejected, cancelled), reason (null when none), refund, compensation (yuan, 0 unless upheld), created_at,
 * decided_at}` or null; `claimable` says whether the viewer (its buyer; never its seller) may file each kind now, and
 * `damage_until` and `counterfeit_until` until when (null when not claimable, or while shipped).
 */
export function orderRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('shop/code', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.orders.checkout(me.value.id, body['items'], body['address']);
    if (!result.ok) return refuse(result.failure);
    const total = result.value.reduce((sum, order) => sum + order.total, 0);
    return {
      ret: result.value[0]?.code,
      orders: await orderObjects(deps, result.value, me.value.id),
      total: yuanOf(total),
    };
  });

  post('shop/pay_payment', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    if (body['type'] !== 'balance') {
      const started = await deps.orderPayments.start(me.value.id, body['code'], body['type']);
      if (!started.ok) return refuse(started.failure);
      const { orders, recharge } = started.value;
      const payUrl = await deps.payments.payUrl(recharge, { payerIp: request.ip });
      if (!payUrl) return refuse('pay_page_unavailable');
      return {
        ret: { code: recharge.orderCode, type: recharge.method, pay_url: payUrl, recharge: recharge.id },
        orders: await orderObjects(deps, orders, me.value.id),
      };
    }
    const result = await deps.orders.pay(me.value.id, body['code'], body['type']);
    if (!result.ok) return refuse(result.failure);
    const paid = result.value.reduce((sum, order) => sum + order.total, 0);
    return {
      ret: { code: result.value[0]?.code, type: 'balance', paid: yuanOf(paid) },
      orders: await orderObjects(deps, result.value, me.value.id),
    };
  });

  post('shop/pay_state', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.orderPayments.state(me.value.id, body['code']);
    if (!result.ok) return refuse(result.failure);
    const { orders, recharge } = result.value;
    return {
      ret: {
        paid: orders.every((order) => order.paidAt !== undefined),
        recharge: recharge
          ? { id: recharge.id, type: recharge.method, status: recharge.status, reason: recharge.reason }
          : null,
      },
      orders: await orderObjects(deps, orders, me.value.id),
    };
  });

  for (const [path, side] of [
    ['shop/order_list', 'buyer'],
    ['shop/business_order', 'seller'],
  ] as const) {
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await deps.orders.list(side, me.value.id, body['status'], body['before']);
      return result.ok ? { ret: await orderObjects(deps, result.value, me.value.id) } : refuse(result.failure);
    });
  }

  const single: [string, (memberId: string, body: Record<string, unknown>) => ReturnType<typeof deps.orders.view>][] = [
    ['shop/order_view', (memberId, body) => deps.orders.view(memberId, body['id'])],
    ['shop/order_cancel', (memberId, body) => deps.orders.cancel(memberId, body['id'])],
    ['shop/order_confirm', (memberId, body) => deps.orders.confirm(memberId, body['id'])],
    [
      'shop/business_send',
      (memberId, body) => deps.orders.ship(memberId, body['id'], { company: body['company'], number: body['number'] }),
    ],
    [
      'shop/drawback',
      async (memberId, body) =>
        deps.orders.applyRefund(memberId, body['id'], {
          amount: body['amount'],
          reason: body['reason'],
          description: body['description'],
          images: await ownImages(deps, memberId, body['imgs'] ?? [], ORDER_LIMITS.refundImagesMax),
        }),
    ],
    ['shop/drawback_cancel', (memberId, body) => deps.orders.cancelRefund(memberId, body['id'])],
    [
      'shop/drawback_send',
      (memberId, body) =>
        deps.orders.sendBack(memberId, body['id'], { company: body['company'], number: body['number'] }),
    ],
    [
      'shop/business_drawback',
      (memberId, body) =>
        deps.orders.decideRefund(memberId, body['id'], {
          agree: body['agree'],
          return: body['return'],
          reason: body['reason'],
        }),
    ],
    ['shop/business_drawback_receive', (memberId, body) => deps.orders.receiveReturn(memberId, body['id'])],
    [
      'shop/claim_add',
      async (memberId, body) =>
        deps.claims.file(memberId, body['id'], {
          kind: body['kind'],
          description: body['description'],
          images: await ownImages(deps, memberId, body['images'] ?? [], CLAIM_LIMITS.imagesMax),
        }),
    ],
    ['shop/claim_cancel', (memberId, body) => deps.claims.cancel(memberId, body['id'])],
  ];
  for (const [path, run] of single) {
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await run(me.value.id, body);
      return result.ok ? { ret: (await orderObjects(deps, [result.value], me.value.id))[0] } : refuse(result.failure);
    });
  }
}
