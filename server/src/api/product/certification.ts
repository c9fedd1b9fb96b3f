import { CERTIFICATION_LIMITS } from '../../members/certifications.js';
import { maskNumber } from '../../members/identity.js';
import type { CertificationRecord } from '../../store/index.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** A certification as its member sees it: the number masked, the photos left out. */
export function certificationObject(record: CertificationRecord) {
  return {
    type: record.type,
    name: record.name,
    number: maskNumber(record.number),
    status: record.status,
    reason: record.reason,
    submitted_at: record.submittedAt,
    reviewed_at: record.reviewedAt ?? null,
  };
}

/**
 * Real-name certification (spec §2 member/renzheng): `member/renzheng_info` answers `{ret: certification}` or
 * `{ret: null}` before any; `member/renzheng_add` (`type`: `personal` or `enterprise`, `name`, `number`, `imgs`: the
 * identity card's two sides, or one or two photos of the business licence, images the member uploaded) answers
 * `{ret: certification}`, under review. A certification is `{type, name, number (masked), status (pending, failed,
 * passed), reason, submitted_at, reviewed_at}`. Both need the member's `token`.
 */
export function certificationRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/renzheng_info', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const latest = await deps.certifications.latest(me.value.id);
    return { ret: latest ? certificationObject(latest) : null };
  });

  post('member/renzheng_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const max = Math.max(CERTIFICATION_LIMITS.personImages, CERTIFICATION_LIMITS.organisationImagesMax);
    const imgs = await ownImages(deps, me.value.id, body['imgs'] ?? [], max);
    if (imgs === undefined) return refuse('cert_images_invalid');
    const result = await deps.certifications.submit(me.value.id, {
      type: body['type'],
      name: body['name'],
      number: body['number'],
      images: imgs,
    });
    return result.ok ? { ret: certificationObject(result.value) } : refuse(result.failure);
  });
}
