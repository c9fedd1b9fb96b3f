import { randomBytes } from 'node:crypto';
import { writtenText } from '../content/text.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import { CLAIM_KINDS, CLAIM_STATUSES } from '../store/order-claims.js';
import { OPEN_REFUND } from '../store/orders.js';
import type {
  ClaimDecision,
  ClaimFileFailure,
  ClaimKind,
  ClaimRecord,
  ClaimStatus,
  OrderRecord,
  OrderStore,
} from '../store/index.js';
import { SERVICE_GUARANTEES } from './guarantees.js';

/** Bounds of guarantee claims (docs/limits.md). */
export const CLAIM_LIMITS = {
  /** What the buyer says is wrong: 1 to this many characters after trimming. */
  descriptionMax: 100,
  /** The buyer's photos: 1 to this many, uploaded by the buyer. */
  imagesMax: 3,
  /** Why the operator decided so: 1 to this many characters, one line (required to reject). */
  reasonMax: 100,
  /** A page of the operator's queue. */
  queuePageSize: 50,
} as const;

/** A claim as the product API hands it over: the images already checked as the buyer's own uploads. */
export interface ClaimInput {
  kind: unknown;
  description: unknown;
  /** Undefined when they are not at most 3 images of the member's. */
  images: string[] | undefined;
}

/** What a member may claim on an order now, and until when. */
export interface ClaimOptions {
  /** Whether the member may file a claim of each kind now. */
  claimable: Record<ClaimKind, boolean>;
  /** When each kind's time ends; null when it is not claimable, or while the order is shipped (not started). */
  until: Record<ClaimKind, number | null>;
}

/** How long after its completion an order may be claimed on for `kind`. */
export function claimWindowMs(kind: ClaimKind, fresh: boolean): number {
  if (kind === 'counterfeit') return SERVICE_GUARANTEES.counterfeitClaimMs;
  return fresh ? SERVICE_GUARANTEES.damageRefundFreshMs : SERVICE_GUARANTEES.damageRefundMs;
}

/**
 * What `viewerId` may claim on `record` at `now`: only its buyer, on a shipped order or a completed one within the
 * kind's time, with no claim pending, no refund under way and the kind not decided on it before.
 */
export function claimOptions(record: OrderRecord, viewerId: string, now: number): ClaimOptions {
  const open =
    record.buyerId === viewerId &&
    (record.status === 'shipped' || record.status === 'completed') &&
    record.claim?.status !== 'pending' &&
    !(record.refund && OPEN_REFUND.includes(record.refund.status));
  const of = (kind: ClaimKind) => {
    if (!open || record.claimsDecided.includes(kind)) return { claimable: false, until: null };
    if (record.status === 'shipped' || record.completedAt === undefined) return { claimable: true, until: null };
    const until = record.completedAt + claimWindowMs(kind, record.fresh);
    return now <= until ? { claimable: true, until } : { claimable: false, until: null };
  };
  const damage = of('damage');
  const counterfeit = of('counterfeit');
  return {
    claimable: { damage: damage.claimable, counterfeit: counterfeit.claimable },
    until: { damage: damage.until, counterfeit: counterfeit.until },
  };
}

type Listed = { ok: true; value: ClaimRecord[] } | { ok: false; message: string };
type Decided = { ok: true; value: ClaimRecord } | { ok: false; failure: 'not_pending' | 'bad_review'; message: string };

/**
 * Guarantee claims (spec §9 "Damage refund: within 72 hours (24 hours for food and fresh items)", "Counterfeit
 * compensation: four times"): the buyer of a shipped or completed order claims that the goods arrived damaged (while
 * shipped, or within {@link SERVICE_GUARANTEES.damageRefundMs} of completion, {@link
 * SERVICE_GUARANTEES.damageRefundFreshMs} for an order holding a product of a fresh category) or are counterfeit
 * (while shipped, or within {@link SERVICE_GUARANTEES.counterfeitClaimMs}), with a description and photos; one claim
 * pending per order, none while a refund is under way, and a kind decided once per order. A pending claim holds the
 * order: its seller is not paid, time does not complete it, and no refund is asked for. The operator upholds or
 * rejects it: upheld, the order is refunded and ends, the buyer keeps the goods and gets the total back, and for a
 * counterfeit {@link SERVICE_GUARANTEES.counterfeitTimes} times it too, charged to the seller (see
 * `OrderStore.decideClaim`). No HTTP here.
 */
export interface ClaimService {
  /** The buyer files a claim of `kind` on their order `orderId`. */
  file(buyerId: string, orderId: unknown, input: ClaimInput): Promise<MemberResult<OrderRecord>>;
  /** The buyer cancels the claim pending on their order; they may file again within the time. */
  cancel(buyerId: string, orderId: unknown): Promise<MemberResult<OrderRecord>>;
  /** The operator's queue: claims in `status` (`pending` by default), oldest first, after claim `after`. */
  queue(status: unknown, after: unknown): Promise<Listed>;
  /** The operator decides pending claim `id`: `decision` `uphold` or `reject`, `reason` required to reject. */
  decide(id: unknown, fields: { decision: unknown; reason: unknown }): Promise<Decided>;
}

