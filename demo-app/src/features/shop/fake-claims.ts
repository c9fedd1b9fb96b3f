import { http, HttpResponse } from 'msw';
import { CLAIM_LIMITS, isClaimKind, pendingClaim, type Claim } from './claims';
import type { FakeRefundKit } from './fake-refunds';
import type { Order } from './orders';
import { openRefund } from './refunds';

/** A damage claim waiting for the platform, with one image. */
export function fakeClaim(extra: Partial<Claim> = {}): Claim {
  return {
    id: 'cl1',
    kind: 'damage',
    description: 'The teapot arrived cracked.',
    images: ['https://files.test/claim-1.png'],
    status: 'pending',
    reason: null,
    refund: 0,
    compensation: 0,
    created_at: 1_700_000_400_000,
    decided_at: null,
    ...extra,
  };
}

/** What the claim handlers share with the rest of the fake shop. */
export type FakeClaimKit = FakeRefundKit;

/** The order's claim windows: what a pending claim closes and its cancellation opens again. */
type Windows = Pick<Order, 'claimable' | 'damage_until' | 'counterfeit_until'>;

const CLOSED: Windows = {
  claimable: { damage: false, counterfeit: false },
  damage_until: null,
  counterfeit_until: null,
};

/**
 * The claim calls of the fake shop (spec §9 damage refund and counterfeit compensation), checked and answered as the
 * server does: the buyer files one while the order says it is `claimable`, and cancels it while it is pending. The
 * platform's decision is arranged by a test in `state.orders`; nothing is booked to any balance.
 */
export function claimHandlers({ state, record, refused, save }: FakeClaimKit) {
  let claims = 0;
  /** Each order's windows before its pending claim closed them, by order id. */
  const before = new Map<string, Windows>();
  const find = (id: unknown) => state.orders.find((order) => order.id === id);
  const missing = () => refused('order_missing', 'the order does not exist');

  return [
    http.post('*/index.php/api/shop/claim_add', async ({ request }) => {
      const { body, refusal } = await record('shop/claim_add', request);
      if (refusal) return HttpResponse.json(refusal);
      const order = find(body['id']);
      if (!order) return missing();
      const kind = body['kind'];
      if (!isClaimKind(kind)) return refused('claim_kind_invalid', 'the kind of claim is damage or counterfeit');
      if (pendingClaim(order)) return refused('claim_open', 'a claim of this order is pending');
      if (openRefund(order)) return refused('refund_open', 'a refund of this order is under way');
      if (order.status !== 'shipped' && order.status !== 'completed') {
        return refused('order_state', 'the order status has changed, refresh and try again');
      }
      const decided = order.claim?.kind === kind && ['upheld', 'rejected'].includes(order.claim.status);
      if (decided) return refused('claim_decided', 'this kind of claim was already decided on this order');
      if (!order.claimable[kind]) return refused('claim_window_passed', 'the time to claim this has passed');
      const description = body['description'];
      const length = typeof description === 'string' ? [...description.trim()].length : 0;
      if (length < 1 || length > CLAIM_LIMITS.descriptionMax) {
        return refused('claim_description_invalid', 'please describe the problem: 1 to 100 characters');
      }
      const images = body['images'];
      const fit = Array.isArray(images) && images.every((image) => typeof image === 'string');
      if (!fit || images.length < 1 || images.length > CLAIM_LIMITS.imagesMax) {
        return refused('claim_images_invalid', 'please upload 1 to 3 images');
      }
      claims += 1;
      before.set(order.id, {
        claimable: order.claimable,
        damage_until: order.damage_until,
        counterfeit_until: order.counterfeit_until,
      });
      const claim = fakeClaim({
        id: `cl${claims}`,
        kind,
        description: String(description).trim(),
        images: images.map(String),
        created_at: Date.now(),
      });
      return save({ ...order, ...CLOSED, claim });
    }),
    http.post('*/index.php/api/shop/claim_cancel', async ({ request }) => {
      const { body, refusal } = await record('shop/claim_cancel', request);
      if (refusal) return HttpResponse.json(refusal);
      const order = find(body['id']);
      if (!order) return missing();
      const claim = pendingClaim(order);
      if (!claim) return refused('claim_missing', 'there is no pending claim to cancel');
      return save({ ...order, ...(before.get(order.id) ?? CLOSED), claim: { ...claim, status: 'cancelled' } });
    }),
  ];
}
