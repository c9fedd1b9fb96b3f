import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { containsAny } from './contains.js';
import { keysetOf, newerThan, olderThan } from './keyset.js';
import { holdOpenMember, insertCounted } from './member-lock.js';
import type { Database } from './schema.js';

/** A classification of products, as the operator set it up. */
export interface CategoryRecord {
  id: string;
  name: string;
  /** Lower first. */
  position: number;
  /** Food and fresh items: the damage refund's time for their orders is the shorter one (spec §9). */
  fresh: boolean;
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

/** What a seller sets when they add or change a product. */
export type ProductFields = Pick<ProductRecord, 'categoryId' | 'title' | 'price' | 'stock' | 'content' | 'images'>;

/** What adding or changing a classification came to. */
export type CategoryOutcome = 'ok' | 'name_taken' | 'limit';

/** A member's lists of products: those they keep (favourites) and those they looked at (browsing history). */
export type ProductList = 'favourite' | 'history';

/** A product of a member's list, with when it was kept or last looked at. */
export type MarkedProduct = ProductRecord & { markedAt: number };

/** The shop's products and their classifications. */
export interface ProductStore {
  /** Every classification not removed, by position, then the oldest first. */
  categories(): Promise<CategoryRecord[]>;
  /** A classification not removed. */
  category(id: string): Promise<CategoryRecord | undefined>;
  /** Adds a classification unless its name is taken or there are `max`; the check and the write are one step. */
  addCategory(record: CategoryRecord, max: number): Promise<CategoryOutcome>;
  /** Changes a classification: undefined when there is none `id`. */
  updateCategory(
    id: string,
    changes: { name?: string; position?: number; fresh?: boolean },
  ): Promise<CategoryOutcome | undefined>;
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
   * The seller sets every field of their product `id` again, but of a prohibited one. A change of what the operator
   * reviews (title, images, details, classification), or any change of a rejected product, sends it back to be
   * reviewed, its reason cleared; price and stock alone leave it where it stands. One statement, so that a review at
   * the same moment lands before or after it, never in between. `no_category` when the classification does not exist
   * (or was removed); undefined, and nothing changed, when the product is not the member's or is prohibited.
   */
  edit(memberId: string, id: string, fields: ProductFields): Promise<ProductRecord | 'no_category' | undefined>;
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
    /** Only those whose title holds these words, in any case. */
    keyword?: string | undefined;
    before?: string | undefined;
    limit: number;
  }): Promise<ProductRecord[] | undefined>;
  /**
   * Puts product `productId` in the member's `list` at `now` (again: moved to now). Favourites hold at most `max`:
   * one more is `limit` (checked in one transaction that holds the member's row, so that keepings sent at once count);
   * a history keeps its newest `max`, the older dropped. `missing` when the member is gone.
   */
  mark(
    memberId: string,
    list: ProductList,
    productId: string,
    params: { now: number; max: number },
  ): Promise<'ok' | 'limit' | 'missing'>;
  /** Takes `productIds` (or every one, `all`) out of the member's `list`; answers how many were in it. */
  unmark(memberId: string, list: ProductList, productIds: readonly string[] | 'all'): Promise<number>;
  /** Which of `productIds` are in the member's `list`. */
  marked(memberId: string, list: ProductList, productIds: readonly string[]): Promise<Set<string>>;
  /**
   * The products of the member's `list`, the latest first, at most `limit`, whatever their status but none of a
   * member a block stands between with them; with `before` (a product of the list), only those before it. Undefined
   * when `before` is not in the list.
   */
  marks(
    memberId: string,
    list: ProductList,
    options: { before?: string | undefined; limit: number },
  ): Promise<MarkedProduct[] | undefined>;
  /** Products in `status`, oldest first (the operator's queue). Undefined when `after` is not in that status. */
  list(params: {
    status: ProductStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<ProductRecord[] | undefined>;
}

type ProductTables = {
  product_categories: {
    id: string;
    name: string;
    position: number;
    fresh: number;
    created_at: number;
    deleted_at: number | null;
  };
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
  product_marks: { member_id: string; list: string; product_id: string; created_at: number };
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
  fresh: Number(row.fresh) === 1,
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
            fresh: record.fresh ? 1 : 0,
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
        const { fresh, ...named } = changes;
        const set = { ...named, ...(fresh !== undefined && { fresh: fresh ? 1 : 0 }) };
        if (Object.keys(set).length > 0) {
          await trx.updateTable('product_categories').set(set).where('id', '=', id).execute();
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
    async edit(memberId, id, fields) {
      if (!(await live().select('id').where('id', '=', fields.categoryId).executeTakeFirst())) return 'no_category';
      const images = JSON.stringify(fields.images);
      const row = await db
        .updateTable('products')
        .set((eb) => {
          const reviewed = eb.or([
            eb('status', '=', 'rejected'),
            eb('title', '!=', fields.title),
            eb('images', '!=', images),
            eb('content', '!=', fields.content),
            eb('category_id', '!=', fields.categoryId),
          ]);
          return {
            status: eb
              .case()
              .when(reviewed)
              .then(sql<string>`'pending'`)
              .else(eb.ref('status'))
              .end(),
            reason: eb
              .case()
              .when(reviewed)
              .then(sql<string>`''`)
              .else(eb.ref('reason'))
              .end(),
            category_id: fields.categoryId,
            title: fields.title,
            price: fields.price,
            stock: fields.stock,
            content: fields.content,
            images,
          };
        })
        .where('id', '=', id)
        .where('member_id', '=', memberId)
        .where('status', '!=', 'banned')
        .returningAll()
        .executeTakeFirst();
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
    async onSale({ viewerId, categoryId, shopId, keyword, before, limit }) {
      const cursor = await keysetOf(db, 'products', before);
      if (cursor === 'missing') return undefined;
      const rows = await db
        .selectFrom('products')
        .selectAll()
        .where('status', '=', 'on_sale')
        .$if(categoryId !== undefined, (q) => q.where('category_id', '=', categoryId as string))
        .$if(shopId !== undefined, (q) => q.where('shop_id', '=', shopId as string))
        .$if(keyword !== undefined, (q) => q.where(containsAny('products', ['title'], keyword as string, dialect)))
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
    async mark(memberId, list, productId, { now, max }) {
      return db.transaction().execute(async (trx) => {
        if (!(await holdOpenMember(trx, memberId, dialect))) return 'missing';
        const mine = trx.selectFrom('product_marks').where('member_id', '=', memberId).where('list', '=', list);
        if (list === 'favourite') {
          const kept = await mine.select('product_id').where('product_id', '=', productId).executeTakeFirst();
          const { count } = await mine
            .select((eb) => eb.fn.countAll<string | number>().as('count'))
            .executeTakeFirstOrThrow();
          if (!kept && Number(count) >= max) return 'limit';
        }
        await trx
          .insertInto('product_marks')
          .values({ member_id: memberId, list, product_id: productId, created_at: now })
          .onConflict((oc) => oc.columns(['member_id', 'list', 'product_id']).doUpdateSet({ created_at: now }))
          .execute();
        if (list === 'history') {
          // The newest `max` stay: the first one past them and all older go.
          const oldest = await mine
            .select(['created_at', 'product_id'])
            .orderBy('created_at', 'desc')
            .orderBy('product_id', 'desc')
            .offset(max)
            .limit(1)
            .executeTakeFirst();
          if (oldest) {
            await trx
              .deleteFrom('product_marks')
              .where('member_id', '=', memberId)
              .where('list', '=', list)
              .where((eb) =>
                eb.or([
                  eb('created_at', '<', oldest.created_at),
                  eb.and([eb('created_at', '=', oldest.created_at), eb('product_id', '<=', oldest.product_id)]),
                ]),
              )
              .execute();
          }
        }
        return 'ok';
      });
    },
    async unmark(memberId, list, productIds) {
      if (productIds !== 'all' && productIds.length === 0) return 0;
      const result = await db
        .deleteFrom('product_marks')
        .where('member_id', '=', memberId)
        .where('list', '=', list)
        .$if(productIds !== 'all', (q) => q.where('product_id', 'in', productIds as readonly string[]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async marked(memberId, list, productIds) {
      if (productIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('product_marks')
        .select('product_id')
        .where('member_id', '=', memberId)
        .where('list', '=', list)
        .where('product_id', 'in', productIds)
        .execute();
      return new Set(rows.map((row) => row.product_id));
    },
    async marks(memberId, list, { before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom('product_marks')
          .select(['created_at', 'product_id'])
          .where('member_id', '=', memberId)
          .where('list', '=', list)
          .where('product_id', '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.product_id };
      }
      const rows = await db
        .selectFrom('product_marks')
        .innerJoin('products', 'products.id', 'product_marks.product_id')
        .selectAll('products')
        .select('product_marks.created_at as marked_at')
        .where('product_marks.member_id', '=', memberId)
        .where('product_marks.list', '=', list)
        .where(notBlockedWith(memberId, 'products.member_id'))
        .where(olderThan(cursor, { time: 'product_marks.created_at', id: 'product_marks.product_id' }))
        .orderBy('product_marks.created_at', 'desc')
        .orderBy('product_marks.product_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(({ marked_at, ...row }) => ({ ...recordOf(row), markedAt: Number(marked_at) }));
    },
  };
}
