import type { Kysely } from 'kysely';
import { newerThan, olderThan } from './keyset.js';
import { holdMember } from './member-lock.js';
import { signUpNickname } from './members.js';
import type { Database } from './schema.js';

/**
 * What a report is of: an article, a circle post, a comment on one or the other (`ping`, `quanzi_ping`), or a member
 * (`user`: their profile).
 */
export type ReportType = 'article' | 'quanzi' | 'ping' | 'quanzi_ping' | 'user';

/** The table each kind of content lives in, where upholding a report deletes it. */
const CONTENT_TABLES = {
  article: 'articles',
  quanzi: 'circle_posts',
  ping: 'article_comments',
  quanzi_ping: 'circle_comments',
} as const satisfies Record<Exclude<ReportType, 'user'>, string>;

/** Where a report stands: under review, upheld (the content removed, or the member's profile reset), or dismissed. */
export type ReportStatus = 'pending' | 'upheld' | 'dismissed';

/** A member's report of content. */
export interface ReportRecord {
  id: string;
  memberId: string;
  type: ReportType;
  targetId: string;
  /** The content's title when it was reported, so that the report reads after the content is gone. */
  title: string;
  /** What the member said. */
  content: string;
  status: ReportStatus;
  /** The operator's reason; empty while pending. */
  reason: string;
  createdAt: number;
  reviewedAt?: number;
}

/** What reporting came to: stored, or refused (the member reported `max` already, or has this one under review). */
export type ReportOutcome = 'ok' | 'limit' | 'pending';

/** Members' reports and the operator's decisions on them. */
export interface ReportStore {
  /**
   * Stores a report under review, unless its member reported `quota.max` times or more since `quota.since`, or has
   * a report of the same content under review. One transaction that holds the member's row.
   */
  add(
    record: Omit<ReportRecord, 'status' | 'reason' | 'reviewedAt'>,
    quota: { since: number; max: number },
  ): Promise<ReportOutcome>;
  /** A report, by id. */
  byId(id: string): Promise<ReportRecord | undefined>;
  /**
   * A member's reports, newest first, at most `limit`; with `before` (an id of theirs), only older ones. Undefined
   * when `before` is not theirs.
   */
  byMember(
    memberId: string,
    options: { before?: string | undefined; limit: number },
  ): Promise<ReportRecord[] | undefined>;
  /**
   * Reports in `status`, oldest first, at most `limit`; with `after` (an id listed), only those after it. Undefined
   * when `after` is not in that status.
   */
  list(params: {
    status: ReportStatus;
    after?: string | undefined;
    limit: number;
  }): Promise<ReportRecord[] | undefined>;
  /**
   * The operator's decision on report `id`, if it is under review: upheld, which removes the content (the article, the
   * post or the comment is deleted) or, for a member, resets their profile (the nickname they signed up with, no
   * avatar, background or signature, free to rename at once), and closes every report of it under review with the same
   * reason; or dismissed, this report only. One transaction. Answers the reports it closed, and whom the decision
   * reached; undefined, and nothing changed, when `id` is not under review.
   */
  review(id: string, params: { uphold: boolean; reason: string; now: number }): Promise<ReportReview | undefined>;
}

/** What the operator's decision on a report did. */
export interface ReportReview {
  /** The reports it closed: the one decided, and with an uphold every other one of the same content or member. */
  closed: ReportRecord[];
  /**
   * The member the uphold acted on: the author of the content it removed, or the member whose profile it reset.
   * Undefined when it removed or reset nothing: a dismissal, content its author had deleted meanwhile, a member who
   * had cancelled.
   */
  authorId?: string;
}

type ReportTables = {
  member_reports: {
    id: string;
    member_id: string;
    type: string;
    target_id: string;
    title: string;
    content: string;
    status: string;
    reason: string;
    created_at: number;
    reviewed_at: number | null;
  };
  articles: { id: string; member_id: string; deleted_at: number | null };
  circle_posts: { id: string; member_id: string; deleted_at: number | null };
  article_comments: { id: string; member_id: string; deleted_at: number | null };
  circle_comments: { id: string; member_id: string; deleted_at: number | null };
  members: {
    id: string;
    phone: string;
    username: string;
    img: string;
    intro: string;
    background: string;
    username_changed_at: number | null;
    cancelled_at: number | null;
  };
};

