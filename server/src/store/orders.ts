import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { keysetOf, olderThan } from './keyset.js';
import { holdOpenMember } from './member-lock.js';
import {
  claimsOf,
  type ClaimKind,
  type ClaimRecord,
  type ClaimsOf,
  type ClaimSteps,
  type ClaimTables,
} from './order-claims.js';
import { compensateIn, type GuaranteeSteps, type LateDelivery } from './order-guarantees.js';
import type { RefundSteps } from './order-refunds.js';
import { addMoneyLine } from './wallet.js';
import type { Database } from './schema.js';

/**
 * Where an order stands (spec §4 order): unpaid, paid and awaiting delivery, shipped and awaiting receipt,
 * transaction complete, refunded and ended, or cancelled (by the buyer, or by itself when it stayed unpaid too long).
 */
export type OrderStatus = 'unpaid' | 'paid' | 'shipped' | 'completed' | 'refunded' | 'cancelled';

/**
 * Where a refund stands (spec §4 refund flow): waiting for the seller (`pending`), refused by them with a reason,
 * cancelled by the buyer, agreed with return of the goods and waiting for them (`returning`), the goods sent back
 * (`returned`), or refunded: the money is back in the buyer's wallet and the order has ended.
 */
export type RefundStatus = 'pending' | 'refused' | 'cancelled' | 'returning' | 'returned' | 'refunded';

/** The refund states in which a refund is under way: the order waits for it. */
export const OPEN_REFUND: readonly RefundStatus[] = ['pending', 'returning', 'returned'];

/** A refund of an order, as the buyer asked for it and as it went on. Its amount is in fen. */
export interface RefundRecord {
  id: string;
  orderId: string;
  amount: number;
  reason: string;
  description: string;
  /** The buyer's proof images. */
  images: string[];
  status: RefundStatus;
  /** Why the seller refused; empty otherwise. */
  refuseReason: string;
  /** The buyer's parcel back to the seller, once sent. */
  returnLogistics?: Logistics;
  createdAt: number;
  updatedAt: number;
}

/**
 * A buyer's review of their completed order (spec §3 "Review: quality, service and logistics ratings (1 to 5), text"),
 * with the seller's answer once given.
 */
export interface OrderReview {
  quality: number;
  service: number;
  logistics: number;
  /** What the buyer wrote: up to 200 characters, possibly none. */
  content: string;
  /** The seller's answer; empty until given. */
  reply: string;
  repliedAt?: number;
  createdAt: number;
}

/**
 * How an order was paid: from the buyer's balance, or by Alipay or WeChat Pay (through a recharge of the checkout's
 * total, spent on the orders as soon as it is paid); empty while unpaid.
 */
export type PayMethod = '' | 'balance' | 'alipay' | 'wechat';

/** One product of an order, as it was when it was bought. Its price is in fen. */
export interface OrderItem {
  productId: string;
  title: string;
  /** The product's first image. */
  image: string;
  price: number;
  quantity: number;
}

/** Where an order goes: a copy of the buyer's shipping address when they ordered. */
export interface OrderAddress {
  name: string;
  phone: string;
  region: string;
  detail: string;
}

/** The logistics of a shipped order: the company and the shipment number. */
export interface Logistics {
  company: string;
  number: string;
}

/** An order: what one buyer bought from one shop in one checkout. Money in fen. */
export interface OrderRecord {
  id: string;
  /** The checkout's code: every order of a checkout shares it, and paying it pays them all. */
  code: string;
  buyerId: string;
  sellerId: string;
  shopId: string;
  status: OrderStatus;
  total: number;
  payMethod: PayMethod;
  items: OrderItem[];
  address: OrderAddress;
  logistics?: Logistics;
  /** Its latest refund, if any. */
  refund?: RefundRecord;
  /** The buyer's review, once given. */
  review?: OrderReview;
  /** Its latest guarantee claim, if any. */
  claim?: ClaimRecord;
  /** The kinds of claim the operator decided on it (upheld or rejected): neither is claimed again. */
  claimsDecided: ClaimKind[];
  /**
   * Whether any of its products is in a product category marked fresh (food and fresh items), which shortens the
   * damage refund's time.
   */
  fresh: boolean;
  createdAt: number;
  paidAt?: number;
  shippedAt?: number;
  completedAt?: number;
  /** When it was cancelled. */
  closedAt?: number;
  /**
   * When its seller was paid its proceeds: a completed order once its return window passed with no refund under way,
   * a refunded one when the money went back. Undefined until then.
   */
  settledAt?: number;
  /** Fen its buyer got for its late delivery (0 for none), charged to the seller when it settles. */
  compensation: number;
  /** When its buyer got the late-delivery compensation. */
  compensatedAt?: number;
}

