import { randomBytes } from 'node:crypto';
import { writtenText } from './text.js';
import type {
  MemberRecord,
  ReportRecord,
  ReportReview,
  ReportStatus,
  ReportStore,
  ReportType,
} from '../store/index.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import type { ArticleService } from './articles.js';
import type { ReactionService } from './reactions.js';
import { lineStart } from './text.js';
import { POST_TITLE_MAX, postTitle, type CircleService } from './circle.js';

/** Reports of comments, and where those comments live. */
type CommentReportType = 'ping' | 'quanzi_ping';
type ReportedComments = Pick<ReactionService, 'shownComment' | 'commentById' | 'takenDown'>;
const isCommentReport = (type: ReportType): type is CommentReportType => type === 'ping' || type === 'quanzi_ping';

/** What a report is of: the content's id and the title the report keeps. */
interface ReportTarget {
  id: string;
  title: string;
}

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of reports (docs/limits.md). */
export const REPORT_LIMITS = {
  /** What the member says: 1 to this many characters after trimming. */
  contentMax: 200,
  /** Reports a member sends in {@link REPORT_LIMITS.windowMs}, at most. */
  maxPerWindow: 20,
  windowMs: 86_400_000,
  /** The operator's reason: 1 to this many characters. */
  reasonMax: 100,
  /** A page of the member's reports. */
  pageSize: 20,
  /** A page of the operator's queue. */
  queuePageSize: 50,
} as const;

/** Why the operator's review of a report was refused. */
export type ReportReviewFailure = 'not_pending' | 'bad_review';

/**
 * Reports (spec §1 "report", §2 article/jubao_view, §7 `member/jubao_add/type/{type}/aid/{id}`): a member reports an
 * article (`article`, a video being one), a circle post (`quanzi`), or a comment on either (`ping`, `quanzi_ping`)
 * they can see, or another member (`user`, for their profile); the operator upholds the report (the content is
 * removed, or the member's profile reset, and every report of it closes) or dismisses it, with a reason the reporter
 * reads, and with an uphold the author of the content or the member reset too. No HTTP here.
 */
export interface ReportService {
  report(
    memberId: string,
    params: { type: unknown; targetId: unknown; content: unknown },
  ): Promise<MemberResult<ReportRecord>>;
  /** A page of the member's reports, newest first. */
  mine(memberId: string, before: unknown): Promise<MemberResult<ReportRecord[]>>;
  /** One of the member's reports. */
  view(memberId: string, id: unknown): Promise<MemberResult<ReportRecord>>;
  /** The operator's queue: reports in `status` (default pending), oldest first; `after` the last id seen. */
  queue(status: unknown, after: unknown): Promise<{ ok: true; value: ReportRecord[] } | { ok: false; message: string }>;
  /**
   * The operator's decision: `uphold` true removes the content or resets the member's profile; `reason` (1 to 100
   * characters) either way.
   */
  review(
    id: string,
    decision: { uphold: unknown; reason: unknown },
  ): Promise<{ ok: true; value: ReportRecord } | { ok: false; failure: ReportReviewFailure; message: string }>;
}

const STATUSES: readonly ReportStatus[] = ['pending', 'upheld', 'dismissed'];

