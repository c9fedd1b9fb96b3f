import type { MemberRecord } from '../../store/index.js';
import { PRODUCT_IMAGE_EXTENSIONS } from '../../uploads/product.js';
import type { ProductApiDeps } from './index.js';
import type { MemberFailure } from '../../members/service.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';

/** What a member shows everyone (spec §3 profile labels): the birthday and the phone stay private. */
export function publicProfile(member: MemberRecord) {
  return {
    id: member.id,
    username: member.username,
    img: member.img,
    gender: member.gender,
    region: member.region,
    qianming: member.intro,
    background: member.background,
  };
}

/** The member's own profile, as `member/info` and `member/profile_update` answer it: the public one and the birthday. */
export function ownProfile(member: MemberRecord) {
  return { ...publicProfile(member), birthday: member.birthday };
}

/**
 * `member/profile_update`: any of the member's nickname (`username`, 1 to 20 characters after trimming), avatar
 * (`img`) and background (`background`: each the URL of a gif, jpg, jpeg or png the member uploaded with
 * `member/qiniu_token`, or '' for the background), `gender` (`male`, `female`, `hidden`), `birthday`
 * (`YYYY-MM-DD`, from 1900 to today, or ''), `region` (at most 30 characters) and `qianming` (the signature, at most
 * 60). Answers `{ret: profile}`, or `bad_params`, `nickname_invalid`, `nickname_too_soon`, `img_invalid`,
 * `background_invalid`, `gender_invalid`, `birthday_invalid`, `region_invalid`, `qianming_invalid`.
 */
export function profileRoutes(post: ProductPost, deps: ProductApiDeps): void {
  /** Whether `url` is an image the member uploaded. */
  const ownImage = async (memberId: string, url: unknown) => {
    const { app, service } = deps.uploads;
    return (
      app !== undefined &&
      typeof url === 'string' &&
      (await service.isProductFile({ app, memberId, url, extensions: PRODUCT_IMAGE_EXTENSIONS }))
    );
  };
  /** The image field `field` of `body` when it is one of the member's images ('' too, with `clears`), else a failure. */
  const imageField = async (
    body: ProductBody,
    field: 'img' | 'background',
    memberId: string,
    failure: MemberFailure,
    clears: boolean,
  ): Promise<{ url?: string } | { failure: MemberFailure }> => {
    const url = body[field];
    if (url === undefined) return {};
    if ((clears && url === '') || (await ownImage(memberId, url))) return { url: url as string };
    return { failure };
  };

  post('member/profile_update', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const img = await imageField(body, 'img', me.value.id, 'img_invalid', false);
    if ('failure' in img) return refuse(img.failure);
    const background = await imageField(body, 'background', me.value.id, 'background_invalid', true);
    if ('failure' in background) return refuse(background.failure);
    const result = await deps.members.updateProfile(me.value.id, {
      username: body['username'],
      gender: body['gender'],
      birthday: body['birthday'],
      region: body['region'],
      qianming: body['qianming'],
      ...(img.url !== undefined && { img: img.url }),
      ...(background.url !== undefined && { background: background.url }),
    });
    if (!result.ok) return refuse(result.failure);
    return { ret: ownProfile(result.value) };
  });
}
