import { apiPost, type CallContext } from '../api/request';
import type { RechargeStatus, RechargeType } from '../wallet/api';
import type { Claim, ClaimKind } from './claims';
import type { Refund } from './refunds';
import type { Review } from './reviews';

/** The query key of everything about orders; invalidating it refreshes the lists and an order's page. */
export const ORDERS_QUERY = 'orders';

/**
 * Where an order stands (spec §4): unpaid, paid and awaiting delivery, shipped and awaiting receipt, transaction
 * complete, refunded and ended, cancelled (by the buyer, or by itself once {@link Order.expires_at} passed unpaid).
 */
export type OrderStatus = 'unpaid' | 'paid' | 'shipped' | 'completed' | 'refunded' | 'cancelled';

/**
 * What a list of orders can be narrowed to: a status; `refunding`, the orders with a refund under way; or
 * `unreviewed`, the completed orders not reviewed yet that still can be.
 */
export type OrderFilter = OrderStatus | 'refunding' | 'unreviewed';

/** How an order was paid: from the balance, or by a provider's page; empty until it is. */
export type PayMethod = 'balance' | RechargeType | '';

/** One product of an order, as it was when ordered; the price in yuan. */
export interface OrderItem {
  product_id: string;
  title: string;
  image: string;
  price: number;
  num: number;
}

/** Where an order goes: a copy of the buyer's address as it was when ordered. */
export interface OrderAddress {
  name: string;
  phone: string;
  region: string;
  detail: string;
}

/** How a shipped order travels (spec §3 Logistics). */
export interface Logistics {
  company: string;
  number: string;
}

/**
 * An order of one shop (spec §3 "Order: order number, time, payment status, payment method, actual payment"): `id`
 * is its number; `code` is shared by the orders placed together and paid at once. Money in yuan, times in ms.
 */
export interface Order {
  id: string;
  code: string;
  shop: { id: string; name: string; icon: string } | null;
  status: OrderStatus;
  pay_method: PayMethod;
  total: number;
  items: OrderItem[];
  address: OrderAddress;
  logistics: Logistics | null;
  created_at: number;
  paid_at: number | null;
  shipped_at: number | null;
  completed_at: number | null;
  closed_at: number | null;
  /** When an unpaid order cancels itself. */
  expires_at: number;
  /** The order's latest refund, if one was ever asked for. */
  refund: Refund | null;
  /** The buyer's review of the order, once given. */
  review: Review | null;
  /** Until when a completed order can be reviewed (its completion and 15 days); null for an order not completed. */
  review_until: number | null;
  /** When a paid order is due to ship (spec §9 "Shipping promise: within 48 hours"); null until it is paid. */
  ship_by: number | null;
  /**
   * Until when a completed order can be returned for a refund (spec §9 "No-reason return: 7 days"); null for an order
   * not completed, or whose seller was paid.
   */
  return_until: number | null;
  /** Yuan its buyer got for its late delivery, charged to the seller; 0 for none. */
  compensation: number;
  compensated_at: number | null;
  /** When its seller was paid its proceeds: once the return window passed, or a refund left the rest. */
  settled_at: number | null;
  /** The order's latest guarantee claim (spec §9 damage refund, counterfeit compensation), if one was ever filed. */
  claim: Claim | null;
  /**
   * Whether its buyer may file a claim of each kind now (its state and window, none pending, that kind not decided
   * before, no refund under way); both false in the seller's view.
   */
  claimable: Record<ClaimKind, boolean>;
  /** When the damage claim's window closes; null when it cannot be claimed, or while shipped (not started yet). */
  damage_until: number | null;
  /** When the counterfeit claim's window closes; null as {@link Order.damage_until} is. */
  counterfeit_until: number | null;
}

/** One line of what is bought: a product and how many. */
export interface OrderLine {
  id: string;
  num: number;
}

/** Bounds of what one payment buys; the server checks the same. */
export const ORDER_LIMITS = { products: 20, num: 99 } as const;

/** Bounds of a shipment's logistics; the server checks the same. */
export const LOGISTICS_LIMITS = { companyMax: 20, numberMin: 4, numberMax: 40 } as const;

/** What `shop/code` placed: the orders (one per shop) sharing `code`, and what they add up to. */
export interface PlacedOrders {
  code: string;
  orders: Order[];
  total: number;
}

/** A payment made: the orders of `code` it paid. */
export interface Payment {
  code: string;
  type: 'balance';
  paid: number;
  orders: Order[];
}

/**
 * Places the orders of `items` (spec §4 payment flow: "fetch an order code") to address `address` (an address id of
 * the member's); the stock is held for them until they are paid, cancelled or expire.
 */
export async function placeOrders(
  { items, address }: { items: readonly OrderLine[]; address: string },
  context: CallContext,
): Promise<PlacedOrders> {
  const body = { items: items.map(({ id, num }) => ({ id, num })), address };
  const answer = await apiPost<{ ret: string; orders: Order[]; total: number }>('shop/code', body, context, {
    loading: true,
  });
  return { code: answer.ret, orders: answer.orders, total: answer.total };
}

/** A payment of a checkout's orders opened at a provider: the page that takes it, and the recharge it is made as. */
export interface ProviderPayment {
  code: string;
  type: RechargeType;
  pay_url: string;
  recharge: string;
}