const recordOf = (row: ReportTables['member_reports']): ReportRecord => ({
  id: row.id,
  memberId: row.member_id,
  type: row.type as ReportType,
  targetId: row.target_id,
  title: row.title,
  content: row.content,
  status: row.status as ReportStatus,
  reason: row.reason,
  createdAt: Number(row.created_at),
  ...(row.reviewed_at !== null && { reviewedAt: Number(row.reviewed_at) }),
});

/**
 * The Kysely implementation of {@link ReportStore}; upholding a report deletes its content in `articles`,
 * `circle_posts`, `article_comments` or `circle_comments`, or resets a profile in `members`.
 */
export function createReportStore(base: Kysely<Database>, dialect: 'sqlite' | 'postgres'): ReportStore {
  const db = base.withTables<ReportTables>();
  const byId = (id: string) => db.selectFrom('member_reports').selectAll().where('id', '=', id);
  return {
    async add(record, { since, max }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, record.memberId, dialect);
        const { count } = await trx
          .selectFrom('member_reports')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('member_id', '=', record.memberId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return 'limit';
        const open = await trx
          .selectFrom('member_reports')
          .select('id')
          .where('member_id', '=', record.memberId)
          .where('type', '=', record.type)
          .where('target_id', '=', record.targetId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (open) return 'pending';
        await trx
          .insertInto('member_reports')
          .values({
            id: record.id,
            member_id: record.memberId,
            type: record.type,
            target_id: record.targetId,
            title: record.title,
            content: record.content,
            status: 'pending',
            reason: '',
            created_at: record.createdAt,
            reviewed_at: null,
          })
          .execute();
        return 'ok';
      });
    },
    async byId(id) {
      const row = await byId(id).executeTakeFirst();
      return row && recordOf(row);
    },
    async byMember(memberId, { before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await byId(before).where('member_id', '=', memberId).executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.id };
      }
      const rows = await db
        .selectFrom('member_reports')
        .selectAll()
        .where('member_id', '=', memberId)
        .where(olderThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async list({ status, after, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (after !== undefined) {
        const found = await byId(after).where('status', '=', status).executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.id };
      }
      const rows = await db
        .selectFrom('member_reports')
        .selectAll()
        .where('status', '=', status)
        .where(newerThan(cursor, { time: 'created_at', id: 'id' }))
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },
    async review(id, { uphold, reason, now }) {
      return db.transaction().execute(async (trx) => {
        // The report's row is held until the decision is written, so that of two decisions at once the second finds
        // it decided and changes nothing.
        const report = await trx
          .selectFrom('member_reports')
          .selectAll()
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .$if(dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!report) return undefined;
        const closing = trx
          .updateTable('member_reports')
          .set({ status: uphold ? 'upheld' : 'dismissed', reason, reviewed_at: now })
          .where('status', '=', 'pending');
        const closed = (
          uphold
            ? await closing
                .where('type', '=', report.type)
                .where('target_id', '=', report.target_id)
                .returningAll()
                .execute()
            : await closing.where('id', '=', id).returningAll().execute()
        ).map(recordOf);
        if (!uphold) return { closed };
        if (report.type === 'user') {
          const member = await trx
            .selectFrom('members')
            .select('phone')
            .where('id', '=', report.target_id)
            .where('cancelled_at', 'is', null)
            .executeTakeFirst();
          if (!member) return { closed };
          await trx
            .updateTable('members')
            .set({
              username: signUpNickname(member.phone),
              img: '',
              intro: '',
              background: '',
              username_changed_at: null,
            })
            .where('id', '=', report.target_id)
            .execute();
          return { closed, authorId: report.target_id };
        }
        const removed = await trx
          .updateTable(CONTENT_TABLES[report.type as Exclude<ReportType, 'user'>])
          .set({ deleted_at: now })
          .where('id', '=', report.target_id)
          .where('deleted_at', 'is', null)
          .returning('member_id')
          .executeTakeFirst();
        return { closed, ...(removed && { authorId: removed.member_id }) };
      });
    },
  };
}
