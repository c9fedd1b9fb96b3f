import { randomBytes } from 'node:crypto';
import { searchWords } from '../content/articles.js';
import { badRequest, type CatalogEditResult } from '../content/catalog.js';
import { writtenText } from '../content/text.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import type {
  CategoryRecord,
  MarkedProduct,
  ProductFields,
  ProductList,
  ProductRecord,
  ProductStatus,
  ProductStore,
} from '../store/index.js';

/** Bounds of products and their classifications (docs/limits.md). */
export const PRODUCT_LIMITS = {
  /** A product's images: 1 to this many, uploaded by its seller. */
  imagesMax: 9,
  /** Its title: 2 to this many characters after trimming, one line. */
  titleMax: 60,
  /** Its price in yuan: more than 0, at most this, to the fen. */
  priceMaxYuan: 1_000_000,
  /** Its stock: a whole number from 0 to this. */
  stockMax: 999_999,
  /** Its details: 1 to this many characters after trimming. */
  contentMax: 5_000,
  /** Products one seller adds in {@link PRODUCT_LIMITS.windowMs}, at most. */
  maxPerWindow: 50,
  windowMs: 86_400_000,
  /** Why the operator rejected or prohibited one: 1 to this many characters. */
  reasonMax: 100,
  /** A page of a list. */
  pageSize: 20,
  /** A page of the operator's queue. */
  queuePageSize: 50,
  /** A classification's name: 1 to this many characters after trimming, unique. */
  categoryNameMax: 10,
  /** Classifications, at most. */
  categoriesMax: 50,
  /** A classification's position: 0 to this. */
  positionMax: 10_000,
  /** Products a member keeps as favourites, at most. */
  favouritesMax: 500,
  /** Products a member's browsing history keeps, the latest; older ones are dropped. */
  historyMax: 100,
  /** Products taken out of a list in one call, at most. */
  unmarkMax: 100,
} as const;

/** Fen in a yuan. */
const FEN = 100;

/** A product as the product API hands it over: the images already checked as the seller's own uploads. */
export interface ProductInput {
  /** Undefined when they are not 1 to 9 images of the member's. */
  images: string[] | undefined;
  title: unknown;
  price: unknown;
  category: unknown;
  stock: unknown;
  content: unknown;
}

/** Why the operator's review of a product was refused. */
export type ProductReviewFailure = 'not_pending' | 'bad_review';

/**
 * The shop's products (spec §3 Product, §4 product states, §5 "Adding a product needs images, title, price,
 * classification, stock and details", §8 "the classification does not exist, reselect", "the product does not
 * exist, return to the cart") and the operator's classifications. No HTTP here.
 */