/** One product a checkout asks for. */
export interface OrderLine {
  productId: string;
  quantity: number;
}

/**
 * Why a checkout was refused, nothing changed: `product_missing` when a product is not on sale (or a block stands
 * between the buyer and its seller), `stock` when it has too few left, `own` when it is the buyer's own, `pending`
 * when the buyer has the most unpaid orders already, `missing` when the buyer is gone.
 */
export type PlaceFailure = 'product_missing' | 'stock' | 'own' | 'pending' | 'missing';

/** Why paying a code was refused, nothing changed. */
export type PayFailure = 'missing' | 'state' | 'insufficient';

/**
 * The shop's orders: checkouts that hold stock, payment from the wallet, shipping and receipt, refunds, and the
 * service guarantees (the seller's proceeds held through the return window, late-delivery compensation, the claims
 * the operator decides).
 */
export interface OrderStore extends RefundSteps, GuaranteeSteps, ClaimSteps {
  /**
   * A checkout: for each shop of the `lines`' products, one unpaid order under `code`, whose items copy each product
   * as it is, each product's stock lowered by what was taken. One transaction that holds the buyer's row: it stores
   * all the orders or none.
   */
  place(params: {
    code: string;
    buyerId: string;
    address: OrderAddress;
    lines: readonly OrderLine[];
    now: number;
    /** Unpaid orders a buyer may have, at most. */
    maxUnpaid: number;
  }): Promise<{ ok: true; value: OrderRecord[] } | { ok: false; failure: PlaceFailure }>;
  /**
   * Pays every order of the buyer's checkout `code` from their balance: all unpaid, and the balance covers their
   * total; the ledger takes an `order` line of minus the total, and the orders are paid. One transaction that holds
   * the buyer's row, so that two payments never spend the same money.
   */
  pay(
    buyerId: string,
    code: string,
    now: number,
    /** How the money came: `balance` (the default), or the provider of the recharge that brought it. */
    method?: Exclude<PayMethod, ''>,
  ): Promise<{ ok: true; value: OrderRecord[] } | { ok: false; failure: PayFailure }>;
  /** The orders of the buyer's checkout `code`, whatever their status, by id; empty when there are none. */
  byCode(buyerId: string, code: string): Promise<OrderRecord[]>;
  /** The buyer cancels their unpaid order `id`: its stock returns. Undefined, and nothing changed, otherwise. */
  cancel(buyerId: string, id: string, now: number): Promise<OrderRecord | undefined>;
  /**
   * The seller ships their paid order `id` with `logistics`, unless a refund of it is under way; with `late`, one paid
   * before `late.paidBefore` gives its buyer the compensation in the same transaction, unless it did already.
   * Undefined, and nothing changed, otherwise.
   */
  ship(
    sellerId: string,
    id: string,
    logistics: Logistics,
    now: number,
    late?: LateDelivery,
  ): Promise<OrderRecord | undefined>;
  /**
   * The buyer confirms receipt of their shipped order `id`, unless a refund of it is under way: it is complete. Its
   * seller is paid once its return window passed (`settleGuarantees`). Undefined, and nothing changed, otherwise.
   */
  confirm(buyerId: string, id: string, now: number): Promise<OrderRecord | undefined>;
  /**
   * What time settles by itself, at most `limit` of each: unpaid orders made before `unpaidBefore` are cancelled
   * (their stock returns), shipped ones shipped before `shippedBefore` complete unless a refund or a claim of them is
   * under way.
   * Answers the orders it changed.
   */
  settleStale(params: {
    unpaidBefore: number;
    shippedBefore: number;
    now: number;
    limit: number;
  }): Promise<OrderRecord[]>;
  /** An order, whatever its status. */
  byId(id: string): Promise<OrderRecord | undefined>;
  /**
   * The orders of a buyer (`side` buyer) or of a seller, newest first, at most `limit`; with `status`, only those
   * (`refunding`: those with a refund under way; `unreviewed`: those completed at or after `reviewSince` and not
   * reviewed); with `before` (an id of theirs), only those before it. Undefined when `before` is not theirs.
   */
  list(params: {
    side: 'buyer' | 'seller';
    memberId: string;
    status?: OrderStatus | 'refunding' | 'unreviewed' | undefined;
    /** With `unreviewed`: the earliest completion that may still be reviewed. */
    reviewSince?: number;
    before?: string | undefined;
    limit: number;
  }): Promise<OrderRecord[] | undefined>;
}

