import { PRODUCT_IMAGE_EXTENSIONS } from '../../uploads/product.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * `member/profile_update`: the member's nickname (`username`, 1 to 20 characters after trimming) and/or avatar
 * (`img`: the URL of a gif, jpg, jpeg or png the member uploaded with `member/qiniu_token`). Answers
 * `{ret: {id, username, img}}`, or `bad_params`, `nickname_invalid`, `img_invalid`.
 */
export function profileRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/profile_update', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const img = body['img'];
    if (img !== undefined) {
      const { app, service } = deps.uploads;
      const ours =
        app !== undefined &&
        (await service.isProductFile({ app, memberId: me.value.id, url: img, extensions: PRODUCT_IMAGE_EXTENSIONS }));
      if (!ours || typeof img !== 'string') return refuse('img_invalid');
    }
    const result = await deps.members.updateProfile(me.value.id, {
      username: body['username'],
      ...(typeof img === 'string' && { img }),
    });
    if (!result.ok) return refuse(result.failure);
    const { id, username, img: avatar } = result.value;
    return { ret: { id, username, img: avatar } };
  });
}
