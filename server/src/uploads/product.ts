import { MEDIA_TYPES } from '../protocol.js';
import { STORED_NAME_PREFIX, appTag } from './keys.js';

/**
 * The product app's uploads (spec §7 `member/qiniu_token`): a Qiniu-style form. The app asks for a token, makes a
 * key of the token's prefix and 32 random characters (spec §9), and posts `token`, `key` and `file`. The token is
 * the ALI policy and signature in one string, so the storage checks it exactly as it checks an ALI form.
 */

/** Image extensions the product app uploads (spec §5: gif, jpg, png, jpeg). */
export const PRODUCT_IMAGE_EXTENSIONS: readonly string[] = MEDIA_TYPES.image;

/** Video extensions the product app uploads (spec §5; `quicktime` is a type, not a name). */
export const PRODUCT_VIDEO_EXTENSIONS: readonly string[] = MEDIA_TYPES.video.filter((type) => type !== 'quicktime');

/** Every extension a product upload may have: the spec's images and videos. */
export const PRODUCT_UPLOAD_EXTENSIONS: readonly string[] = [...MEDIA_TYPES.image, ...PRODUCT_VIDEO_EXTENSIONS];

/** Length of the random part of a product key (spec §9). */
export const PRODUCT_KEY_RANDOM_LENGTH = 32;

/** Content types a product upload's file part may declare: images and videos. */
export const PRODUCT_CONTENT_TYPE_PATTERN = '(image|video)/[A-Za-z0-9!#$&^_.+-]+';

const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The fixed prefix of a member's product keys: `product/<app tag>/<member id>/parley_`. */
export function productKeyPrefix(appkey: string, memberId: string): string {
  // A member id becomes a path segment: anything but a plain name would be a way out of the member's folder.
  if (!MEMBER_ID.test(memberId)) throw new Error(`member id not usable in a key: ${JSON.stringify(memberId)}`);
  return `product/${appTag(appkey)}/${memberId}/${STORED_NAME_PREFIX}`;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The whole-key pattern of a product key under `prefix` with one of `extensions` (a `matches` policy condition). */
export function productKeyPattern(prefix: string, extensions: readonly string[]): string {
  return `${escapeRegex(prefix)}[a-z0-9]{${PRODUCT_KEY_RANDOM_LENGTH}}\\.(${extensions.map(escapeRegex).join('|')})`;
}

/** Whether `key` is a product key under `prefix` with one of `extensions`. */
export function isProductKey(key: string, prefix: string, extensions: readonly string[]): boolean {
  return new RegExp(`^(?:${productKeyPattern(prefix, extensions)})$`, 'u').test(key);
}

/** The parts of an upload token: who signed, the signature, the policy. */
export interface UploadTokenParts {
  accessKeyId: string;
  signature: string;
  policy: string;
}

/** UP-17: `<accessKeyId>:<signature>:<policy>`, Qiniu's token layout (base64 has no colon). */
export function encodeUploadToken(parts: UploadTokenParts): string {
  return `${parts.accessKeyId}:${parts.signature}:${parts.policy}`;
}

/** Splits a token from the right, so that an appkey with a colon still parses; undefined when malformed. */
export function decodeUploadToken(token: string): UploadTokenParts | undefined {
  const last = token.lastIndexOf(':');
  const middle = last > 0 ? token.lastIndexOf(':', last - 1) : -1;
  if (middle <= 0) return undefined;
  const parts = {
    accessKeyId: token.slice(0, middle),
    signature: token.slice(middle + 1, last),
    policy: token.slice(last + 1),
  };
  return parts.signature && parts.policy ? parts : undefined;
}

/** What `member/qiniu_token` hands the app (UP-17). */
export interface ProductUploadToken {
  /** The upload token: `<accessKeyId>:<signature>:<policy>`; with S3 the presigned policy. */
  token: string;
  /** Where the app posts: the same URL `index/config` gives as `aliyun.upload_url`. */
  uploadUrl: string;
  /** Fields to post before `key` and `file`: `{token}` for the server's own storage, the presigned fields for S3. */
  fields: Record<string, string>;
  /** A key is this prefix, 32 random `[a-z0-9]` and `.<extension>`. */
  keyPrefix: string;
  /** A stored file is read at this URL followed by its key. */
  urlPrefix: string;
  /** After this time (ms since the epoch) posts with the token are refused. */
  expiresAt: number;
}