/** What a refused claim is answered as. */
const FILE_FAILURES: Record<ClaimFileFailure, MemberFailure> = {
  missing: 'order_missing',
  state: 'order_state',
  open: 'claim_open',
  refund: 'refund_open',
  decided: 'claim_decided',
  window: 'claim_window_passed',
};

/** The operator's reason: required to reject, optional to uphold; undefined when it is not valid. */
function reasonOf(decision: 'uphold' | 'reject', reason: unknown): string | undefined {
  if (decision === 'uphold' && (reason === undefined || reason === null || reason === '')) return '';
  return lineOf(reason, CLAIM_LIMITS.reasonMax);
}

/** Creates the claim service over the order store. */
export function createClaimService(deps: {
  orders: OrderStore;
  /** Settles what time settled (`OrderService.settle`), as every order call does first. */
  settle: () => Promise<void>;
  now: () => number;
  /** Told of each claim filed and each decided, after it is stored (the order with its claim). */
  onClaim?: (record: OrderRecord) => Promise<void>;
}): ClaimService {
  const { orders } = deps;
  const missing = { ok: false, failure: 'order_missing' } as const;
  /** The buyer's order `id`, or undefined. */
  const bought = async (buyerId: string, id: unknown) => {
    if (typeof id !== 'string' || !isRowKey(id)) return undefined;
    const order = await orders.byId(id);
    return order?.buyerId === buyerId ? order : undefined;
  };
  const notPending = { ok: false, failure: 'not_pending', message: 'no such claim in a state to decide on' } as const;
  const badReview = (message: string) => ({ ok: false as const, failure: 'bad_review' as const, message });
  return {
    async file(buyerId, orderId, { kind, description, images }) {
      const order = await bought(buyerId, orderId);
      if (!order) return missing;
      if (!CLAIM_KINDS.includes(kind as ClaimKind)) return { ok: false, failure: 'claim_kind_invalid' };
      const text = writtenText(description, CLAIM_LIMITS.descriptionMax);
      if (text === undefined) return { ok: false, failure: 'claim_description_invalid' };
      if (images === undefined || images.length === 0 || new Set(images).size !== images.length) {
        return { ok: false, failure: 'claim_images_invalid' };
      }
      await deps.settle();
      const now = deps.now();
      const filed = await orders.fileClaim({
        id: randomBytes(8).toString('hex'),
        orderId: order.id,
        buyerId,
        kind: kind as ClaimKind,
        description: text,
        images,
        since: now - claimWindowMs(kind as ClaimKind, false),
        freshSince: now - claimWindowMs(kind as ClaimKind, true),
        now,
      });
      if (!filed.ok) return { ok: false, failure: FILE_FAILURES[filed.failure] };
      await deps.onClaim?.(filed.value);
      return filed;
    },
    async cancel(buyerId, orderId) {
      const order = await bought(buyerId, orderId);
      if (!order) return missing;
      await deps.settle();
      const cancelled = await orders.cancelClaim(buyerId, order.id);
      return cancelled ? { ok: true, value: cancelled } : { ok: false, failure: 'claim_missing' };
    },
    async queue(status, after) {
      const wanted = status ?? 'pending';
      if (!CLAIM_STATUSES.includes(wanted as ClaimStatus)) {
        return { ok: false, message: 'status must be pending, upheld, rejected or cancelled.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a claim id listed.' };
      const page = await orders.claims({
        status: wanted as ClaimStatus,
        after,
        limit: CLAIM_LIMITS.queuePageSize,
      });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a claim id listed.' };
    },
    async decide(id, { decision, reason }) {
      if (decision !== 'uphold' && decision !== 'reject') return badReview('decision must be uphold or reject.');
      const why = reasonOf(decision, reason);
      if (why === undefined) {
        return badReview(
          decision === 'reject'
            ? `reason is required: 1 to ${CLAIM_LIMITS.reasonMax} characters.`
            : `reason must be 1 to ${CLAIM_LIMITS.reasonMax} characters.`,
        );
      }
      if (typeof id !== 'string' || !isRowKey(id)) return notPending;
      const decided: ClaimDecision =
        decision === 'uphold'
          ? { uphold: true, reason: why, times: SERVICE_GUARANTEES.counterfeitTimes }
          : { uphold: false, reason: why };
      await deps.settle();
      const order = await orders.decideClaim(id, decided, deps.now());
      if (!order?.claim) return notPending;
      await deps.onClaim?.(order);
      return { ok: true, value: order.claim };
    },
  };
}
