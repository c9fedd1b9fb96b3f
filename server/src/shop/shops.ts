import { randomBytes } from 'node:crypto';
import type { ShopRecord, ShopStatus, ShopStore } from '../store/index.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberResult } from '../members/service.js';
import { writtenText } from '../content/text.js';

/** Bounds of a shop's application (docs/limits.md). */
export const SHOP_LIMITS = {
  /** The shop's name: 2 to this many characters after trimming, one line. */
  nameMaxLength: 20,
  /** The shop's description: 1 to this many characters after trimming. */
  introMaxLength: 200,
  /** Why the operator rejected an application: 1 to this many characters. */
  reasonMaxLength: 100,
  /** A page of the operator's review queue. */
  queuePageSize: 50,
} as const;

/** An application as the product API hands it over: the icon already checked as an image the member uploaded. */
export interface ShopApplication {
  name: unknown;
  /** Undefined when it is not an image of the member's. */
  icon: string | undefined;
  intro: unknown;
}

/** Why the operator's review of an application was refused. */
export type ShopReviewFailure = 'not_pending' | 'bad_review';

/**
 * Small-shop applications (spec §2 shop/user-add, §4 "under review (cannot be edited), rejected (resubmit),
 * approved", §5 "Shop application needs an icon, a name and a description", §6 "Shop owner: needs real-name
 * certification, then shop approval"). No HTTP here.
 */
export interface ShopService {
  /** The member's shop and its application, if any. */
  mine(memberId: string): Promise<ShopRecord | undefined>;
  /** Shop `id` if it is open. */
  open(id: string): Promise<ShopRecord | undefined>;
  /**
   * The shop's page (spec §2 shop/shop): shop `id` when it is open and no block stands between `viewerId` and its
   * member (blocked users cannot see each other's works, spec §5); `shop_missing` otherwise.
   */
  visit(viewerId: string | undefined, id: unknown): Promise<MemberResult<ShopRecord>>;
  /**
   * Submits the member's application: refused when a field is not valid, before their real-name certification has
   * passed, while one is under review, once the shop is open, or when another shop has the name.
   */
  apply(memberId: string, application: ShopApplication): Promise<MemberResult<ShopRecord>>;
  /**
   * The operator's review: approves (`pass` true) or rejects with a `reason` shop `id`'s application made at
   * `submittedAt`. `not_pending` when that application is not under review (none, reviewed already, or replaced).
   */
  review(
    id: string,
    review: { pass: unknown; reason: unknown; submittedAt: unknown },
  ): Promise<{ ok: true; value: ShopRecord } | { ok: false; failure: ShopReviewFailure; message: string }>;
  /** The operator's queue: shops in `status` (default pending), oldest first; `after` the last id seen. */
  queue(status: unknown, after: unknown): Promise<{ ok: true; value: ShopRecord[] } | { ok: false; message: string }>;
}

const STATUSES: readonly ShopStatus[] = ['pending', 'rejected', 'approved'];

/** Creates the shop service over the store. */
export function createShopService(deps: {
  shops: ShopStore;
  now: () => number;
  /** Whether a block stands between two members, either way. */
  blocked: (a: string, b: string) => Promise<boolean>;
  /** Told of each review, after it is stored. */
  onReviewed?: (record: ShopRecord) => Promise<void>;
}): ShopService {
  const { shops } = deps;
  const badReview = (message: string) => ({ ok: false as const, failure: 'bad_review' as const, message });
  const open = async (id: string) => {
    const shop = isRowKey(id) && id !== undefined ? await shops.byId(id) : undefined;
    return shop?.status === 'approved' ? shop : undefined;
  };
  return {
    mine: (memberId) => shops.byMember(memberId),
    open,
    async visit(viewerId, id) {
      const shop = typeof id === 'string' ? await open(id) : undefined;
      if (!shop) return { ok: false, failure: 'shop_missing' };
      if (viewerId !== undefined && viewerId !== shop.memberId && (await deps.blocked(viewerId, shop.memberId))) {
        return { ok: false, failure: 'shop_missing' };
      }
      return { ok: true, value: shop };
    },
    async apply(memberId, { name, icon, intro }) {
      const named = lineOf(name, SHOP_LIMITS.nameMaxLength);
      if (named === undefined || [...named].length < 2) return { ok: false, failure: 'shop_name_invalid' };
      if (icon === undefined) return { ok: false, failure: 'shop_icon_invalid' };
      const text = writtenText(intro, SHOP_LIMITS.introMaxLength);
      if (text === undefined) return { ok: false, failure: 'shop_intro_invalid' };
      const record = {
        id: randomBytes(8).toString('hex'),
        memberId,
        name: named,
        icon,
        intro: text,
        submittedAt: deps.now(),
      };
      const outcome = await shops.apply(record);
      if (outcome === 'uncertified') return { ok: false, failure: 'shop_cert_required' };
      if (outcome === 'pending') return { ok: false, failure: 'shop_pending' };
      if (outcome === 'approved') return { ok: false, failure: 'shop_approved' };
      if (outcome === 'name_taken') return { ok: false, failure: 'shop_name_taken' };
      if (outcome === 'missing') return { ok: false, failure: 'user_missing' };
      // A resubmission keeps the shop's id.
      const stored = await shops.byMember(memberId);
      return { ok: true, value: stored ?? { ...record, status: 'pending', reason: '' } };
    },
    async review(id, { pass, reason, submittedAt }) {
      if (typeof pass !== 'boolean') return badReview('pass must be boolean.');
      if (typeof submittedAt !== 'number' || !Number.isSafeInteger(submittedAt)) {
        return badReview('submittedAt must be the application time.');
      }
      const why = pass ? '' : lineOf(reason, SHOP_LIMITS.reasonMaxLength);
      if (why === undefined) return badReview(`reason is required: 1 to ${SHOP_LIMITS.reasonMaxLength} characters.`);
      const reviewed =
        isRowKey(id) && id !== undefined
          ? await shops.review(id, { submittedAt, pass, reason: why, now: deps.now() })
          : undefined;
      if (!reviewed) return { ok: false, failure: 'not_pending', message: 'no such shop application under review' };
      await deps.onReviewed?.(reviewed);
      return { ok: true, value: reviewed };
    },
    async queue(status, after) {
      const wanted = status ?? 'pending';
      if (!STATUSES.includes(wanted as ShopStatus)) {
        return { ok: false, message: 'status must be pending, rejected or approved.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a shop id listed.' };
      const page = await shops.list({ status: wanted as ShopStatus, after, limit: SHOP_LIMITS.queuePageSize });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a shop id listed.' };
    },
  };
}
