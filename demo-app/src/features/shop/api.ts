import { apiPost, type CallContext } from '../api/request';

/** The query key of the member's shop. */
export const SHOP_QUERY = 'shop/apply_info';

/** Where a shop's application stands: under review, rejected with a reason (resubmit), or approved. */
export type ShopStatus = 'pending' | 'rejected' | 'approved';

/** The member's shop as `shop/apply_info` gives it. */
export interface Shop {
  id: string;
  name: string;
  /** The URL of the shop's icon. */
  icon: string;
  intro: string;
  status: ShopStatus;
  reason: string;
  submitted_at: number;
  reviewed_at: number | null;
}

/**
 * Whether the member may apply (their real-name certification passed), their shop, if any, and how many of the
 * operator's announcements to sellers they have not read (0 until the shop is open).
 */
export interface ShopInfo {
  certified: boolean;
  shop: Shop | null;
  unread_announcements: number;
}

/** What an application sends. */
export interface ShopDraft {
  name: string;
  icon: string;
  intro: string;
}

/** Bounds of an application; the server checks the same. */
export const SHOP_NAME_MAX = 20;
export const SHOP_INTRO_MAX = 200;

export async function shopInfo(context: CallContext): Promise<ShopInfo> {
  return (await apiPost<{ ret: ShopInfo }>('shop/apply_info', {}, context)).ret;
}

/** Submits (or, once rejected, resubmits) the member's application; it is under review after. */
export async function applyForShop(draft: ShopDraft, context: CallContext): Promise<Shop> {
  return (await apiPost<{ ret: Shop }>('shop/apply', { ...draft }, context, { loading: true })).ret;
}

/**
 * What is wrong with an application before it is sent, or undefined (spec §5 "an icon, a name and a description"): a
 * name of 2 to 20 characters on one line, an uploaded icon, and a description of 1 to 200 characters.
 */
export function shopProblem(
  draft: ShopDraft,
): 'shop_name_invalid' | 'shop_icon_invalid' | 'shop_intro_invalid' | undefined {
  const name = [...draft.name.trim()].length;
  if (name < 2 || name > SHOP_NAME_MAX || /[\r\n]/.test(draft.name.trim())) return 'shop_name_invalid';
  if (!draft.icon) return 'shop_icon_invalid';
  const intro = [...draft.intro.trim()].length;
  if (intro < 1 || intro > SHOP_INTRO_MAX) return 'shop_intro_invalid';
  return undefined;
}
