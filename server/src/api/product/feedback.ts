import type { FeedbackRecord } from '../../store/index.js';
import { FEEDBACK_LIMITS } from '../../members/feedback.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** A feedback as the app shows it. */
function feedbackObject(record: FeedbackRecord) {
  return {
    id: record.id,
    phone: record.phone,
    content: record.content,
    imgs: record.images,
    created_at: record.createdAt,
  };
}

/**
 * `member/feedback_add` (`phone`, `quhao?`, `content`, `imgs?`: up to four URLs of images the member uploaded) answers
 * `{ret: feedback}`; `member/feedback_list` (`before?`: the id of the last one shown) answers `{ret: [feedback]}`, the
 * member's own, newest first, twenty at a time. Both need the member's `token`.
 */
export function feedbackRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/feedback_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const imgs = await ownImages(deps, me.value.id, body['imgs'] ?? [], FEEDBACK_LIMITS.imagesMax);
    if (imgs === undefined) return refuse('feedback_images_invalid');
    const result = await deps.feedback.submit(me.value.id, {
      phone: body['phone'],
      quhao: body['quhao'],
      content: body['content'],
      images: imgs,
    });
    if (!result.ok) return refuse(result.failure);
    return { ret: feedbackObject(result.value) };
  });

  post('member/feedback_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.feedback.list(me.value.id, body['before']);
    if (!result.ok) return refuse(result.failure);
    return { ret: result.value.map(feedbackObject) };
  });
}
