import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { keysetOf, newerThan, olderThan } from './keyset.js';
import { insertCounted } from './member-lock.js';
import type { Database } from './schema.js';

/** A classification of products, as the operator set it up. */
export interface CategoryRecord {
  id: string;
  name: string;
  /** Lower first. */
  position: number;
  createdAt: number;
}

/**
 * Where a product stands (spec §4): to be reviewed, on sale, review rejected (with a reason), taken off the shelf by
 * its seller, or prohibited by the operator for a violation.
 */
export type ProductStatus = 'pending' | 'on_sale' | 'rejected' | 'off_shelf' | 'banned';

/** A product of a shop. Its price is in fen. */
export interface ProductRecord {
  id: string;
  shopId: string;
  memberId: string;
  categoryId: string;
  title: string;
  price: number;
  stock: number;
  content: string;
  images: string[];
  status: ProductStatus;
  /** Why it was rejected or prohibited; empty otherwise. */
  reason: string;
  createdAt: number;
  reviewedAt?: number;
}

/**
 * What adding a product came to: `no_shop` when the member has no open shop, `no_category` when the classification
 * does not exist (or was removed), `limit` when they added the most in the window, `missing` when they are gone.
 */
export type ProductAddOutcome = 'ok' | 'no_shop' | 'no_category' | 'limit' | 'missing';

/** What adding or changing a classification came to. */
export type CategoryOutcome = 'ok' | 'name_taken' | 'limit';

