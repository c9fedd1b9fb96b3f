import { apiPost, type CallContext } from '../api/request';

/** A nickname has 1 to this many characters after trimming (the server's `member/profile_update` rule). */
export const NICKNAME_MAX_LENGTH = 20;

/** Image types the app uploads, for avatars and screenshots (spec §5: gif, jpg, png, jpeg). */
export const PRODUCT_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif'] as const;

/** Whether `file` is an image the app may upload, by its type or, when the browser gives none, its name. */
export function isProductImage(file: File): boolean {
  const subtype = /^image\/(.+)$/.exec(file.type.toLowerCase())?.[1];
  const extension = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
  const kind = subtype ?? (file.type === '' ? extension : '');
  return (PRODUCT_IMAGE_EXTENSIONS as readonly string[]).includes(kind);
}

/** Why a nickname cannot be saved, or undefined when it can. */
export function nicknameProblem(value: string): 'empty' | 'too_long' | undefined {
  const length = [...value.trim()].length;
  if (length === 0) return 'empty';
  return length > NICKNAME_MAX_LENGTH ? 'too_long' : undefined;
}

/** The member's public face as `member/profile_update` answers it. */
export interface MemberProfile {
  id: string;
  username: string;
  img: string;
}

/** Saves the nickname and/or the avatar (the URL of an uploaded image); resolves with the profile as saved. */
export async function updateProfile(
  changes: { username?: string; img?: string },
  context: CallContext,
): Promise<MemberProfile> {
  return (await apiPost<{ ret: MemberProfile }>('member/profile_update', changes, context, { loading: true })).ret;
}
