import { randomBytes } from 'node:crypto';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import type { AddressStore, OrderLine, OrderRecord, OrderStatus, OrderStore } from '../store/index.js';

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
} as const;

const STATUSES: readonly OrderStatus[] = ['unpaid', 'paid', 'shipped', 'completed', 'cancelled'];

/**
 * The shop's orders (spec §3 Order, §4 order states and "Payment flow: fetch an order code, then pay by balance", §8
 * "insufficient balance", "the product does not exist, return to the cart", "get order error"). No HTTP here. Each
 * call first settles what time settled: unpaid orders past {@link ORDER_LIMITS.unpaidMs} are cancelled, shipped ones
 * past {@link ORDER_LIMITS.receiptMs} complete.
 */
export interface OrderService {
  /**
   * A checkout of `items` (`[{id, num}]`: 1 to 20 different products, 1 to 99 of each) to the member's address
   * `address`: one unpaid order per shop, all under one code, their stock held until paid, cancelled or expired.
   */
  checkout(buyerId: string, items: unknown, address: unknown): Promise<MemberResult<OrderRecord[]>>;
  /** Pays every order of checkout `code` by `type` (only `balance`: from the wallet). */
  pay(buyerId: string, code: unknown, type: unknown): Promise<MemberResult<OrderRecord[]>>;
  /** An order, to its buyer or its seller. */
  view(memberId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The buyer cancels their unpaid order. */
  cancel(buyerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The buyer confirms receipt of their shipped order; the seller is paid. */
  confirm(buyerId: string, id: unknown): Promise<MemberResult<OrderRecord>>;
  /** The seller ships their paid order: `company` 1 to 20 characters, `number` 4 to 40 letters, digits or '-'. */
  ship(
    sellerId: string,
    id: unknown,
    logistics: { company: unknown; number: unknown },
  ): Promise<MemberResult<OrderRecord>>;
  /** A buyer's (`side` buyer) or a seller's orders, newest first; `status` one of them or undefined for all. */
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

/** Creates the order service over the stores. */
export function createOrderService(deps: {
  orders: OrderStore;
  addresses: AddressStore;
  now: () => number;
  /** Told of each order paid, shipped, completed or cancelled, after it is stored. */
  onChanged?: (record: OrderRecord) => Promise<void>;
}): OrderService {
  const { orders } = deps;
  const missing = { ok: false, failure: 'order_missing' } as const;
  const state = { ok: false, failure: 'order_state' } as const;
  const tell = async (records: readonly OrderRecord[]) => {
    for (const record of records) await deps.onChanged?.(record);
  };
  /** Settles what time settled, and answers the time now. */
  const settle = async () => {
    const now = deps.now();
    const changed = await orders.settleStale({
      unpaidBefore: now - ORDER_LIMITS.unpaidMs,
      shippedBefore: now - ORDER_LIMITS.receiptMs,
      now,
      limit: ORDER_LIMITS.settleBatch,
    });
    await tell(changed);
    return now;
  };
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
  /** Moves the member's order by `step`: `order_state` when it is not in the state to. */
  const step = async (
    memberId: string,
    id: unknown,
    role: 'buyer' | 'seller',
    run: (id: string, now: number) => Promise<OrderRecord | undefined>,
  ): Promise<MemberResult<OrderRecord>> => {
    const now = await settle();
    const found = await mine(memberId, id, role);
    if (!found.ok) return found;
    const moved = await run(found.value.id, now);
    if (!moved) return state;
    await tell([moved]);
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
    async view(memberId, id) {
      await settle();
      return mine(memberId, id, 'either');
    },
    cancel: (buyerId, id) => step(buyerId, id, 'buyer', (order, now) => orders.cancel(buyerId, order, now)),
    confirm: (buyerId, id) => step(buyerId, id, 'buyer', (order, now) => orders.confirm(buyerId, order, now)),
    async ship(sellerId, id, logistics) {
      const company = lineOf(logistics.company, ORDER_LIMITS.companyMax);
      const { number } = logistics;
      const pattern = new RegExp(`^[A-Za-z0-9-]{${ORDER_LIMITS.numberMin},${ORDER_LIMITS.numberMax}}$`);
      if (company === undefined || typeof number !== 'string' || !pattern.test(number.trim())) {
        return { ok: false, failure: 'logistics_invalid' };
      }
      const shipment = { company, number: number.trim() };
      return step(sellerId, id, 'seller', (order, now) => orders.ship(sellerId, order, shipment, now));
    },
    async list(side, memberId, status, before) {
      if (status !== undefined && !STATUSES.includes(status as OrderStatus)) {
        return { ok: false, failure: 'bad_params' };
      }
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      await settle();
      const page = await orders.list({
        side,
        memberId,
        status: status as OrderStatus | undefined,
        before,
        limit: ORDER_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },
  };
}
