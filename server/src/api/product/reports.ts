import type { ReportRecord } from '../../store/index.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** A report as its member reads it. */
export function reportObject(report: ReportRecord) {
  return {
    id: report.id,
    type: report.type,
    target_id: report.targetId,
    title: report.title,
    content: report.content,
    status: report.status,
    reason: report.reason,
    created_at: report.createdAt,
    reviewed_at: report.reviewedAt ?? null,
  };
}

/**
 * Reports (spec §2 article/jubao_view, §7 `member/jubao_add/type/{type}/aid/{id}` with `content`), all needing the
 * member's `token`:
 * - `member/jubao_add/type/{type}/aid/{id}`, `type` being `article` (a video is one), `quanzi` (a circle post), `ping`
 *   (a comment on an article), `quanzi_ping` (a comment on a post) or `user` (another member, for their profile)
 *   (`content` or `user_content`: what is wrong, 1 to 200 characters) answers `{ret: report}`.
 * - `member/jubao_list` (`before?`) answers `{ret: [report]}`, newest first, twenty at a time.
 * - `member/jubao_view` (`id`) answers `{ret: report}`.
 *
 * A report is `{id, type, target_id, title, content, status (pending, upheld, dismissed), reason, created_at,
 * reviewed_at}`; `title` is the article's or the post's (the start of the text of a post without one, or of a
 * comment), or the member's nickname, when it was reported.
 */
export function reportRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/jubao_add/type/:type/aid/:id', async (body, request) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const { type, id } = request.params as { type?: string; id?: string };
    const result = await deps.reports.report(me.value.id, {
      type,
      targetId: id,
      content: body['content'] ?? body['user_content'],
    });
    return result.ok ? { ret: reportObject(result.value) } : refuse(result.failure);
  });

  post('member/jubao_list', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.reports.mine(me.value.id, body['before']);
    return result.ok ? { ret: result.value.map(reportObject) } : refuse(result.failure);
  });

  post('member/jubao_view', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.reports.view(me.value.id, body['id']);
    return result.ok ? { ret: reportObject(result.value) } : refuse(result.failure);
  });
}
