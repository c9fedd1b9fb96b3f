import { apiPost, type CallContext } from '../api/request';
import type { Order } from './orders';

/**
 * What a guarantee claim is about (spec §9): goods that arrived damaged ("Damage refund: within 72 hours (24 hours for
 * food and fresh items)"), or goods that are counterfeit ("Counterfeit compensation: four times").
 */
export const CLAIM_KINDS = ['damage', 'counterfeit'] as const;

/** One of {@link CLAIM_KINDS}. */
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/**
 * Where a claim stands: waiting for the platform's decision (`pending`), upheld (the money went back, with the
 * compensation of a counterfeit), rejected with a reason, or cancelled by the buyer (who may file it again in time).
 */
export type ClaimStatus = 'pending' | 'upheld' | 'rejected' | 'cancelled';

/** A guarantee claim on an order, as the order carries its latest; money in yuan, times in ms. */
export interface Claim {
  id: string;
  kind: ClaimKind;
  description: string;
  images: string[];
  status: ClaimStatus;
  /** Why the platform decided so: given on a rejection, maybe on an upholding; null without one. */
  reason: string | null;
  /** What went back to the buyer; 0 unless upheld. */
  refund: number;
  /** What the buyer got besides, for an upheld counterfeit; 0 otherwise. */
  compensation: number;
  created_at: number;
  decided_at: number | null;
}

/** Bounds of a claim; the server checks the same. */
export const CLAIM_LIMITS = { descriptionMax: 100, imagesMax: 3 } as const;

/** Whether `value` names a kind of claim. */
export function isClaimKind(value: unknown): value is ClaimKind {
  return CLAIM_KINDS.some((kind) => kind === value);
}

/** The order's claim while it waits for the platform, else undefined. */
export function pendingClaim(order: Order): Claim | undefined {
  return order.claim?.status === 'pending' ? order.claim : undefined;
}

/** Until when a claim of `kind` on `order` can be filed, or null when its window has not started or it cannot be. */
export function claimUntil(order: Order, kind: ClaimKind): number | null {
  return kind === 'damage' ? order.damage_until : order.counterfeit_until;
}

/** The target of the claim form of `kind` for order `id`. */
export function claimTarget(id: string, kind: ClaimKind): string {
  return `shop/user-claim?${new URLSearchParams({ id, kind }).toString()}`;
}

/** What the claim form holds: the description, and how many images are picked. */
export interface ClaimDraft {
  description: string;
  images: number;
}

/**
 * What is wrong with a claim before its images are uploaded, or undefined, in the server's order: a description of 1
 * to 100 characters after trimming, 1 to 3 images.
 */
export function claimProblem(draft: ClaimDraft): 'claim_description_invalid' | 'claim_images_invalid' | undefined {
  const description = [...draft.description.trim()].length;
  if (description < 1 || description > CLAIM_LIMITS.descriptionMax) return 'claim_description_invalid';
  if (draft.images < 1 || draft.images > CLAIM_LIMITS.imagesMax) return 'claim_images_invalid';
  return undefined;
}

/** The buyer files a claim of `kind` on their order `id`, with the description and the uploaded images' URLs. */
export async function fileClaim(
  { id, kind, description, images }: { id: string; kind: ClaimKind; description: string; images: readonly string[] },
  context: CallContext,
): Promise<Order> {
  const body = { id, kind, description: description.trim(), images: [...images] };
  return (await apiPost<{ ret: Order }>('shop/claim_add', body, context, { loading: true })).ret;
}

/** The buyer cancels their claim on order `id` while it waits for the platform. */
export async function cancelClaim(id: string, context: CallContext): Promise<Order> {
  return (await apiPost<{ ret: Order }>('shop/claim_cancel', { id }, context, { loading: true })).ret;
}
