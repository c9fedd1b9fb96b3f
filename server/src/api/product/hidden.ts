import type { HiddenKind } from '../../store/index.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** Bounds of hiding (docs/limits.md). */
export const HIDDEN_LIMITS = {
  /** Items a member keeps hidden; hiding more forgets the oldest. */
  keep: 1000,
} as const;

/** What `name` hides: an article (a video is one) or a circle post. */
const KINDS: Record<string, HiddenKind> = { article: 'article', video: 'article', quanzi: 'quanzi' };

/**
 * "Not interested" (spec §7 `member/yinbi/name/{name}/aid/{id}`): `{token, hide?}` hides (`hide` true, the default) an
 * article, a video or a circle post from the member's feeds, or shows it again (`hide: false`); `{ret: {hidden}}`. The
 * item stays where it is otherwise: opened by a link, and on its author's page.
 */
export function hiddenRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/yinbi/name/:name/aid/:id', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { name, id } = request.params as { name?: string; id?: string };
    const kind = name === undefined ? undefined : KINDS[name];
    const hide = body['hide'] ?? true;
    if (kind === undefined || typeof hide !== 'boolean') return refuse('bad_params');
    const seen =
      kind === 'article' ? await deps.articles.view(id, me.value.id) : await deps.circle.view(id, me.value.id);
    // Something gone may be shown again (nothing to do), not hidden.
    if (!seen.ok && hide) return refuse(seen.failure);
    if (seen.ok) await deps.hidden.set(me.value.id, kind, seen.value.id, hide, deps.now(), HIDDEN_LIMITS.keep);
    return { ret: { hidden: hide } };
  });
}
