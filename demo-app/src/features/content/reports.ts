import { apiPost, type CallContext } from '../api/request';
import type { ReactionKind } from './articles';

/** The query key of the member's reports, which reporting makes stale. */
export const REPORTS_QUERY = 'reports';

/** Where a report stands: under review, upheld (the content removed, or the member's profile reset), or dismissed. */
export type ReportStatus = 'pending' | 'upheld' | 'dismissed';

/**
 * What can be reported: an article (a video being one), a circle post (`quanzi`), a comment on an article (`ping`)
 * or on a post (`quanzi_ping`), or another member (`user`), for their profile.
 */
export type ReportKind = ReactionKind | 'ping' | 'quanzi_ping' | 'user';

/** The kind of report of a comment on `kind`. */
export const commentReportKind = (kind: ReactionKind): ReportKind => (kind === 'quanzi' ? 'quanzi_ping' : 'ping');

/** A report as its member reads it. */
export interface Report {
  id: string;
  type: ReportKind;
  target_id: string;
  /** The article's title, the start of the post's text, or the member's nickname, when it was reported. */
  title: string;
  content: string;
  status: ReportStatus;
  /** The operator's reason, once decided. */
  reason: string;
  created_at: number;
  reviewed_at: number | null;
}

/** The reasons offered; the member's words follow the chosen one. */
export const REPORT_REASONS = ['spam', 'abuse', 'illegal', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What a report says has 1 to this many characters (docs/limits.md). */
export const REPORT_MAX = 200;

/** Reports an article, a circle post, a comment or a member with what is wrong (`content`). */
export async function reportContent(
  kind: ReportKind,
  id: string,
  content: string,
  context: CallContext,
): Promise<Report> {
  const path = `member/jubao_add/type/${kind}/aid/${encodeURIComponent(id)}`;
  return (await apiPost<{ ret: Report }>(path, { content: content.trim() }, context, { loading: true })).ret;
}

/** A page of the member's reports; `before` is the id of the last one shown. */
export async function reportPage(before: string | undefined, context: CallContext): Promise<Report[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: Report[] }>('member/jubao_list', body, context)).ret;
}

export async function reportView(id: string, context: CallContext): Promise<Report> {
  return (await apiPost<{ ret: Report }>('member/jubao_view', { id }, context)).ret;
}
