import { randomBytes } from 'node:crypto';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import { writtenText } from '../content/text.js';
import { OPEN_REFUND } from '../store/orders.js';
import type {
  AddressStore,
  Logistics,
  OrderLine,
  OrderRecord,
  OrderStatus,
  OrderStore,
  RefundApplyFailure,
  RefundDecision,
} from '../store/index.js';
import { SERVICE_GUARANTEES } from './guarantees.js';
import { yuanInFen } from './products.js';
import { REVIEW_LIMITS } from './reviews.js';

/** Bounds of checkouts and orders (docs/limits.md). */
export const ORDER_LIMITS = {
  /** Different products in one checkout, at most. */
  linesMax: 20,
  /** Of one product in one checkout: 1 to this many. */
  quantityMax: 99,
  /** Unpaid orders a buyer may have, at most. */
  maxUnpaid: 10,
  /** An unpaid order is cancelled by itself this long after it was made, and its stock returns. */
  unpaidMs: 30 * 60_000,
  /** A shipped order whose buyer did not confirm receipt completes by itself this long after it was shipped. */
  receiptMs: 10 * 86_400_000,
  /** A logistics company's name: 1 to this many characters. */
  companyMax: 20,
  /** A shipment number: this many to {@link ORDER_LIMITS.numberMax} letters, digits or '-'. */
  numberMin: 4,
  numberMax: 40,
  /** A page of a list. */
  pageSize: 20,
  /** Stale orders settled in one go, of each kind. */
  settleBatch: 100,
  /** Batches of each kind the server's sweep settles at most each time it runs (every minute at most). */
  sweepRounds: 20,
  /** A refund's reason: 1 to this many characters, one line. */
  refundReasonMax: 30,
  /** A refund's supplementary description: 1 to this many characters (spec §5, §9). */
  refundDescriptionMax: 100,
  /** A refund's proof images: 1 to this many, uploaded by the buyer (spec §5, §9). */
  refundImagesMax: 3,
  /** Why the seller refuses a refund: 1 to this many characters. */
  refuseReasonMax: 100,
  /** A refund the seller did not decide on this long after it was asked for is agreed, without return. */
  refundReplyMs: 2 * 86_400_000,
  /** A refund agreed with return whose goods were not sent back this long after is cancelled. */
  returnSendMs: 7 * 86_400_000,
  /** Goods sent back and not confirmed by the seller this long after count as received: the money goes back. */
  returnReceiveMs: 10 * 86_400_000,
} as const;

/** What an order list may be filtered by: a status, a refund under way, or waiting for the buyer's review. */
type OrderFilter = OrderStatus | 'refunding' | 'unreviewed';

const STATUSES: readonly OrderFilter[] = [
  'unpaid',
  'paid',
  'shipped',
  'completed',
  'refunded',
  'cancelled',
  'refunding',
  'unreviewed',
];

/** A refund as the product API hands it over: the images already checked as the buyer's own uploads. */
export interface RefundInput {
  amount: unknown;
  reason: unknown;
  description: unknown;
  /** Undefined when they are not 1 to 3 images of the member's. */
  images: string[] | undefined;
}

/**
 * The shop's orders (spec §3 Order, §4 order states and "Payment flow: fetch an order code, then pay by balance", §8
 * "insufficient balance", "the product does not exist, return to the cart", "get order error"). No HTTP here. Each
 * call first settles what time settled: unpaid orders past {@link ORDER_LIMITS.unpaidMs} are cancelled, shipped ones
 * past {@link ORDER_LIMITS.receiptMs} complete, refunds left by the seller or by the buyer move on
 * ({@link ORDER_LIMITS.refundReplyMs}, {@link ORDER_LIMITS.returnSendMs}, {@link ORDER_LIMITS.returnReceiveMs}), and
 * the service guarantees (spec §9, {@link SERVICE_GUARANTEES}) are kept.
 *
 * The seller's money: the platform holds what the buyer paid until the order settles. A completed order may be
 * returned for a refund for {@link SERVICE_GUARANTEES.returnWindowMs} after it completed ("No-reason return: 7 days"),
 * so its seller is paid its proceeds (a `sale` line) only once that window passed with no refund under way; a refund
 * that ends an order pays the seller what it left. So a refund never takes back money the seller already had, the
 * platform never pays twice, and nothing a seller can withdraw or spend may still be refunded. An order paid and not
 * shipped within {@link SERVICE_GUARANTEES.shipWithinMs} ("Shipping promise: within 48 hours") gives its buyer
 * {@link SERVICE_GUARANTEES.lateCompensationFen} fen at once (a `compensation` line), once, when it is shipped late or
 * while it waits unshipped with no refund under way; the seller pays it out of the order's proceeds when it settles (a
 * `late_charge` line). The damage refund and the counterfeit compensation are claims its buyer files and the operator
 * decides (`ClaimService` in `claims.ts`): a claim pending holds the order as a refund under way does (it neither
 * settles nor completes by itself, and no refund is asked for: `claim_open`), and an upheld one refunds the order,
 * settling it.
 */