export interface ProductService {
  categories(): Promise<CategoryRecord[]>;
  /** A seller adds a product to their open shop; it is to be reviewed. */
  add(memberId: string, input: ProductInput): Promise<MemberResult<ProductRecord>>;
  /**
   * The seller changes their product `id`, checked as when added: a change of title, images, details or
   * classification, or any change of a rejected product, sends it back to be reviewed; price and stock alone leave it
   * where it stands. `product_missing` when it is not theirs or is prohibited.
   */
  edit(memberId: string, id: unknown, input: ProductInput): Promise<MemberResult<ProductRecord>>;
  /**
   * A product on sale, or the viewer's own whatever its status; `product_missing` otherwise, and when a block stands
   * between the viewer and its seller.
   */
  view(viewerId: string | undefined, id: unknown): Promise<MemberResult<ProductRecord>>;
  /** The seller puts their product on the shelf (`on` true) or takes it off. */
  shelve(memberId: string, id: unknown, on: unknown): Promise<MemberResult<ProductRecord>>;
  /** The seller's own products, newest first; `status` one of them or undefined for all. */
  mine(memberId: string, status: unknown, before: unknown): Promise<MemberResult<ProductRecord[]>>;
  /**
   * Products on sale, newest first: of classification `category`, of shop `shopId`, or whose title holds `keyword`
   * (as articles are searched: at most 20 characters, trimmed).
   */
  onSale(
    viewerId: string | undefined,
    filter: { category?: unknown; shopId?: unknown; keyword?: unknown; before: unknown },
  ): Promise<MemberResult<ProductRecord[]>>;
  /**
   * The operator's review: `pass` puts a product to be reviewed on sale, `reject` rejects it with a `reason`, `ban`
   * prohibits one on sale or off the shelf with a `reason`. `not_pending` when the product is not in such a state.
   */
  review(
    id: string,
    review: { decision: unknown; reason: unknown },
  ): Promise<{ ok: true; value: ProductRecord } | { ok: false; failure: ProductReviewFailure; message: string }>;
  /** The operator's queue: products in `status` (default pending), oldest first. */
  queue(
    status: unknown,
    after: unknown,
  ): Promise<{ ok: true; value: ProductRecord[] } | { ok: false; message: string }>;
  /** The operator adds a classification: `{name, position?}`. */
  addCategory(fields: Record<string, unknown>): Promise<CatalogEditResult<CategoryRecord>>;
  /** The operator changes classification `id`: any of `{name, position}`. */
  updateCategory(id: string, fields: Record<string, unknown>): Promise<CatalogEditResult<CategoryRecord>>;
  /** The operator removes classification `id`: its products stay, under none. */
  removeCategory(id: string): Promise<CatalogEditResult<CategoryRecord>>;
  /**
   * The member keeps product `id` as a favourite (`on` true: one they can see, at most
   * {@link PRODUCT_LIMITS.favouritesMax}) or lets it go (false).
   */
  keep(memberId: string, id: unknown, on: unknown): Promise<MemberResult<{ collected: boolean }>>;
  /** Which of `productIds` the member keeps as favourites. */
  kept(memberId: string, productIds: readonly string[]): Promise<Set<string>>;
  /** The member looked at `product`: their browsing history takes it, unless it is their own. */
  looked(memberId: string, product: ProductRecord): Promise<void>;
  /** The member's favourites or browsing history, the latest first. */
  marks(memberId: string, list: ProductList, before: unknown): Promise<MemberResult<MarkedProduct[]>>;
  /** Takes products `ids` (1 to 100), or all when undefined, out of the member's `list`; answers how many. */
  unmark(memberId: string, list: ProductList, ids: unknown): Promise<MemberResult<number>>;
}

const STATUSES: readonly ProductStatus[] = ['pending', 'on_sale', 'rejected', 'off_shelf', 'banned'];

/** An amount in yuan as fen: more than 0, at most two decimals; undefined otherwise. */
export function yuanInFen(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const fen = Math.round(value * FEN);
  if (Math.abs(fen - value * FEN) > 1e-6) return undefined;
  return fen > 0 ? fen : undefined;
}

/** A price in yuan as fen: more than 0, at most the bound, at most two decimals; undefined otherwise. */
export function priceInFen(value: unknown): number | undefined {
  const fen = yuanInFen(value);
  return fen !== undefined && fen <= PRODUCT_LIMITS.priceMaxYuan * FEN ? fen : undefined;
}

/** A product's fields as the seller sends them, checked in spec §5's order; or the first failure. */
function productFields(input: ProductInput): ProductFields | { failure: MemberFailure } {
  const { images } = input;
  if (images === undefined || images.length === 0 || new Set(images).size !== images.length) {
    return { failure: 'product_images_invalid' };
  }
  const title = lineOf(input.title, PRODUCT_LIMITS.titleMax);
  if (title === undefined || [...title].length < 2) return { failure: 'product_title_invalid' };
  const price = priceInFen(input.price);
  if (price === undefined) return { failure: 'product_price_invalid' };
  if (!isRowKey(input.category) || input.category === undefined) return { failure: 'category_missing' };
  const { stock } = input;
  if (typeof stock !== 'number' || !Number.isInteger(stock) || stock < 0 || stock > PRODUCT_LIMITS.stockMax) {
    return { failure: 'product_stock_invalid' };
  }
  const content = writtenText(input.content, PRODUCT_LIMITS.contentMax);
  if (content === undefined) return { failure: 'product_content_invalid' };
  return { images, title, price, categoryId: input.category, stock, content };
}

