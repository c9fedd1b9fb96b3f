import { PRODUCT_IMAGE_EXTENSIONS } from '../../uploads/product.js';
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
