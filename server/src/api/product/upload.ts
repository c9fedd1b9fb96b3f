import type { AppConfig } from '../../config.js';
import type { UploadService } from '../../uploads/service.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** The upload storage as the product API uses it. */
export interface ProductUploads {
  service: UploadService;
  /** The product app, whose secret signs upload tokens; undefined when it is not configured. */
  app: AppConfig | undefined;
}

/**
 * `member/qiniu_token` (spec §7, UP-17): for a logged-in member, `{ret: token, upload_url, fields, key_prefix,
 * url_prefix, expires_at}`. The app posts `fields` (`{token}` for the server's own storage), `key` (`key_prefix`,
 * 32 random `[a-z0-9]`, `.<extension>`) and `file` to `upload_url`; the file is then at `url_prefix + key`.
 */
export function productUploadRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/qiniu_token', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { app, service } = deps.uploads;
    if (!app) return refuse('upload_unavailable');
    const token = service.issueProductToken({ app, memberId: me.value.id });
    return {
      ret: token.token,
      upload_url: token.uploadUrl,
      fields: token.fields,
      key_prefix: token.keyPrefix,
      url_prefix: token.urlPrefix,
      expires_at: token.expiresAt,
    };
  });
}
