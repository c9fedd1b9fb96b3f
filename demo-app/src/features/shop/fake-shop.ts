import { http, HttpResponse } from 'msw';
import type { Address } from '../member/addresses';
import type { RechargeType } from '../wallet/api';
import type { Shop } from './api';
import { announcementHandlers, unreadAnnouncements } from './fake-announcements';
import type { Announcement } from './announcements';
import { claimHandlers } from './fake-claims';
import { markHandlers, viewMarks, type FakeMark } from './fake-marks';
import { fakeContent, productHandlers } from './fake-products';
import { refundHandlers } from './fake-refunds';
import { reviewHandlers } from './fake-reviews';
import { emptyShopWithdrawals, withdrawalHandlers, type FakeShopWithdrawals } from './fake-withdrawals';
import { SERVICE_GUARANTEES } from './guarantees';
import { ORDER_LIMITS, linesTotal, type Order, type OrderStatus, type PayState } from './orders';
import type { Product } from './products';
import { openRefund } from './refunds';
import { REVIEW_WINDOW_DAYS, canReview } from './reviews';

/**
 * An in-process fake of the shop's calls for the app's component tests (msw handlers over plain state): products,
 * the member's shop, addresses and balance, and orders placed, paid, cancelled, confirmed and shipped, their
 * refunds (in `fake-refunds.ts`), guarantee claims (in `fake-claims.ts`) and reviews (in `fake-reviews.ts`), and the
 * member's favourites and browsing history (in `fake-marks.ts`), the operator's announcements to sellers (in
 * `fake-announcements.ts`), and seller withdrawal (in `fake-withdrawals.ts`), as the server answers them. Tests arrange
 * `state`, read what was `sent`, and make a call refuse with `refuse`. To extend it, add a handler below that reads and
 * changes `state` and records its call with `record`.
 */
export interface FakeShopState {
  products: Product[];
  /** The products' details by id, as the seller last saved them (in `fake-products.ts`). */
  contents: Record<string, string>;
  /** The shops products belong to, by id. */
  shops: Record<string, { id: string; name: string; icon: string }>;
  /** The signed-in member's own shop, if they have one. */
  myShop: Shop | null;
  addresses: Address[];
  balance: number;
  /** The payment providers set up on the server, which can pay orders on their pages; none by default. */
  providers: RechargeType[];
  /** The checkouts' payments opened at a provider, by code, as `shop/pay_state` tells them. */
  providerPayments: Record<string, NonNullable<PayState['recharge']>>;
  /** Newest first. */
  orders: Order[];
  /** The products the member keeps, the latest first. */
  favourites: FakeMark[];
  /** The products the member looked at, the latest first; `shop/view` adds to it. */
  history: FakeMark[];
  /** The operator's announcements to sellers, each with whether the member read it (in `fake-announcements.ts`). */
  announcements: Announcement[];
  /** The seller's bound accounts, money and shop withdrawals (in `fake-withdrawals.ts`). */
  withdrawals: FakeShopWithdrawals;
  /** Calls that answer a refusal (by path, e.g. `shop/pay_payment`) until removed. */
  refuse: Record<string, { err: string; code: string }>;
}

/** A page of orders, as the server gives them. */
const PAGE = 20;

/** The signed-in member's shop `s1`, Hill Tea House, approved: what the seller's pages need. */
export function openShop(extra: Partial<Shop> = {}): Shop {
  return {
    id: 's1',
    name: 'Hill Tea House',
    icon: '',
    intro: '',
    status: 'approved',
    reason: '',
    submitted_at: 0,
    reviewed_at: 0,
    ...extra,
  };
}

/** A product on sale in shop `s1`: 12.50 yuan, 3 in stock. */
export function fakeProduct(id: string, extra: Partial<Product> = {}): Product {
  return {
    id,
    shop_id: 's1',
    typeid: 'c1',
    title: `Product ${id}`,
    price: 12.5,
    stock: 3,
    images: [`https://files.test/${id}.png`],
    status: 'on_sale',
    reason: '',
    created_at: 1_700_000_000_000,
    ...extra,
  };
}

/** An unpaid order of one `Product p1` from shop `s1`. */
export function fakeOrder(id: string, extra: Partial<Order> = {}): Order {
  return {
    id,
    code: `code-${id}`,
    shop: { id: 's1', name: 'Hill Tea House', icon: 'https://files.test/icon.png' },
    status: 'unpaid',
    pay_method: '',
    total: 12.5,
    items: [{ product_id: 'p1', title: 'Product p1', image: 'https://files.test/p1.png', price: 12.5, num: 1 }],
    address: { name: 'Li Lei', phone: '13800138000', region: 'Zhejiang Hangzhou', detail: 'West Lake Road 1' },
    logistics: null,
    created_at: 1_700_000_000_000,
    paid_at: null,
    shipped_at: null,
    completed_at: null,
    closed_at: null,
    expires_at: 1_700_001_800_000,
    refund: null,
    review: null,
    review_until: null,
    ship_by: null,
    return_until: null,
    compensation: 0,
    compensated_at: null,
    settled_at: null,
    claim: null,
    claimable: { damage: false, counterfeit: false },
    damage_until: null,
    counterfeit_until: null,
    ...extra,
  };
}