/** The checked fields of the operator's change of a classification, or why they are refused. */
function categoryFields(
  fields: Record<string, unknown>,
  required: boolean,
): { name?: string; position?: number; fresh?: boolean } | Extract<CatalogEditResult<CategoryRecord>, { ok: false }> {
  const out: { name?: string; position?: number; fresh?: boolean } = {};
  if (fields['name'] !== undefined || required) {
    const name = lineOf(fields['name'], PRODUCT_LIMITS.categoryNameMax);
    if (name === undefined) return badRequest(`name must be 1 to ${PRODUCT_LIMITS.categoryNameMax} characters.`);
    out.name = name;
  }
  const position = fields['position'];
  if (position !== undefined) {
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < 0 ||
      position > PRODUCT_LIMITS.positionMax
    ) {
      return badRequest(`position must be a whole number from 0 to ${PRODUCT_LIMITS.positionMax}.`);
    }
    out.position = position;
  }
  const fresh = fields['fresh'];
  if (fresh !== undefined) {
    if (typeof fresh !== 'boolean') return badRequest('fresh must be true or false.');
    out.fresh = fresh;
  }
  return out;
}

/** Creates the product service over the store. */
export function createProductService(deps: {
  products: ProductStore;
  now: () => number;
  /** Whether a block stands between two members, either way. */
  blocked: (a: string, b: string) => Promise<boolean>;
  /** Told of each review, after it is stored. */
  onReviewed?: (record: ProductRecord) => Promise<void>;
}): ProductService {
  const { products } = deps;
  const notFound = { ok: false, failure: 'not_found', message: 'classification does not exist.' } as const;
  const missing = { ok: false, failure: 'product_missing' } as const;
  const badReview = (message: string) => ({ ok: false as const, failure: 'bad_review' as const, message });
  const service: ProductService = {
    categories: () => products.categories(),
    async add(memberId, input) {
      const fields = productFields(input);
      if ('failure' in fields) return { ok: false, failure: fields.failure };
      const now = deps.now();
      const record = { ...fields, id: randomBytes(8).toString('hex'), memberId, createdAt: now };
      const outcome = await products.add(record, {
        since: now - PRODUCT_LIMITS.windowMs,
        max: PRODUCT_LIMITS.maxPerWindow,
      });
      if (outcome === 'no_shop') return { ok: false, failure: 'shop_not_open' };
      if (outcome === 'no_category') return { ok: false, failure: 'category_missing' };
      if (outcome === 'limit') return { ok: false, failure: 'product_limit' };
      if (outcome === 'missing') return { ok: false, failure: 'user_missing' };
      const stored = await products.byId(record.id);
      return stored ? { ok: true, value: stored } : missing;
    },
    async edit(memberId, id, input) {
      if (!isRowKey(id) || id === undefined) return missing;
      const fields = productFields(input);
      if ('failure' in fields) return { ok: false, failure: fields.failure };
      const edited = await products.edit(memberId, id, fields);
      if (edited === 'no_category') return { ok: false, failure: 'category_missing' };
      return edited ? { ok: true, value: edited } : missing;
    },
    async view(viewerId, id) {
      if (!isRowKey(id) || id === undefined) return missing;
      const product = await products.byId(id);
      if (!product) return missing;
      if (product.memberId === viewerId) return { ok: true, value: product };
      if (product.status !== 'on_sale') return missing;
      // Blocked users cannot see each other's works (spec §5).
      if (viewerId !== undefined && (await deps.blocked(viewerId, product.memberId))) return missing;
      return { ok: true, value: product };
    },
    async keep(memberId, id, on) {
      if (typeof on !== 'boolean') return { ok: false, failure: 'bad_params' };
      if (!on) {
        if (!isRowKey(id) || id === undefined) return missing;
        await products.unmark(memberId, 'favourite', [id]);
        return { ok: true, value: { collected: false } };
      }
      const product = await service.view(memberId, id);
      if (!product.ok) return product;
      const outcome = await products.mark(memberId, 'favourite', product.value.id, {
        now: deps.now(),
        max: PRODUCT_LIMITS.favouritesMax,
      });
      if (outcome === 'limit') return { ok: false, failure: 'favourite_limit' };
      if (outcome === 'missing') return { ok: false, failure: 'user_missing' };
      return { ok: true, value: { collected: true } };
    },
    kept: (memberId, productIds) => products.marked(memberId, 'favourite', productIds),
    async looked(memberId, product) {
      if (product.memberId === memberId) return;
      await products.mark(memberId, 'history', product.id, { now: deps.now(), max: PRODUCT_LIMITS.historyMax });
    },
    async marks(memberId, list, before) {
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const page = await products.marks(memberId, list, { before, limit: PRODUCT_LIMITS.pageSize });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },
    async unmark(memberId, list, ids) {
      if (ids === undefined) return { ok: true, value: await products.unmark(memberId, list, 'all') };
      const valid =
        Array.isArray(ids) &&
        ids.length > 0 &&
        ids.length <= PRODUCT_LIMITS.unmarkMax &&
        ids.every((id) => typeof id === 'string' && id !== '' && isRowKey(id));
      if (!valid) return { ok: false, failure: 'bad_params' };
      return { ok: true, value: await products.unmark(memberId, list, ids as string[]) };
    },
    async shelve(memberId, id, on) {
      if (typeof on !== 'boolean') return { ok: false, failure: 'bad_params' };
      if (!isRowKey(id) || id === undefined) return missing;
      const changed = await products.shelve(memberId, id, on);
      return changed ? { ok: true, value: changed } : missing;
    },
    async mine(memberId, status, before) {
      if (status !== undefined && !STATUSES.includes(status as ProductStatus))
        return { ok: false, failure: 'bad_params' };
      if (!isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const page = await products.bySeller(memberId, {
        status: status as ProductStatus | undefined,
        before,
        limit: PRODUCT_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },
    async onSale(viewerId, { category, shopId, keyword, before }) {
      if (!isRowKey(category) || !isRowKey(shopId) || !isRowKey(before)) return { ok: false, failure: 'bad_params' };
      const words = searchWords(keyword);
      if (words === false) return { ok: false, failure: 'bad_params' };
      const page = await products.onSale({
        viewerId,
        categoryId: category,
        shopId,
        keyword: words,
        before,
        limit: PRODUCT_LIMITS.pageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, failure: 'bad_params' };
    },
    async review(id, { decision, reason }) {
      if (decision !== 'pass' && decision !== 'reject' && decision !== 'ban') {
        return badReview('decision must be pass, reject or ban.');
      }
      const why = decision === 'pass' ? '' : lineOf(reason, PRODUCT_LIMITS.reasonMax);
      if (why === undefined) return badReview(`reason is required: 1 to ${PRODUCT_LIMITS.reasonMax} characters.`);
      const reviewed =
        isRowKey(id) && id !== undefined
          ? await products.review(id, { decision, reason: why, now: deps.now() })
          : undefined;
      if (!reviewed) return { ok: false, failure: 'not_pending', message: 'no such product in a state to decide on' };
      await deps.onReviewed?.(reviewed);
      return { ok: true, value: reviewed };
    },
    async queue(status, after) {
      const wanted = status ?? 'pending';
      if (!STATUSES.includes(wanted as ProductStatus)) {
        return { ok: false, message: 'status must be pending, on_sale, rejected, off_shelf or banned.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a product id listed.' };
      const page = await products.list({ status: wanted as ProductStatus, after, limit: PRODUCT_LIMITS.queuePageSize });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a product id listed.' };
    },
    async addCategory(fields) {
      const checked = categoryFields(fields, true);
      if ('ok' in checked) return checked;
      const record: CategoryRecord = {
        id: randomBytes(8).toString('hex'),
        name: checked.name as string,
        position: checked.position ?? 0,
        fresh: checked.fresh ?? false,
        createdAt: deps.now(),
      };
      const outcome = await products.addCategory(record, PRODUCT_LIMITS.categoriesMax);
      if (outcome === 'name_taken') return badRequest('a classification of that name exists.');
      if (outcome === 'limit') return badRequest(`at most ${PRODUCT_LIMITS.categoriesMax} classifications.`);
      return { ok: true, value: record };
    },
    async updateCategory(id, fields) {
      const checked = categoryFields(fields, false);
      if ('ok' in checked) return checked;
      const outcome = await products.updateCategory(id, checked);
      if (outcome === undefined) return notFound;
      if (outcome === 'name_taken') return badRequest('a classification of that name exists.');
      const category = await products.category(id);
      return category ? { ok: true, value: category } : notFound;
    },
    async removeCategory(id) {
      const category = await products.category(id);
      if (!category) return notFound;
      return (await products.removeCategory(id, deps.now())) ? { ok: true, value: category } : notFound;
    },
  };
  return service;
}