/** The shop's products and their classifications. */
export interface ProductStore {
  /** Every classification not removed, by position, then the oldest first. */
  categories(): Promise<CategoryRecord[]>;
  /** A classification not removed. */
  category(id: string): Promise<CategoryRecord | undefined>;
  /** Adds a classification unless its name is taken or there are `max`; the check and the write are one step. */
  addCategory(record: CategoryRecord, max: number): Promise<CategoryOutcome>;
  /** Changes a classification: undefined when there is none `id`. */
  updateCategory(id: string, changes: { name?: string; position?: number }): Promise<CategoryOutcome | undefined>;
  /** Removes a classification: its products stay, listed under none. False when none. */
  removeCategory(id: string, now: number): Promise<boolean>;
  /**
   * Adds a product to the member's open shop, to be reviewed: in one transaction that holds the member's row, so
   * that products sent at once are counted against `max` in the window since `since`.
   */
  add(
    record: Omit<ProductRecord, 'shopId' | 'status' | 'reason' | 'reviewedAt'>,
    window: { since: number; max: number },
  ): Promise<ProductAddOutcome>;
  /** A product, whatever its status. */
  byId(id: string): Promise<ProductRecord | undefined>;
  /**
   * The seller puts their product `id` on the shelf (`on`: from off the shelf) or takes it off (from on sale).
   * Undefined, and nothing changed, otherwise.
   */
  shelve(memberId: string, id: string, on: boolean): Promise<ProductRecord | undefined>;
  /**
   * The operator's review of product `id` to be reviewed: on sale, or rejected with `reason`; or a ban of one on sale
   * or off the shelf (`ban`), with `reason`. Undefined, and nothing changed, otherwise.
   */
  review(
    id: string,
    params: { decision: 'pass' | 'reject' | 'ban'; reason: string; now: number },
  ): Promise<ProductRecord | undefined>;
  /** The member's own products, newest first; with `status`, only those. Undefined when `before` is not theirs. */
  bySeller(
    memberId: string,
    options: { status?: ProductStatus | undefined; before?: string | undefined; limit: number },
  ): Promise<ProductRecord[] | undefined>;
  /**
   * Products on sale, newest first: of a classification, or of a shop, and not of a member a block stands between
   * with `viewerId`. Undefined when `before` is not one.
   */
  onSale(options: {
    viewerId?: string | undefined;
    categoryId?: string | undefined;
    shopId?: string | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<ProductRecord[] | undefined>;
  /** Products in `status`, oldest first (the operator's queue). Undefined when `after` is not in that status. */
  list(params: {
    status: ProductStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<ProductRecord[] | undefined>;
}

type ProductTables = {
  product_categories: { id: string; name: string; position: number; created_at: number; deleted_at: number | null };
  products: {
    id: string;
    shop_id: string;
    member_id: string;
    category_id: string;
    title: string;
    price: number | string;
    stock: number;
    content: string;
    images: string;
    status: string;
    reason: string;
    created_at: number;
    reviewed_at: number | null;
  };
  shops: { id: string; member_id: string; status: string };
};

const recordOf = (row: ProductTables['products']): ProductRecord => ({
  id: row.id,
  shopId: row.shop_id,
  memberId: row.member_id,
  categoryId: row.category_id,
  title: row.title,
  price: Number(row.price),
  stock: Number(row.stock),
  content: row.content,
  images: JSON.parse(row.images) as string[],
  status: row.status as ProductStatus,
  reason: row.reason,
  createdAt: Number(row.created_at),
  ...(row.reviewed_at !== null && { reviewedAt: Number(row.reviewed_at) }),
});

const categoryOf = (row: ProductTables['product_categories']): CategoryRecord => ({
  id: row.id,
  name: row.name,
  position: Number(row.position),
  createdAt: Number(row.created_at),
});

/** Holds the classifications until `trx` ends so that a name is checked and written in one step (as channels do). */
async function holdCategories(trx: QueryExecutorProvider, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('product_categories'))`.execute(trx);
}

/** The Kysely implementation of {@link ProductStore}. */
export function createProductStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ProductStore {
  const db = base.withTables<ProductTables>();
  const live = () => db.selectFrom('product_categories').selectAll().where('deleted_at', 'is', null);
  return {
    async categories() {
      const rows = await live().orderBy('position').orderBy('created_at').orderBy('id').execute();
      return rows.map(categoryOf);
    },
    async category(id) {
      const row = await live().where('id', '=', id).executeTakeFirst();
      return row && categoryOf(row);
    },
    async addCategory(record, max) {
      return db.transaction().execute(async (trx) => {
        await holdCategories(trx, dialect);
        const named = trx
          .selectFrom('product_categories')
          .select('id')
          .where('deleted_at', 'is', null)
          .where('name', '=', record.name);
        if (await named.executeTakeFirst()) return 'name_taken';
        const { count } = await trx
          .selectFrom('product_categories')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return 'limit';
        await trx
          .insertInto('product_categories')
          .values({
            id: record.id,
            name: record.name,
            position: record.position,
            created_at: record.createdAt,
            deleted_at: null,
          })
          .execute();
        return 'ok';
      });
    },
    async updateCategory(id, changes) {
      return db.transaction().execute(async (trx) => {
        await holdCategories(trx, dialect);
        const found = await trx
          .selectFrom('product_categories')
          .select('id')
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!found) return undefined;
        if (changes.name !== undefined) {
          const taken = await trx
            .selectFrom('product_categories')
            .select('id')
            .where('deleted_at', 'is', null)
            .where('name', '=', changes.name)
            .where('id', '!=', id)
            .executeTakeFirst();
          if (taken) return 'name_taken';
        }
        if (changes.name !== undefined || changes.position !== undefined) {
          await trx.updateTable('product_categories').set(changes).where('id', '=', id).execute();
        }
        return 'ok';
      });
    },
    async removeCategory(id, now) {
      const result = await db
        .updateTable('product_categories')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async add(record, { since, max }) {
      let outcome: ProductAddOutcome = 'ok';
      const counted = await insertCounted(db, dialect, {
        table: 'products',
        memberId: record.memberId,
        since,
        max,
        insert: async (trx) => {
          const shop = await trx
            .selectFrom('shops')
            .select('id')
            .where('member_id', '=', record.memberId)
            .where('status', '=', 'approved')
            .executeTakeFirst();
          if (!shop) return (outcome = 'no_shop');
          const category = await trx
            .selectFrom('product_categories')
            .select('id')
            .where('id', '=', record.categoryId)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!category) return (outcome = 'no_category');
          await trx
            .insertInto('products')
            .values({
              id: record.id,
              shop_id: shop.id,
              member_id: record.memberId,
              category_id: record.categoryId,
              title: record.title,
              price: record.price,
              stock: record.stock,
              content: record.content,
              images: JSON.stringify(record.images),
              status: 'pending',
              reason: '',
              created_at: record.createdAt,
              reviewed_at: null,
            })
            .execute();
          return outcome;
        },
      });
      return counted === 'ok' ? outcome : counted;
    },
    async byId(id) {
      const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
      return row && recordOf(row);
    },
    async shelve(memberId, id, on) {
      const row = await db
        .updateTable('products')
        .set({ status: on ? 'on_sale' : 'off_shelf' })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .where('status', '=', on ? 'off_shelf' : 'on_sale')
        .returningAll()
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async review(id, { decision, reason, now }) {
      const status = decision === 'pass' ? 'on_sale' : decision === 'reject' ? 'rejected' : 'banned';
      const from = decision === 'ban' ? ['on_sale', 'off_shelf'] : ['pending'];
      const row = await db
        .updateTable('products')
        .set({ status, reason: decision === 'pass' ? '' : reason, reviewed_at: now })
        .where('id', '=', id)
        .where('status', 'in', from)
        .returningAll()
        .executeTakeFirst();
      return row && recordOf(row);
    },
    async bySeller(memberId, { status, before, limit }) {
      const cursor = await keysetOf(db, 'products', before, { column: 'member_id', value: memberId });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('products')
        .selectAll()
        .where('member_id', '=', memberId)
        .$if(status !== undefined, (q) => q.where('status', '=', status as ProductStatus))
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async onSale({ viewerId, categoryId, shopId, before, limit }) {
      const cursor = await keysetOf(db, 'products', before);
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('products')
        .selectAll()
        .where('status', '=', 'on_sale')
        .$if(categoryId !== undefined, (q) => q.where('category_id', '=', categoryId as string))
        .$if(shopId !== undefined, (q) => q.where('shop_id', '=', shopId as string))
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'products.member_id')))
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async list({ status, after, limit }) {
      const cursor = await keysetOf(db, 'products', after, { column: 'status', value: status });
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('products')
        .selectAll()
        .where('status', '=', status)
        .where(newerThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
  };
}