const SHOP_S1 = { id: 's1', name: 'Hill Tea House', icon: 'https://files.test/icon.png' };

function emptyState(): FakeShopState {
  return {
    products: [],
    contents: {},
    shops: { s1: SHOP_S1 },
    myShop: null,
    addresses: [],
    balance: 0,
    providers: [],
    providerPayments: {},
    orders: [],
    favourites: [],
    history: [],
    announcements: [],
    withdrawals: emptyShopWithdrawals(),
    refuse: {},
  };
}

/** A fresh fake: its state, the calls it got, and its msw handlers (to spread into `setupServer`). */
export function fakeShop() {
  const state = emptyState();
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  let codes = 0;

  /** Records a call and answers its refusal, if one is set. */
  const record = async (path: string, request: Request) => {
    const body = (await request.json()) as Record<string, unknown>;
    sent.push({ path, body });
    return { body, refusal: state.refuse[path] };
  };
  const refused = (code: string, err: string) => HttpResponse.json({ err, code });
  /** Stores `order` in place of the one with its id, and answers it. */
  const save = (order: Order) => {
    state.orders = state.orders.map((item) => (item.id === order.id ? order : item));
    return HttpResponse.json({ ret: order });
  };
  const change = (id: unknown, from: OrderStatus, to: (order: Order) => Order) => {
    const order = state.orders.find((item) => item.id === id);
    if (!order) return refused('order_missing', 'the order does not exist');
    if (openRefund(order)) return refused('refund_open', 'a refund of this order is under way');
    if (order.status !== from) return refused('order_state', 'the order status has changed, refresh and try again');
    return save(to(order));
  };
  const page = (orders: Order[], body: Record<string, unknown>) => {
    const status = body['status'];
    const mine = orders.filter((order) =>
      status === 'refunding'
        ? openRefund(order) !== undefined
        : status === 'unreviewed'
          ? canReview(order)
          : status === undefined || order.status === status,
    );
    const from = body['before'] === undefined ? 0 : mine.findIndex((order) => order.id === body['before']) + 1;
    return HttpResponse.json({ ret: mine.slice(from, from + PAGE) });
  };

  const handlers = [
    http.post('*/index.php/api/shop/view', async ({ request }) => {
      const { body } = await record('shop/view', request);
      const product = state.products.find((item) => item.id === body['id']);
      if (!product) return refused('product_missing', 'the product does not exist, return to the cart');
      return HttpResponse.json({
        ret: { ...product, content: fakeContent(state, product.id), ...viewMarks(state, product, body['token']) },
        shop: state.shops[product.shop_id] ?? null,
      });
    }),
    http.post('*/index.php/api/shop/apply_info', () =>
      HttpResponse.json({
        ret: { certified: state.myShop !== null, shop: state.myShop, unread_announcements: unreadAnnouncements(state) },
      }),
    ),
    http.post('*/index.php/api/member/address_list', () => HttpResponse.json({ ret: state.addresses })),
    http.post('*/index.php/api/member/money', () =>
      HttpResponse.json({
        ret: {
          balance: state.balance,
          unpaid: 0,
          rules: { min: 1, max: 100000, max_unpaid: 3 },
          providers: state.providers,
        },
      }),
    ),
    http.post('*/index.php/api/shop/code', async ({ request }) => {
      const { body, refusal } = await record('shop/code', request);
      if (refusal) return HttpResponse.json(refusal);
      const lines = body['items'] as Array<{ id: string; num: number }>;
      if (lines.length < 1 || lines.length > ORDER_LIMITS.products) {
        return refused('order_items_invalid', 'please choose 1 to 20 products, 1 to 99 of each');
      }
      const address = state.addresses.find((item) => item.id === body['address']);
      if (!address) return refused('address_missing', 'the address does not exist');
      const bought = lines.map((line) => ({ line, product: state.products.find((item) => item.id === line.id) }));
      if (bought.some(({ product }) => !product)) {
        return refused('product_missing', 'the product does not exist, return to the cart');
      }
      codes += 1;
      const code = `c${codes}`;
      const byShop = new Map<string, Order>();
      for (const { line, product } of bought) {
        if (!product) continue;
        const order =
          byShop.get(product.shop_id) ??
          fakeOrder(`o${codes}-${product.shop_id}`, {
            code,
            shop: state.shops[product.shop_id] ?? null,
            items: [],
            address: { name: address.name, phone: address.phone, region: address.region, detail: address.detail },
            created_at: Date.now(),
            expires_at: Date.now() + 1_800_000,
          });
        order.items.push({
          product_id: product.id,
          title: product.title,
          image: product.images[0] ?? '',
          price: product.price,
          num: line.num,
        });
        order.total = linesTotal(order.items);
        byShop.set(product.shop_id, order);
      }
      const orders = [...byShop.values()];
      state.orders = [...orders, ...state.orders];
      return HttpResponse.json({
        ret: code,
        orders,
        total: linesTotal(orders.map((o) => ({ price: o.total, num: 1 }))),
      });
    }),
    http.post('*/index.php/api/shop/pay_payment', async ({ request }) => {
      const { body, refusal } = await record('shop/pay_payment', request);
      if (refusal) return HttpResponse.json(refusal);
      const orders = state.orders.filter((order) => order.code === body['code'] && order.status === 'unpaid');
      const type = body['type'];
      if (type !== 'balance' && !state.providers.some((provider) => provider === type)) {
        return refused('payment_unavailable', 'this payment method is not available; pay by balance');
      }
      if (orders.length === 0) return refused('order_state', 'the order status has changed, refresh and try again');
      if (type === 'alipay' || type === 'wechat') {
        const code = String(body['code']);
        state.providerPayments[code] = { id: `r-${code}`, type, status: 'unpaid', reason: '' };
        const payUrl = `https://pay.test/${type}?code=${code}`;
        return HttpResponse.json({ ret: { code, type, pay_url: payUrl, recharge: `r-${code}` }, orders });
      }
      const due = linesTotal(orders.map((order) => ({ price: order.total, num: 1 })));
      if (due > state.balance) return refused('balance_insufficient', 'insufficient balance');
      state.balance = linesTotal([
        { price: state.balance, num: 1 },
        { price: -due, num: 1 },
      ]);
      const paid = orders.map((order): Order => ({ ...order, status: 'paid', pay_method: 'balance', paid_at: 1 }));
      state.orders = state.orders.map((order) => paid.find((item) => item.id === order.id) ?? order);
      return HttpResponse.json({ ret: { code: body['code'], type: 'balance', paid: due }, orders: paid });
    }),
    http.post('*/index.php/api/shop/pay_state', async ({ request }) => {
      const { body, refusal } = await record('shop/pay_state', request);
      if (refusal) return HttpResponse.json(refusal);
      const orders = state.orders.filter((order) => order.code === body['code']);
      if (orders.length === 0) return refused('order_missing', 'the order does not exist');
      const paid = orders.every((order) => order.paid_at !== null);
      return HttpResponse.json({
        ret: { paid, recharge: state.providerPayments[String(body['code'])] ?? null },
        orders,
      });
    }),
    http.post('*/index.php/api/shop/order_list', async ({ request }) => {
      const { body } = await record('shop/order_list', request);
      return page(state.orders, body);
    }),
    http.post('*/index.php/api/shop/business_order', async ({ request }) => {
      const { body } = await record('shop/business_order', request);
      return page(
        state.orders.filter((order) => order.shop?.id === state.myShop?.id),
        body,
      );
    }),
    http.post('*/index.php/api/shop/order_view', async ({ request }) => {
      const { body } = await record('shop/order_view', request);
      const order = state.orders.find((item) => item.id === body['id']);
      return order ? HttpResponse.json({ ret: order }) : refused('order_missing', 'the order does not exist');
    }),
    http.post('*/index.php/api/shop/order_cancel', async ({ request }) => {
      const { body, refusal } = await record('shop/order_cancel', request);
      if (refusal) return HttpResponse.json(refusal);
      return change(body['id'], 'unpaid', (order) => ({ ...order, status: 'cancelled', closed_at: 2 }));
    }),
    http.post('*/index.php/api/shop/order_confirm', async ({ request }) => {
      const { body, refusal } = await record('shop/order_confirm', request);
      if (refusal) return HttpResponse.json(refusal);
      const now = Date.now();
      return change(body['id'], 'shipped', (order) => ({
        ...order,
        status: 'completed',
        completed_at: now,
        review_until: now + REVIEW_WINDOW_DAYS * 86_400_000,
        return_until: now + SERVICE_GUARANTEES.returnDays * 86_400_000,
      }));
    }),
    http.post('*/index.php/api/shop/business_send', async ({ request }) => {
      const { body, refusal } = await record('shop/business_send', request);
      if (refusal) return HttpResponse.json(refusal);
      const logistics = { company: String(body['company']), number: String(body['number']) };
      return change(body['id'], 'paid', (order) => ({ ...order, status: 'shipped', logistics, shipped_at: 4 }));
    }),
    ...refundHandlers({ state, record, refused, save }),
    ...claimHandlers({ state, record, refused, save }),
    ...reviewHandlers({ state, record, refused, save }),
    ...markHandlers({ state, record, refused, save }),
    ...productHandlers({ state, record, refused, save }),
    ...announcementHandlers({ state, record, refused, save }),
    ...withdrawalHandlers({ state, record, refused, save }),
  ];

  /** Back to the empty state, for the next test. */
  const reset = () => {
    Object.assign(state, emptyState());
    sent.length = 0;
    codes = 0;
  };
  return { state, sent, handlers, reset };
}