type OrderTables = {
  orders: {
    id: string;
    code: string;
    buyer_id: string;
    seller_id: string;
    shop_id: string;
    status: string;
    total: number | string;
    pay_method: string;
    address: string;
    logistics_company: string;
    logistics_number: string;
    refund_id: string;
    refund_status: string;
    claim_id: string;
    claim_status: string;
    created_at: number;
    paid_at: number | null;
    shipped_at: number | null;
    completed_at: number | null;
    closed_at: number | null;
    reviewed_at: number | null;
    settled_at: number | null;
    compensation: number | string;
    compensated_at: number | null;
  };
  order_items: {
    order_id: string;
    position: number;
    product_id: string;
    title: string;
    image: string;
    price: number | string;
    quantity: number;
    reviewed_at: number | null;
  };
  order_reviews: {
    id: string;
    buyer_id: string;
    seller_id: string;
    shop_id: string;
    quality: number;
    service: number;
    logistics: number;
    content: string;
    reply: string;
    replied_at: number | null;
    created_at: number;
  };
  order_refunds: {
    id: string;
    order_id: string;
    amount: number | string;
    reason: string;
    description: string;
    images: string;
    status: string;
    refuse_reason: string;
    return_company: string;
    return_number: string;
    created_at: number;
    updated_at: number;
  };
  products: {
    id: string;
    shop_id: string;
    member_id: string;
    category_id: string;
    title: string;
    price: number | string;
    stock: number;
    images: string;
    status: string;
  };
  product_categories: { id: string; fresh: number; deleted_at: number | null };
  member_money: { member_id: string; amount: number | string };
} & ClaimTables;

export type OrderRow = OrderTables['orders'];
type ItemRow = OrderTables['order_items'];
export type RefundRow = OrderTables['order_refunds'];
export type ReviewRow = OrderTables['order_reviews'];
export type OrderDatabase = Database & OrderTables;
export type OrderDb = Kysely<OrderDatabase> | Transaction<OrderDatabase>;

/** The store's database with the order tables typed. */
export const orderDatabase = (base: Kysely<Database>): Kysely<OrderDatabase> => base.withTables<OrderTables>();

/** A checkout refused part way: the transaction rolls back. */
class Refused extends Error {
  constructor(readonly failure: PlaceFailure) {
    super(failure);
  }
}

const time = (value: number | null) => (value === null ? undefined : Number(value));

