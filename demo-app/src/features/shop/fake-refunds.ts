import { http, HttpResponse } from 'msw';
import { pendingClaim } from './claims';
import type { FakeShopState } from './fake-shop';
import { logisticsProblem, type Order } from './orders';
import { REFUND_LIMITS, openRefund, orderEnded, type Refund, type RefundStatus } from './refunds';

/** A refund waiting for the seller: 12.50 yuan, not as described, with one proof image. */
export function fakeRefund(extra: Partial<Refund> = {}): Refund {
  return {
    id: 'r1',
    amount: 12.5,
    reason: 'Not as described',
    description: 'The leaves are broken.',
    images: ['https://files.test/proof-1.png'],
    status: 'pending',
    refuse_reason: '',
    return_logistics: null,
    created_at: 1_700_000_300_000,
    updated_at: 1_700_000_300_000,
    ...extra,
  };
}

/** What the refund handlers share with the rest of the fake shop. */
export interface FakeRefundKit {
  state: FakeShopState;
  /** Records a call and answers its refusal, if one is set. */
  record: (
    path: string,
    request: Request,
  ) => Promise<{ body: Record<string, unknown>; refusal: { err: string; code: string } | undefined }>;
  refused: (code: string, err: string) => Response;
  /** Stores an order in place of the one with its id, and answers it. */
  save: (order: Order) => Response;
}

/** Whether `value` is a string of `min` to `max` characters after trimming. */
const textOf = (value: unknown, min: number, max: number) =>
  typeof value === 'string' && [...value.trim()].length >= min && [...value.trim()].length <= max;

/**
 * The refund calls of the fake shop (spec §4 refund flow), each checked and answered as the server does: the buyer
 * applies, cancels and sends the goods back; the seller agrees, with or without return, refuses with a reason, and
 * receives the goods. The money going back is not booked to any balance.
 */
export function refundHandlers({ state, record, refused, save }: FakeRefundKit) {
  let refunds = 0;
  const find = (id: unknown) => state.orders.find((order) => order.id === id);
  const missing = () => refused('order_missing', 'the order does not exist');
  /** Moves the refund of order `id` from one of `from` with `to`, else `refund_state`. */
  const move = (id: unknown, from: readonly RefundStatus[], to: (order: Order, refund: Refund) => Order) => {
    const order = find(id);
    if (!order) return missing();
    if (!order.refund || !from.includes(order.refund.status)) {
      return refused('refund_state', 'the refund status has changed, refresh and try again');
    }
    return save(to(order, order.refund));
  };
  /** The order with its refund moved to `status` (and `set`); at `refunded`, the order ends. */
  const moved = (order: Order, refund: Refund, status: RefundStatus, set: Partial<Refund> = {}): Order => ({
    ...order,
    ...(status === 'refunded' && { status: 'refunded', closed_at: 5 }),
    refund: { ...refund, ...set, status, updated_at: refund.updated_at + 1 },
  });

  return [
    http.post('*/index.php/api/shop/drawback', async ({ request }) => {
      const { body, refusal } = await record('shop/drawback', request);
      if (refusal) return HttpResponse.json(refusal);
      const order = find(body['id']);
      if (!order) return missing();
      if (orderEnded(order)) return refused('refund_ended', 'the order has ended and refund cannot be applied for');
      if (order.status === 'unpaid') return refused('order_state', 'the order status has changed');
      if (openRefund(order)) return refused('refund_open', 'a refund of this order is under way');
      if (pendingClaim(order)) return refused('claim_open', 'a claim of this order is pending');
      const amount = body['amount'];
      if (typeof amount !== 'number' || amount < 0.01 || amount > order.total) {
        return refused('refund_amount_invalid', 'the refund amount is required and cannot exceed the amount paid');
      }
      if (!textOf(body['reason'], 1, REFUND_LIMITS.reasonMax)) {
        return refused('refund_reason_invalid', 'please choose the refund reason');
      }
      if (!textOf(body['description'], 1, REFUND_LIMITS.descriptionMax)) {
        return refused('refund_description_invalid', 'please describe the problem: 1 to 100 characters');
      }
      const images = body['imgs'];
      if (!Array.isArray(images) || images.length < 1 || images.length > REFUND_LIMITS.imagesMax) {
        return refused('refund_images_invalid', 'please upload 1 to 3 proof images');
      }
      refunds += 1;
      const refund = fakeRefund({
        id: `r${refunds}`,
        amount,
        reason: String(body['reason']),
        description: String(body['description']),
        images: images.map(String),
      });
      return save({ ...order, refund });
    }),
    http.post('*/index.php/api/shop/drawback_cancel', async ({ request }) => {
      const { body, refusal } = await record('shop/drawback_cancel', request);
      if (refusal) return HttpResponse.json(refusal);
      return move(body['id'], ['pending', 'returning'], (order, refund) => moved(order, refund, 'cancelled'));
    }),
    http.post('*/index.php/api/shop/drawback_send', async ({ request }) => {
      const { body, refusal } = await record('shop/drawback_send', request);
      if (refusal) return HttpResponse.json(refusal);
      const parcel = { company: String(body['company']), number: String(body['number']) };
      if (logisticsProblem(parcel)) {
        return refused('logistics_invalid', 'please enter the logistics company and shipment number');
      }
      return move(body['id'], ['returning'], (order, refund) =>
        moved(order, refund, 'returned', { return_logistics: parcel }),
      );
    }),
    http.post('*/index.php/api/shop/business_drawback', async ({ request }) => {
      const { body, refusal } = await record('shop/business_drawback', request);
      if (refusal) return HttpResponse.json(refusal);
      if (body['agree'] === true) {
        const status = body['return'] === true ? 'returning' : 'refunded';
        return move(body['id'], ['pending'], (order, refund) => moved(order, refund, status));
      }
      const reason = body['reason'];
      if (!textOf(reason, 1, REFUND_LIMITS.refuseReasonMax)) {
        return refused('refund_refuse_reason_invalid', 'please give the reason for refusing');
      }
      return move(body['id'], ['pending'], (order, refund) =>
        moved(order, refund, 'refused', { refuse_reason: String(reason).trim() }),
      );
    }),
    http.post('*/index.php/api/shop/business_drawback_receive', async ({ request }) => {
      const { body, refusal } = await record('shop/business_drawback_receive', request);
      if (refusal) return HttpResponse.json(refusal);
      return move(body['id'], ['returned'], (order, refund) => moved(order, refund, 'refunded'));
    }),
  ];
}
