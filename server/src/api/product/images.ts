import { PRODUCT_IMAGE_EXTENSIONS, PRODUCT_VIDEO_EXTENSIONS } from '../../uploads/product.js';
import type { ProductApiDeps } from './index.js';

/**
 * `value` as a list of at most `max` images (gif, jpg, jpeg or png) member `memberId` uploaded with
 * `member/qiniu_token`; undefined when it is not an array, is longer, or holds anything else.
 */
export async function ownImages(
  deps: ProductApiDeps,
  memberId: string,
  value: unknown,
  max: number,
): Promise<string[] | undefined> {
  if (!Array.isArray(value) || value.length > max) return undefined;
  const { app, service } = deps.uploads;
  if (app === undefined) return value.length === 0 ? [] : undefined;
  for (const url of value) {
    if (!(await service.isProductFile({ app, memberId, url, extensions: PRODUCT_IMAGE_EXTENSIONS }))) return undefined;
  }
  return value as string[];
}

/**
 * `value` as one file member `memberId` uploaded with `member/qiniu_token`: a video (avi, mov, rmvb, rm, flv, mp4 or
 * 3gp) for `kind` `video`, an image for `image`; undefined when it is anything else.
 */
export async function ownFile(
  deps: ProductApiDeps,
  memberId: string,
  value: unknown,
  kind: 'video' | 'image',
): Promise<string | undefined> {
  const { app, service } = deps.uploads;
  if (app === undefined || typeof value !== 'string') return undefined;
  const extensions = kind === 'video' ? PRODUCT_VIDEO_EXTENSIONS : PRODUCT_IMAGE_EXTENSIONS;
  return (await service.isProductFile({ app, memberId, url: value, extensions })) ? value : undefined;
}