/**
 * Asks for the page of provider `type` that pays the unpaid orders of `code` (spec §4 "by a card/wallet provider, or
 * by in-browser payment"): the payment is a recharge of their total, spent on them as soon as it is paid.
 */
export async function payByProvider(code: string, type: RechargeType, context: CallContext): Promise<ProviderPayment> {
  const body = { code, type };
  return (await apiPost<{ ret: ProviderPayment }>('shop/pay_payment', body, context, { loading: true })).ret;
}

/** How paying the orders of a code stands: all paid or not, and their newest payment by a provider, if any. */
export interface PayState {
  paid: boolean;
  recharge: { id: string; type: RechargeType; status: RechargeStatus; reason: string } | null;
  orders: Order[];
}

/** How paying the orders of `code` stands; a provider's payment still waiting is asked after at the provider. */
export async function payState(code: string, context: CallContext): Promise<PayState> {
  const answer = await apiPost<{ ret: Omit<PayState, 'orders'>; orders: Order[] }>('shop/pay_state', { code }, context);
  return { ...answer.ret, orders: answer.orders };
}

/** Pays the unpaid orders of `code` from the wallet's balance (spec §4 "then pay by balance"). */
export async function payByBalance(code: string, context: CallContext): Promise<Payment> {
  const answer = await apiPost<{ ret: Omit<Payment, 'orders'>; orders: Order[] }>(
    'shop/pay_payment',
    { code, type: 'balance' },
    context,
    { loading: true },
  );
  return { ...answer.ret, orders: answer.orders };
}

/** Which page of a list of orders: those of `status` (all without it), before the order with id `before`. */
export interface OrderPageQuery {
  status?: OrderFilter | undefined;
  before?: string | undefined;
}

function pageBody({ status, before }: OrderPageQuery): Record<string, unknown> {
  return { ...(status !== undefined && { status }), ...(before !== undefined && { before }) };
}

/** A page of the buyer's orders, newest first. */
export async function myOrderPage(query: OrderPageQuery, context: CallContext): Promise<Order[]> {
  return (await apiPost<{ ret: Order[] }>('shop/order_list', pageBody(query), context)).ret;
}

/** A page of the seller's orders, newest first. */
export async function shopOrderPage(query: OrderPageQuery, context: CallContext): Promise<Order[]> {
  return (await apiPost<{ ret: Order[] }>('shop/business_order', pageBody(query), context)).ret;
}

/** One order, for its buyer or its seller. */
export async function orderView(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/order_view', { id }, context)).ret;
}

/** The buyer cancels an unpaid order; its stock is released. */
export async function cancelOrder(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/order_cancel', { id }, context, { loading: true })).ret;
}

/** The buyer confirms receipt of a shipped order, which completes it. */
export async function confirmReceipt(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/order_confirm', { id }, context, { loading: true })).ret;
}

/** The seller ships a paid order with its logistics, checked with {@link logisticsProblem}. */
export async function shipOrder(id: string, logistics: Logistics, context: CallContext): Promise<Order> {
  const body = { id, company: logistics.company.trim(), number: logistics.number.trim() };
  return (await apiPost<{ ret: Order }>('shop/business_send', body, context, { loading: true })).ret;
}

/**
 * What is wrong with a shipment's logistics before it is sent, or undefined: a company of 1 to 20 characters on one
 * line, and a shipment number of 4 to 40 letters, digits or '-' (after trimming).
 */
export function logisticsProblem(
  logistics: Logistics,
): 'logistics_company_invalid' | 'logistics_number_invalid' | undefined {
  const company = logistics.company.trim();
  const length = [...company].length;
  if (length < 1 || length > LOGISTICS_LIMITS.companyMax || /[\r\n]/.test(company)) {
    return 'logistics_company_invalid';
  }
  const { numberMin, numberMax } = LOGISTICS_LIMITS;
  if (!new RegExp(`^[A-Za-z0-9-]{${numberMin},${numberMax}}$`).test(logistics.number.trim())) {
    return 'logistics_number_invalid';
  }
  return undefined;
}

/** What an order's lines add up to, in yuan, counted in fen so that no cent is lost to floating point. */
export function linesTotal(lines: ReadonlyArray<{ price: number; num: number }>): number {
  return lines.reduce((fen, line) => fen + Math.round(line.price * 100) * line.num, 0) / 100;
}

/** The route param of the payment page's lines: `id:num`, comma-separated. */
export const PAYMENT_ITEMS_PARAM = 'items';

/** The target of the payment page buying `lines`. */
export function paymentTarget(lines: readonly OrderLine[]): string {
  const items = lines.map(({ id, num }) => `${id}:${num}`).join(',');
  return `shop/payment?${new URLSearchParams({ [PAYMENT_ITEMS_PARAM]: items }).toString()}`;
}

/**
 * The lines of the payment page's param, or undefined when it is not 1 to 20 different products of 1 to 99 each
 * (the server's `order_items_invalid`).
 */
export function parsePaymentItems(param: string | null): OrderLine[] | undefined {
  const lines: OrderLine[] = [];
  for (const part of (param ?? '').split(',')) {
    const match = /^([^:]+):(\d{1,2})$/.exec(part);
    const num = Number(match?.[2]);
    if (!match?.[1] || num < 1 || num > ORDER_LIMITS.num) return undefined;
    lines.push({ id: match[1], num });
  }
  const ids = new Set(lines.map((line) => line.id));
  return ids.size === lines.length && lines.length <= ORDER_LIMITS.products ? lines : undefined;
}