export const refundOf = (row: RefundRow): RefundRecord => ({
  id: row.id,
  orderId: row.order_id,
  amount: Number(row.amount),
  reason: row.reason,
  description: row.description,
  images: JSON.parse(row.images) as string[],
  status: row.status as RefundStatus,
  refuseReason: row.refuse_reason,
  ...(row.return_company !== '' && {
    returnLogistics: { company: row.return_company, number: row.return_number },
  }),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

/** A review as its order carries it. */
export const reviewOf = (row: ReviewRow): OrderReview => {
  const repliedAt = time(row.replied_at);
  return {
    quality: Number(row.quality),
    service: Number(row.service),
    logistics: Number(row.logistics),
    content: row.content,
    reply: row.reply,
    ...(repliedAt !== undefined && { repliedAt }),
    createdAt: Number(row.created_at),
  };
};

const recordOf = (
  row: OrderRow,
  items: ItemRow[],
  refund: RefundRow | undefined,
  review: ReviewRow | undefined,
  claims: ClaimsOf,
): OrderRecord => {
  const record: OrderRecord = {
    id: row.id,
    code: row.code,
    buyerId: row.buyer_id,
    sellerId: row.seller_id,
    shopId: row.shop_id,
    status: row.status as OrderStatus,
    total: Number(row.total),
    payMethod: row.pay_method as PayMethod,
    items: items.map((item) => ({
      productId: item.product_id,
      title: item.title,
      image: item.image,
      price: Number(item.price),
      quantity: Number(item.quantity),
    })),
    address: JSON.parse(row.address) as OrderAddress,
    claimsDecided: claims.decided,
    fresh: claims.fresh,
    createdAt: Number(row.created_at),
    compensation: Number(row.compensation),
  };
  if (claims.latest) record.claim = claims.latest;
  if (row.logistics_company !== '') {
    record.logistics = { company: row.logistics_company, number: row.logistics_number };
  }
  if (refund) record.refund = refundOf(refund);
  if (review) record.review = reviewOf(review);
  const paidAt = time(row.paid_at);
  const shippedAt = time(row.shipped_at);
  const completedAt = time(row.completed_at);
  const closedAt = time(row.closed_at);
  const settledAt = time(row.settled_at);
  const compensatedAt = time(row.compensated_at);
  return {
    ...record,
    ...(paidAt !== undefined && { paidAt }),
    ...(shippedAt !== undefined && { shippedAt }),
    ...(completedAt !== undefined && { completedAt }),
    ...(closedAt !== undefined && { closedAt }),
    ...(settledAt !== undefined && { settledAt }),
    ...(compensatedAt !== undefined && { compensatedAt }),
  };
};

/** The orders of `rows` with their items, latest refunds, reviews and claims, in the rows' order. */
export async function withItems(db: OrderDb, rows: OrderRow[]): Promise<OrderRecord[]> {
  if (rows.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .selectAll()
    .where(
      'order_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('order_id')
    .orderBy('position')
    .execute();
  const byOrder = new Map<string, ItemRow[]>();
  for (const item of items) byOrder.set(item.order_id, [...(byOrder.get(item.order_id) ?? []), item]);
  const refundIds = rows.map((row) => row.refund_id).filter((id) => id !== '');
  const refunds =
    refundIds.length === 0
      ? []
      : await db.selectFrom('order_refunds').selectAll().where('id', 'in', refundIds).execute();
  const refundById = new Map(refunds.map((refund) => [refund.id, refund]));
  const reviewed = rows.filter((row) => row.reviewed_at !== null).map((row) => row.id);
  const reviews =
    reviewed.length === 0 ? [] : await db.selectFrom('order_reviews').selectAll().where('id', 'in', reviewed).execute();
  const reviewById = new Map(reviews.map((review) => [review.id, review]));
  const claims = await claimsOf(db, rows);
  return rows.map((row) =>
    recordOf(
      row,
      byOrder.get(row.id) ?? [],
      refundById.get(row.refund_id),
      reviewById.get(row.id),
      claims.get(row.id) ?? { decided: [], fresh: false },
    ),
  );
}

/** Puts the items of an order back in stock (an order cancelled, or refunded with its goods back with the seller). */
export async function restock(trx: Transaction<OrderDatabase>, orderId: string): Promise<void> {
  const items = await trx
    .selectFrom('order_items')
    .select(['product_id', 'quantity'])
    .where('order_id', '=', orderId)
    .execute();
  for (const item of items) {
    await trx
      .updateTable('products')
      .set((eb) => ({ stock: eb('stock', '+', item.quantity) }))
      .where('id', '=', item.product_id)
      .execute();
  }
}

/**
 * The Kysely implementation of {@link OrderStore} but its refund steps (`createRefundSteps`), its guarantee steps
 * (`createGuaranteeSteps`) and its claim steps (`createClaimSteps`).
 */
export function createOrderSteps(
  base: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
): Omit<OrderStore, keyof RefundSteps | keyof GuaranteeSteps | keyof ClaimSteps> {
  const db = orderDatabase(base);

  /**
   * Moves order `id` from `from` to `set` in `trx`, unless a refund of it is under way (with `unclaimed`, a claim
   * too); the row as it is after, or undefined.
   */
  const move = async (
    trx: OrderDb,
    where: { id: string; buyerId?: string; sellerId?: string; from: OrderStatus; unclaimed?: boolean },
    set: Partial<OrderRow>,
  ) =>
    trx
      .updateTable('orders')
      .set(set)
      .where('id', '=', where.id)
      .where('status', '=', where.from)
      .where('refund_status', 'not in', OPEN_REFUND)
      .$if(where.unclaimed === true, (q) => q.where('claim_status', '!=', 'pending'))
      .$if(where.buyerId !== undefined, (q) => q.where('buyer_id', '=', where.buyerId as string))
      .$if(where.sellerId !== undefined, (q) => q.where('seller_id', '=', where.sellerId as string))
      .returningAll()
      .executeTakeFirst();

  const cancelIn = async (trx: Transaction<OrderDatabase>, id: string, now: number, buyerId?: string) => {
    const row = await move(trx, { id, buyerId, from: 'unpaid' }, { status: 'cancelled', closed_at: now });
    if (row) await restock(trx, row.id);
    return row;
  };

  // The seller's proceeds wait for the return window (`settleGuarantees`), so that a return takes back nothing paid.
  // Time does not complete an order whose claim waits for the operator; its buyer may.
  const completeIn = async (trx: Transaction<OrderDatabase>, id: string, now: number, buyerId?: string) =>
    move(
      trx,
      { id, buyerId, from: 'shipped', unclaimed: buyerId === undefined },
      { status: 'completed', completed_at: now },
    );

  const one = async (row: OrderRow | undefined) => (row ? (await withItems(db, [row]))[0] : undefined);

  return {
    async place({ code, buyerId, address, lines, now, maxUnpaid }) {
      try {
        const rows = await db.transaction().execute(async (trx) => {
          if (!(await holdOpenMember(trx, buyerId, dialect))) throw new Refused('missing');
          const { unpaid } = await trx
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<string | number>().as('unpaid'))
            .where('buyer_id', '=', buyerId)
            .where('status', '=', 'unpaid')
            .executeTakeFirstOrThrow();
          // Products are taken in the order of their ids, so that checkouts at once never wait on each other in a
          // circle.
          const sorted = [...lines].sort((a, b) => (a.productId < b.productId ? -1 : 1));
          const byShop = new Map<string, { sellerId: string; items: (OrderItem & { at: number })[] }>();
          for (const line of sorted) {
            const product = await trx
              .selectFrom('products')
              .select(['id', 'shop_id', 'member_id', 'title', 'price', 'images'])
              .where('id', '=', line.productId)
              .where('status', '=', 'on_sale')
              .where(notBlockedWith(buyerId, 'products.member_id'))
              .executeTakeFirst();
            if (!product) throw new Refused('product_missing');
            if (product.member_id === buyerId) throw new Refused('own');
            const taken = await trx
              .updateTable('products')
              .set((eb) => ({ stock: eb('stock', '-', line.quantity) }))
              .where('id', '=', product.id)
              .where('stock', '>=', line.quantity)
              .executeTakeFirst();
            if (taken.numUpdatedRows === 0n) throw new Refused('stock');
            const shop = byShop.get(product.shop_id) ?? { sellerId: product.member_id, items: [] };
            shop.items.push({
              productId: product.id,
              title: product.title,
              image: (JSON.parse(product.images) as string[])[0] ?? '',
              price: Number(product.price),
              quantity: line.quantity,
              at: lines.findIndex((l) => l.productId === line.productId),
            });
            byShop.set(product.shop_id, shop);
          }
          if (Number(unpaid) + byShop.size > maxUnpaid) throw new Refused('pending');
          const placed: OrderRow[] = [];
          for (const [shopId, shop] of byShop) {
            // The items in the order the buyer listed them.
            const items = shop.items.sort((a, b) => a.at - b.at);
            const row: OrderRow = {
              id: randomBytes(8).toString('hex'),
              code,
              buyer_id: buyerId,
              seller_id: shop.sellerId,
              shop_id: shopId,
              status: 'unpaid',
              total: items.reduce((sum, item) => sum + item.price * item.quantity, 0),
              pay_method: '',
              address: JSON.stringify(address),
              logistics_company: '',
              logistics_number: '',
              refund_id: '',
              refund_status: '',
              claim_id: '',
              claim_status: '',
              created_at: now,
              paid_at: null,
              shipped_at: null,
              completed_at: null,
              closed_at: null,
              reviewed_at: null,
              settled_at: null,
              compensation: 0,
              compensated_at: null,
            };
            await trx.insertInto('orders').values(row).execute();
            await trx
              .insertInto('order_items')
              .values(
                items.map((item, position) => ({
                  order_id: row.id,
                  position,
                  product_id: item.productId,
                  title: item.title,
                  image: item.image,
                  price: item.price,
                  quantity: item.quantity,
                  reviewed_at: null,
                })),
              )
              .execute();
            placed.push(row);
          }
          return placed;
        });
        return { ok: true, value: await withItems(db, rows) };
      } catch (err) {
        if (err instanceof Refused) return { ok: false, failure: err.failure };
        throw err;
      }
    },

    async pay(buyerId, code, now, method = 'balance') {
      const outcome = await db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, buyerId, dialect))) return 'missing' as const;
        const rows = await trx
          .selectFrom('orders')
          .selectAll()
          .where('code', '=', code)
          .where('buyer_id', '=', buyerId)
          .execute();
        if (rows.length === 0) return 'missing' as const;
        if (rows.some((row) => row.status !== 'unpaid')) return 'state' as const;
        const total = rows.reduce((sum, row) => sum + Number(row.total), 0);
        const { balance } = await trx
          .selectFrom('member_money')
          .select((eb) => eb.fn.sum<string | number | null>('amount').as('balance'))
          .where('member_id', '=', buyerId)
          .executeTakeFirstOrThrow();
        if (Number(balance ?? 0) < total) return 'insufficient' as const;
        await addMoneyLine(trx, { memberId: buyerId, amount: -total, kind: 'order', ref: code, now });
        return trx
          .updateTable('orders')
          .set({ status: 'paid', pay_method: method, paid_at: now })
          .where('code', '=', code)
          .where('buyer_id', '=', buyerId)
          .where('status', '=', 'unpaid')
          .returningAll()
          .execute();
      });
      if (typeof outcome === 'string') return { ok: false, failure: outcome };
      return {
        ok: true,
        value: await withItems(
          db,
          outcome.sort((a, b) => (a.id < b.id ? -1 : 1)),
        ),
      };
    },

    async cancel(buyerId, id, now) {
      return one(await db.transaction().execute((trx) => cancelIn(trx, id, now, buyerId)));
    },

    async ship(sellerId, id, logistics, now, late) {
      const row = await db.transaction().execute(async (trx) => {
        const shipped = await move(
          trx,
          { id, sellerId, from: 'paid' },
          {
            status: 'shipped',
            logistics_company: logistics.company,
            logistics_number: logistics.number,
            shipped_at: now,
          },
        );
        if (!shipped || !late || Number(shipped.paid_at) >= late.paidBefore) return shipped;
        return (await compensateIn(trx, shipped.id, late.amount, now)) ?? shipped;
      });
      return one(row);
    },

    async confirm(buyerId, id, now) {
      return one(await db.transaction().execute((trx) => completeIn(trx, id, now, buyerId)));
    },

    async settleStale({ unpaidBefore, shippedBefore, now, limit }) {
      const [unpaid, shipped] = await Promise.all([
        db
          .selectFrom('orders')
          .select('id')
          .where('status', '=', 'unpaid')
          .where('created_at', '<', unpaidBefore)
          .orderBy('created_at')
          .limit(limit)
          .execute(),
        db
          .selectFrom('orders')
          .select('id')
          .where('status', '=', 'shipped')
          .where('refund_status', 'not in', OPEN_REFUND)
          .where('claim_status', '!=', 'pending')
          .where('shipped_at', '<', shippedBefore)
          .orderBy('shipped_at')
          .limit(limit)
          .execute(),
      ]);
      if (unpaid.length === 0 && shipped.length === 0) return [];
      const changed = await db.transaction().execute(async (trx) => {
        const rows: OrderRow[] = [];
        // Each moves only from the state it was found in, so that a payment or a receipt at the same time wins.
        for (const { id } of unpaid) {
          const row = await cancelIn(trx, id, now);
          if (row) rows.push(row);
        }
        for (const { id } of shipped) {
          const row = await completeIn(trx, id, now);
          if (row) rows.push(row);
        }
        return rows;
      });
      return withItems(db, changed);
    },

    async byId(id) {
      return one(await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst());
    },

    async byCode(buyerId, code) {
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('code', '=', code)
        .where('buyer_id', '=', buyerId)
        .orderBy('id')
        .execute();
      return withItems(db, rows);
    },

    async list({ side, memberId, status, reviewSince, before, limit }) {
      const column = side === 'buyer' ? 'buyer_id' : 'seller_id';
      const cursor = await keysetOf(db, 'orders', before, { column, value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where(column, '=', memberId)
        .$if(status === 'refunding', (q) => q.where('refund_status', 'in', OPEN_REFUND))
        .$if(status === 'unreviewed', (q) =>
          q
            .where('status', '=', 'completed')
            .where('reviewed_at', 'is', null)
            .where('completed_at', '>=', reviewSince ?? 0),
        )
        .$if(status !== undefined && status !== 'refunding' && status !== 'unreviewed', (q) =>
          q.where('status', '=', status as OrderStatus),
        )
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return withItems(db, rows);
    },
  };
}