/** Creates the report service over the store, the articles, the circle and the members. */
export function createReportService(deps: {
  reports: ReportStore;
  articles: ArticleService;
  circle: CircleService;
  /** A member who exists and has not cancelled, by id (`user_missing` otherwise). */
  members: { profile(id: unknown): Promise<MemberResult<MemberRecord>> };
  /** The comments on articles and on circle posts. */
  comments: Record<CommentReportType, ReportedComments>;
  now: () => number;
  /** Told of each decision, after it is stored: the reports it closed, and whom it reached. */
  onReviewed?: (review: ReportReview) => Promise<void>;
}): ReportService {
  const { reports } = deps;
  // A comment is named by the start of its text, as a post without a title is.
  const commentTarget = async (
    comments: ReportedComments,
    id: unknown,
    memberId: string,
  ): Promise<MemberResult<ReportTarget>> => {
    const shown = await comments.shownComment(id, memberId);
    if (!shown.ok) return shown;
    return { ok: true, value: { id: shown.value.id, title: lineStart(shown.value.content, POST_TITLE_MAX) } };
  };
  /** The comment an uphold of report `id` is about to take down, with where it lives; read before it is deleted. */
  const commentToTakeDown = async (id: string) => {
    const report = await reports.byId(id);
    if (report?.status !== 'pending' || !isCommentReport(report.type)) return undefined;
    const comments = deps.comments[report.type];
    const comment = await comments.commentById(report.targetId);
    return comment && { comments, comment };
  };
  // What each kind of report is of, as the member sees it (its own failure when they cannot), and its title.
  const targets: Record<ReportType, (id: unknown, memberId: string) => Promise<MemberResult<ReportTarget>>> = {
    async article(id, memberId) {
      const article = await deps.articles.view(id, memberId);
      return article.ok ? { ok: true, value: { id: article.value.id, title: article.value.title } } : article;
    },
    async quanzi(id, memberId) {
      const post = await deps.circle.view(id, memberId);
      return post.ok ? { ok: true, value: { id: post.value.id, title: postTitle(post.value) } } : post;
    },
    ping: (id, memberId) => commentTarget(deps.comments.ping, id, memberId),
    quanzi_ping: (id, memberId) => commentTarget(deps.comments.quanzi_ping, id, memberId),
    // A member is reported for their profile, named by their nickname then; across a block too, as one blocks and
    // reports in the same breath.
    async user(id, memberId) {
      const member = await deps.members.profile(id);
      if (!member.ok) return member;
      if (member.value.id === memberId) return fail('report_self');
      return { ok: true, value: { id: member.value.id, title: member.value.username } };
    },
  };
  return {
    async report(memberId, { type, targetId, content }) {
      if (typeof type !== 'string' || !Object.hasOwn(targets, type)) return fail('bad_params');
      const target = await targets[type as ReportType](targetId, memberId);
      if (!target.ok) return target;
      const text = writtenText(content, REPORT_LIMITS.contentMax);
      if (text === undefined) return fail('report_content_invalid');
      const now = deps.now();
      const record = {
        id: randomBytes(8).toString('hex'),
        memberId,
        type: type as ReportType,
        targetId: target.value.id,
        title: target.value.title,
        content: text,
        createdAt: now,
      } as const;
      const outcome = await reports.add(record, {
        since: now - REPORT_LIMITS.windowMs,
        max: REPORT_LIMITS.maxPerWindow,
      });
      if (outcome === 'limit') return fail('too_frequent');
      if (outcome === 'pending') return fail('report_pending');
      return { ok: true, value: { ...record, status: 'pending', reason: '' } };
    },
    async mine(memberId, before) {
      if (!isRowKey(before)) return fail('bad_params');
      const page = await reports.byMember(memberId, { before, limit: REPORT_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    async view(memberId, id) {
      if (!isRowKey(id) || id === undefined) return fail('report_missing');
      const report = await reports.byId(id);
      return report && report.memberId === memberId ? { ok: true, value: report } : fail('report_missing');
    },
    async queue(status, after) {
      const wanted = status ?? 'pending';
      if (!STATUSES.includes(wanted as ReportStatus)) {
        return { ok: false, message: 'status must be pending, upheld or dismissed.' };
      }
      if (!isRowKey(after)) return { ok: false, message: 'after must be a report id listed.' };
      const page = await reports.list({ status: wanted as ReportStatus, after, limit: REPORT_LIMITS.queuePageSize });
      return page ? { ok: true, value: page } : { ok: false, message: 'after must be a report id listed.' };
    },
    async review(id, { uphold, reason }) {
      if (typeof uphold !== 'boolean') return { ok: false, failure: 'bad_review', message: 'uphold must be boolean.' };
      const why = lineOf(reason, REPORT_LIMITS.reasonMax);
      if (why === undefined) {
        return {
          ok: false,
          failure: 'bad_review',
          message: `reason is required: 1 to ${REPORT_LIMITS.reasonMax} characters.`,
        };
      }
      if (!isRowKey(id) || id === undefined) {
        return { ok: false, failure: 'not_pending', message: 'no such report under review' };
      }
      const takingDown = uphold ? await commentToTakeDown(id) : undefined;
      const decided = await reports.review(id, { uphold, reason: why, now: deps.now() });
      const reviewed = decided?.closed.find((report) => report.id === id);
      if (!decided || !reviewed) return { ok: false, failure: 'not_pending', message: 'no such report under review' };
      // A comment taken down takes back what it told (its notifications hold its words), as its writer's deletion would.
      if (takingDown && reviewed.status === 'upheld') await takingDown.comments.takenDown(takingDown.comment);
      await deps.onReviewed?.(decided);
      return { ok: true, value: reviewed };
    },
  };
}
