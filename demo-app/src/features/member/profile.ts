import { apiPost, type CallContext } from '../api/request';
import type { Gender } from './api';

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

/** Today in the member's own time zone, `YYYY-MM-DD`: the latest birthday. */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Why a nickname cannot be saved, or undefined when it can. */
export function nicknameProblem(value: string): 'empty' | 'too_long' | undefined {
  const length = [...value.trim()].length;
  if (length === 0) return 'empty';
  return length > NICKNAME_MAX_LENGTH ? 'too_long' : undefined;
}

/** The signature has at most this many characters after trimming (the server's rule). */
export const QIANMING_MAX_LENGTH = 60;

/** The region has at most this many characters after trimming (the server's rule). */
export const REGION_MAX_LENGTH = 30;

/** The earliest birthday the server takes. */
export const BIRTHDAY_MIN = '1900-01-01';

/** The member's own profile as `member/profile_update` answers it. */
export interface MemberProfile {
  id: string;
  username: string;
  img: string;
  gender: Gender;
  birthday: string;
  region: string;
  qianming: string;
  background: string;
}

/** What `member/profile_update` changes: any of these; '' clears the birthday, region, signature and background. */
export type ProfileChanges = Partial<Omit<MemberProfile, 'id'>>;

/** Saves some of the profile (images as the URLs of uploaded files); resolves with the profile as saved. */
export async function updateProfile(changes: ProfileChanges, context: CallContext): Promise<MemberProfile> {
  return (await apiPost<{ ret: MemberProfile }>('member/profile_update', changes, context, { loading: true })).ret;
}