export interface OrderService {
  /**
   * A checkout of `items` (`[{id, num}]`: 1 to 20 different products, 1 to 99 of each) to the member's address
   * `address`: one unpaid order per shop, all under one code, their stock held until paid, cancelled or expired.
   */
  checkout(buyerId: string, items: unknown, address: unknown): Promise<MemberResult<OrderRecord[]>>;
  /** Pays every order of checkout `code` by `type` (only `balance`: from the wallet). */
  pay(buyerId: string, code: unknown, type: unknown): Promise<MemberResult<OrderRecord[]>>;
  /** Settles what time settled, as every call does first; for those who read money an order moves. */
  settle(): Promise<void>;
  /**
   * Settles what time settled with no call to prompt it, as the server's sweep does: batch after batch, up to
   * {@link ORDER_LIMITS.sweepRounds}, while batches come back full. Answers how many orders moved.
   */
  sweep(): Promise<number>;
  /** An order, to its buyer or its seller. */
  view(memberId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The buyer cancels their unpaid order. */
  cancel(buyerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The buyer confirms receipt of their shipped order; its seller is paid once its return window passed. */
  confirm(buyerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /**
   * The seller ships their paid order: `company` 1 to 20 characters, `number` 4 to 40 letters, digits or '-'; shipped
   * late, its buyer gets the late-delivery compensation unless they did already.
   */
  ship(
    sellerId: string,
    id: unknown,
    logistics: { company: unknown; number: unknown },
  ): Promise<MemberResult<OrderRecord>>;
  /**
   * The buyer asks for a refund of their paid or shipped order, or a return of their completed one within its return
   * window (spec §5 "amount required and not above the paid amount; reason required; supplementary description
   * required (up to 100 characters); proof images required (up to 3)"; §8 "the order has ended and refund cannot be
   * applied for"; §9 "No-reason return: 7 days"); not while a claim of it waits for the operator (`claim_open`).
   */
  applyRefund(buyerId: string, id: unknown, input: RefundInput): Promise<MemberResult<OrderRecord>>;
  /** The buyer cancels the refund of their order, while it waits for the seller or for the goods. */
  cancelRefund(buyerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The buyer sends the goods back as the seller agreed, with the parcel's logistics. */
  sendBack(
    buyerId: string,
    id: unknown,
    logistics: { company: unknown; number: unknown },
  ): Promise<MemberResult<OrderRecord>>;
  /**
   * The seller decides on a refund: `agree` true refunds at once, or with `return` true waits for the goods first
   * (always for a completed order, whose goods the buyer has: `refund_return_required` without); `agree` false
   * refuses it with a `reason`.
   */
  decideRefund(
    sellerId: string,
    id: unknown,
    decision: { agree: unknown; return: unknown; reason: unknown },
  ): Promise<MemberResult<OrderRecord>>;
  /** The seller received the goods sent back: the money goes back to the buyer. */
  receiveReturn(sellerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /**
   * A buyer's (`side` buyer) or a seller's orders, newest first; `status` one of them (`refunding`: a refund under
   * way; `unreviewed`: completed, not reviewed, and still in the time to review) or undefined for all.
   */
  list(
    side: 'buyer' | 'seller',
    memberId: string,
    status: unknown,
    before: unknown,
  ): Promise<MemberResult<OrderRecord[]>>;
}

/** The checked lines of a checkout, or undefined. */
function linesOf(items: unknown): OrderLine[] | undefined {
  if (!Array.isArray(items) || items.length === 0 || items.length > ORDER_LIMITS.linesMax) return undefined;
  const lines: OrderLine[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { id, num } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !isRowKey(id)) return undefined;
    if (typeof num !== 'number' || !Number.isInteger(num) || num < 1 || num > ORDER_LIMITS.quantityMax) {
      return undefined;
    }
    if (lines.some((line) => line.productId === id)) return undefined;
    lines.push({ productId: id, quantity: num });
  }
  return lines;
}

/** What a refused refund is answered as. */
const REFUND_FAILURES: Record<RefundApplyFailure, MemberFailure> = {
  missing: 'order_missing',
  unpaid: 'order_state',
  ended: 'refund_ended',
  open: 'refund_open',
  claim: 'claim_open',
  amount: 'refund_amount_invalid',
};

/** A shipment's logistics, checked: company 1 to 20 characters, number 4 to 40 letters, digits or '-'. */
function logisticsOf(logistics: { company: unknown; number: unknown }): Logistics | undefined {
  const company = lineOf(logistics.company, ORDER_LIMITS.companyMax);
  const { number } = logistics;
  const pattern = new RegExp(`^[A-Za-z0-9-]{${ORDER_LIMITS.numberMin},${ORDER_LIMITS.numberMax}}$`);
  if (company === undefined || typeof number !== 'string' || !pattern.test(number.trim())) return undefined;
  return { company, number: number.trim() };
}

/** Creates the order service over the stores. */
export function createOrderService(deps: {
  orders: OrderStore;
  addresses: AddressStore;
  now: () => number;
  /** Told of each order paid, shipped, completed or cancelled, after it is stored. */
  onChanged?: (record: OrderRecord) => Promise<void>;
  /** Told of each step of a refund, after it is stored (the order with its refund). */
  onRefund?: (record: OrderRecord) => Promise<void>;
  /**
   * Told of each guarantee kept, after it is stored: an order's buyer compensated for its late delivery, or its
   * seller paid its proceeds once its return window passed.
   */
  onGuarantee?: (record: OrderRecord, kept: 'compensated' | 'settled') => Promise<void>;
}): OrderService {
  const { orders } = deps;
  const missing = { ok: false, failure: 'order_missing' } as const;
  const state = { ok: false, failure: 'order_state' } as const;
  const tell = async (records: readonly OrderRecord[]) => {
    for (const record of records) await deps.onChanged?.(record);
  };
  /** Tells of the guarantees kept at `now` in `records`: each compensation given, each order settled. */
  const kept = async (records: readonly OrderRecord[], now: number) => {
    for (const record of records) {
      if (record.compensatedAt === now) await deps.onGuarantee?.(record, 'compensated');
      if (record.settledAt === now && record.status === 'completed') await deps.onGuarantee?.(record, 'settled');
    }
  };
  /**
   * Settles what time settled, up to a batch of each kind; answers the time now, how many orders moved, and whether a
   * batch came back full (more may wait).
   */
  const settleRound = async () => {
    const now = deps.now();
    const changed = await orders.settleStale({
      unpaidBefore: now - ORDER_LIMITS.unpaidMs,
      shippedBefore: now - ORDER_LIMITS.receiptMs,
      now,
      limit: ORDER_LIMITS.settleBatch,
    });
    await tell(changed);
    const refunds = await orders.settleRefunds({
      repliedBefore: now - ORDER_LIMITS.refundReplyMs,
      sentBefore: now - ORDER_LIMITS.returnSendMs,
      receivedBefore: now - ORDER_LIMITS.returnReceiveMs,
      now,
      limit: ORDER_LIMITS.settleBatch,
    });
    for (const record of refunds) await deps.onRefund?.(record);
    const guaranteed = await orders.settleGuarantees({
      returnBefore: now - SERVICE_GUARANTEES.returnWindowMs,
      lateBefore: now - SERVICE_GUARANTEES.shipWithinMs,
      compensation: SERVICE_GUARANTEES.lateCompensationFen,
      now,
      limit: ORDER_LIMITS.settleBatch,
    });
    await kept(guaranteed, now);
    const batches = [changed.length, refunds.length, guaranteed.length];
    return {
      now,
      moved: changed.length + refunds.length + guaranteed.length,
      full: batches.some((n) => n >= ORDER_LIMITS.settleBatch),
    };
  };
  /** Settles what time settled, and answers the time now. */
  const settle = async () => (await settleRound()).now;
  /** An order of the member's as `role`, or why not. */
  const mine = async (
    memberId: string,
    id: unknown,
    role: 'buyer' | 'seller' | 'either',
  ): Promise<MemberResult<OrderRecord>> => {
    if (typeof id !== 'string' || !isRowKey(id)) return missing;
    const order = await orders.byId(id);
    if (!order) return missing;
    const buyer = order.buyerId === memberId;
    const seller = order.sellerId === memberId;
    const allowed = role === 'buyer' ? buyer : role === 'seller' ? seller : buyer || seller;
    return allowed ? { ok: true, value: order } : missing;
  };
  /**
   * Moves the member's order by `run`: when it is not in the state to, `refund_state` for a step of a refund,
   * `refund_open` while a refund waits, `order_state` otherwise.
   */
  const step = async (
    memberId: string,
    id: unknown,
    role: 'buyer' | 'seller',
    run: (id: string, now: number) => Promise<OrderRecord | undefined>,
    refund = false,
  ): Promise<MemberResult<OrderRecord>> => {
    const now = await settle();
    const found = await mine(memberId, id, role);
    if (!found.ok) return found;
    const moved = await run(found.value.id, now);
    if (!moved) {
      if (refund) return { ok: false, failure: 'refund_state' };
      const waiting = found.value.refund && OPEN_REFUND.includes(found.value.refund.status);
      return waiting ? { ok: false, failure: 'refund_open' } : state;
    }
    await (refund ? deps.onRefund?.(moved) : tell([moved]));
    return { ok: true, value: moved };
  };
  return {
    async checkout(buyerId, items, address) {
      const lines = linesOf(items);
      if (!lines) return { ok: false, failure: 'order_items_invalid' };
      const to = (await deps.addresses.list(buyerId)).find((a) => a.id === address);
      if (!to) return { ok: false, failure: 'address_missing' };
      const now = await settle();
      const placed = await orders.place({
        code: randomBytes(8).toString('hex'),
        buyerId,
        address: { name: to.name, phone: to.phone, region: to.region, detail: to.detail },
        lines,
        now,
        maxUnpaid: ORDER_LIMITS.maxUnpaid,
      });
      if (placed.ok) return placed;
      if (placed.failure === 'stock') return { ok: false, failure: 'stock_insufficient' };
      if (placed.failure === 'own') return { ok: false, failure: 'order_own_product' };
      if (placed.failure === 'pending') return { ok: false, failure: 'order_pending' };
      if (placed.failure === 'missing') return { ok: false, failure: 'user_missing' };
      return { ok: false, failure: 'product_missing' };
    },
    async pay(buyerId, code, type) {
      if (type !== 'balance') return { ok: false, failure: 'payment_unavailable' };
      if (typeof code !== 'string' || !isRowKey(code)) return missing;
      const now = await settle();
      const paid = await orders.pay(buyerId, code, now);
      if (!paid.ok) {
        if (paid.failure === 'insufficient') return { ok: false, failure: 'balance_insufficient' };
        return paid.failure === 'state' ? state : missing;
      }
      await tell(paid.value);
      return paid;
    },
    async settle() {
      await settle();
    },
    async sweep() {
      let moved = 0;
      for (let round = 0; round < ORDER_LIMITS.sweepRounds; round++) {
        const settled = await settleRound();
        moved += settled.moved;
        if (!settled.full) break;
      }
      return moved;
    },
    async view(memberId, id) {
      await settle();
      return mine(memberId, id, 'either');
    },
    cancel: (buyerId, id) => step(buyerId, id, 'buyer', (order, now) => orders.cancel(buyerId, order, now)),
    confirm: (buyerId, id) => step(buyerId, id, 'buyer', (order, now) => orders.confirm(buyerId, order, now)),
    async ship(sellerId, id, logistics) {
      const shipment = logisticsOf(logistics);
      if (!shipment) return { ok: false, failure: 'logistics_invalid' };
      const shipped = await step(sellerId, id, 'seller', (order, now) =>
        orders.ship(sellerId, order, shipment, now, {
          paidBefore: now - SERVICE_GUARANTEES.shipWithinMs,
          amount: SERVICE_GUARANTEES.lateCompensationFen,
        }),
      );
      if (shipped.ok && shipped.value.compensatedAt === shipped.value.shippedAt) {
        await deps.onGuarantee?.(shipped.value, 'compensated');
      }
      return shipped;
    },
    async applyRefund(buyerId, id, input) {
      const found = await mine(buyerId, id, 'buyer');
      if (!found.ok) return found;
      const amount = yuanInFen(input.amount);
      if (amount === undefined || amount > found.value.total) return { ok: false, failure: 'refund_amount_invalid' };
      const reason = lineOf(input.reason, ORDER_LIMITS.refundReasonMax);
      if (reason === undefined) return { ok: false, failure: 'refund_reason_invalid' };
      const description = writtenText(input.description, ORDER_LIMITS.refundDescriptionMax);
      if (description === undefined) return { ok: false, failure: 'refund_description_invalid' };
      const { images } = input;
      if (images === undefined || images.length === 0 || new Set(images).size !== images.length) {
        return { ok: false, failure: 'refund_images_invalid' };
      }
      const now = await settle();
      const applied = await orders.applyRefund({
        id: randomBytes(8).toString('hex'),
        orderId: found.value.id,
        buyerId,
        amount,
        reason,
        description,
        images,
        returnSince: now - SERVICE_GUARANTEES.returnWindowMs,
        now,
      });
      if (!applied.ok) return { ok: false, failure: REFUND_FAILURES[applied.failure] };
      await deps.onRefund?.(applied.value);
      return applied;
    },
    cancelRefund: (buyerId, id) =>
      step(buyerId, id, 'buyer', (order, now) => orders.cancelRefund(buyerId, order, now), true),
    async sendBack(buyerId, id, logistics) {
      const parcel = logisticsOf(logistics);
      if (!parcel) return { ok: false, failure: 'logistics_invalid' };
      return step(buyerId, id, 'buyer', (order, now) => orders.sendBack(buyerId, order, parcel, now), true);
    },
    async decideRefund(sellerId, id, { agree, return: withReturn, reason }) {
      if (typeof agree !== 'boolean' || (withReturn !== undefined && typeof withReturn !== 'boolean')) {
        return { ok: false, failure: 'bad_params' };
      }
      let decision: RefundDecision = { agree: true, withReturn: withReturn === true };
      if (agree && withReturn !== true) {
        const found = await mine(sellerId, id, 'seller');
        if (found.ok && found.value.status === 'completed') return { ok: false, failure: 'refund_return_required' };
      }
      if (!agree) {
        const why = lineOf(reason, ORDER_LIMITS.refuseReasonMax);
        if (why === undefined) return { ok: false, failure: 'refund_refuse_reason_invalid' };
        decision = { agree: false, reason: why };
      }
      return step(sellerId, id, 'seller', (order, now) => orders.decideRefund(sellerId, order, decision, now), true);
    },
    receiveReturn: (sellerId, id) =>
      step(sellerId, id, 'seller', (order, now) => orders.receiveReturn(sellerId, order, now), true),
    async list(side, memberId, status, before) {
      if (status !== undefined && !STATUSES.includes(status as OrderFilter)) {
        return { ok: false, failure: 'bad_params' };
      }
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const now = await settle();
      const page = await orders.list({
        side,
        memberId,
        status: status as OrderFilter | undefined,
        reviewSince: now - REVIEW_LIMITS.windowMs,
        before,
        limit: ORDER_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },
  };
}
