import { apiPost, type CallContext } from '../api/request';
import { pendingClaim } from './claims';
import type { Logistics, Order } from './orders';

/**
 * Where a refund stands (spec §4 refund flow): waiting for the seller (`pending`); refused by the seller with a
 * reason, or cancelled by the buyer (either may be asked again); agreed with return and waiting for the buyer to send
 * the goods back (`returning`); the goods sent back, waiting for the seller to receive them (`returned`); the money
 * back in the buyer's wallet, which ends the order (`refunded`).
 */
export type RefundStatus = 'pending' | 'refused' | 'cancelled' | 'returning' | 'returned' | 'refunded';

/** The refund statuses of a refund under way: the seller cannot ship and the buyer cannot confirm receipt. */
export const OPEN_REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'returning', 'returned'];

/**
 * A refund of an order (spec §3 "Refund: amount, reason, supplementary description, up to 3 proof images"), the
 * amount in yuan, times in ms.
 */
export interface Refund {
  id: string;
  amount: number;
  reason: string;
  description: string;
  images: string[];
  status: RefundStatus;
  /** Why the seller refused it; '' unless `refused`. */
  refuse_reason: string;
  /** The buyer's parcel back, once sent. */
  return_logistics: Logistics | null;
  created_at: number;
  updated_at: number;
}

/** Bounds of a refund; the server checks the same. */
export const REFUND_LIMITS = { reasonMax: 30, descriptionMax: 100, imagesMax: 3, refuseReasonMax: 100 } as const;

/** The reasons a buyer picks from, each sent as its label in the buyer's language. */
export const REFUND_REASONS = [
  'not_as_described',
  'damaged',
  'wrong_item',
  'not_received',
  'quality',
  'unwanted',
] as const;

/** One of {@link REFUND_REASONS}. */
export type RefundReason = (typeof REFUND_REASONS)[number];

/** The order's refund when it is under way, else undefined. */
export function openRefund(order: Order): Refund | undefined {
  const { refund } = order;
  return refund && OPEN_REFUND_STATUSES.includes(refund.status) ? refund : undefined;
}

/** Whether a completed `order` can still be returned at `now` (spec §9 "No-reason return: 7 days"). */
export function inReturnWindow(order: Order, now = Date.now()): boolean {
  return order.status === 'completed' && order.return_until !== null && now <= order.return_until;
}

/**
 * Whether the buyer may ask for a refund of `order` at `now`: paid, shipped, or completed within its return window,
 * none under way and no guarantee claim pending.
 */
export function canApplyForRefund(order: Order, now = Date.now()): boolean {
  const open = order.status === 'paid' || order.status === 'shipped' || inReturnWindow(order, now);
  return open && openRefund(order) === undefined && pendingClaim(order) === undefined;
}

/**
 * Whether `order` has ended at `now`, so that no refund can be asked for (spec §8): cancelled, refunded, or completed
 * and past its return window.
 */
export function orderEnded(order: Order, now = Date.now()): boolean {
  if (order.status === 'completed') return !inReturnWindow(order, now);
  return order.status === 'cancelled' || order.status === 'refunded';
}

/** What the refund form holds: the amount as typed, the reason's label, the description, the uploaded images. */
export interface RefundDraft {
  amount: string;
  reason: string;
  description: string;
  imgs: readonly string[];
}

/**
 * What is wrong with a refund before it is sent, or undefined, in spec §5's order: an amount of 0.01 yuan to `paid`
 * with at most two decimals, a reason, a description of 1 to 100 characters, 1 to 3 images.
 */
export function refundProblem(
  draft: RefundDraft,
  paid: number,
):
  | 'refund_amount_invalid'
  | 'refund_reason_invalid'
  | 'refund_description_invalid'
  | 'refund_images_invalid'
  | undefined {
  const amount = draft.amount.trim();
  // Compared in fen, so that 0.1 + 0.2 never exceeds what was paid.
  const fen = Math.round(Number(amount) * 100);
  if (!/^\d+(\.\d{1,2})?$/.test(amount) || fen < 1 || fen > Math.round(paid * 100)) return 'refund_amount_invalid';
  const reason = [...draft.reason.trim()].length;
  if (reason < 1 || reason > REFUND_LIMITS.reasonMax) return 'refund_reason_invalid';
  const description = [...draft.description.trim()].length;
  if (description < 1 || description > REFUND_LIMITS.descriptionMax) return 'refund_description_invalid';
  if (draft.imgs.length < 1 || draft.imgs.length > REFUND_LIMITS.imagesMax) return 'refund_images_invalid';
  return undefined;
}

/**
 * The buyer asks for a refund of their paid or shipped order, or a return of their completed one within its return
 * window, checked with {@link refundProblem}.
 */
export async function applyForRefund(id: string, draft: RefundDraft, context: CallContext): Promise<Order> {
  const body = {
    id,
    amount: Number(draft.amount.trim()),
    reason: draft.reason.trim(),
    description: draft.description.trim(),
    imgs: [...draft.imgs],
  };
  return (await apiPost<{ ret: Order }>('shop/drawback', body, context, { loading: true })).ret;
}

/** The buyer cancels their refund, waiting for the seller or for the goods. */
export async function cancelRefund(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/drawback_cancel', { id }, context, { loading: true })).ret;
}

/** The buyer sends the goods back as the seller agreed, with the parcel's logistics. */
export async function sendGoodsBack(id: string, logistics: Logistics, context: CallContext): Promise<Order> {
  const body = { id, company: logistics.company.trim(), number: logistics.number.trim() };
  return (await apiPost<{ ret: Order }>('shop/drawback_send', body, context, { loading: true })).ret;
}

/**
 * What the seller decides on a refund waiting for them: agree, the money going back at once or once the goods are
 * back (`withReturn`), or refuse with a reason of 1 to 100 characters.
 */
export type RefundDecision = { agree: true; withReturn: boolean } | { agree: false; reason: string };

/** The seller decides on a refund waiting for them. */
export async function decideRefund(id: string, decision: RefundDecision, context: CallContext): Promise<Order> {
  const body = decision.agree
    ? { id, agree: true, return: decision.withReturn }
    : { id, agree: false, reason: decision.reason.trim() };
  return (await apiPost<{ ret: Order }>('shop/business_drawback', body, context, { loading: true })).ret;
}

/** The seller received the goods sent back: the money goes back to the buyer. */
export async function receiveGoodsBack(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/business_drawback_receive', { id }, context, { loading: true })).ret;
}

/** Whether a refusal's reason is 1 to 100 characters on one line after trimming, as the server takes it. */
export function refuseReasonValid(reason: string): boolean {
  const trimmed = reason.trim();
  const length = [...trimmed].length;
  return length >= 1 && length <= REFUND_LIMITS.refuseReasonMax && !/\p{Cc}/u.test(trimmed);
}
