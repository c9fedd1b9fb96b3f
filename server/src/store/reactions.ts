import type { Kysely } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { keysetOf, olderThan } from './keyset.js';
import { holdMember } from './member-lock.js';
import type { Database } from './schema.js';

/** A comment on an article or a circle post (its subject). */
export interface CommentRecord {
  id: string;
  /** The article or post commented on. */
  subjectId: string;
  memberId: string;
  content: string;
  createdAt: number;
  /** The comment on the same subject it answers, and that comment's writer; undefined for none. */
  replyTo?: { id: string; memberId: string } | undefined;
}

/** A member who liked an article or a circle post, and when. */
export interface LikeRecord {
  memberId: string;
  createdAt: number;
}

/** A subject's likes and comments, and whether the viewer liked it. */
export interface ReactionCounts {
  likes: number;
  comments: number;
  liked: boolean;
}

/** Comments on one kind of subject (articles, or circle posts) and likes of them. */
export interface ReactionStore {
  /**
   * Stores a comment unless its author commented `quota.max` times or more since `quota.since` on this kind of
   * subject (false then). One transaction that holds the author's row, so that comments sent at once are counted.
   */
  comment(record: CommentRecord, quota: { since: number; max: number }): Promise<boolean>;
  /** A comment that is not deleted. */
  commentById(id: string): Promise<CommentRecord | undefined>;
  /**
   * A subject's comments, newest first, at most `limit`; with `before` (a comment listed), only older ones. Deleted
   * ones, those of cancelled members and of members one of whom has blocked `viewerId` are left out. Undefined when
   * `before` is no comment of the subject.
   */
  comments(
    subjectId: string,
    params: { viewerId?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<CommentRecord[] | undefined>;
  /** Deletes comment `id`: false when there is no such comment (or it is deleted already). */
  removeComment(id: string, now: number): Promise<boolean>;
  /** Likes (`on`) or unlikes a subject for a member; true when that changed anything. */
  like(memberId: string, subjectId: string, on: boolean, now: number): Promise<boolean>;
  /**
   * The members who liked a subject, newest first, at most `limit`; with `before` (a member listed), only earlier
   * ones. Cancelled members, and members one of whom has blocked `viewerId`, are left out. Undefined when `before` did
   * not like it.
   */
  likers(
    subjectId: string,
    params: { viewerId?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<LikeRecord[] | undefined>;
  /** The counts of each of `subjectIds` (those of open members, comments not deleted), as `viewerId` sees them. */
  counts(subjectIds: readonly string[], viewerId: string | undefined): Promise<Map<string, ReactionCounts>>;
  /** The likes of open members that `authorId`'s subjects not deleted have received (spec §3 profile "likes"). */
  received(authorId: string): Promise<number>;
}

/** The tables of one kind of subject: the subjects, their comments and their likes (migrations `0025` and `0042`). */
export interface ReactionTableNames {
  subjects: 'articles' | 'circle_posts';
  comments: 'article_comments' | 'circle_comments';
  likes: 'article_likes' | 'circle_likes';
}

/** The articles' tables. */
export const ARTICLE_REACTIONS: ReactionTableNames = {
  subjects: 'articles',
  comments: 'article_comments',
  likes: 'article_likes',
};
/** The circle posts' tables. */
export const CIRCLE_REACTIONS: ReactionTableNames = {
  subjects: 'circle_posts',
  comments: 'circle_comments',
  likes: 'circle_likes',
};

// Both kinds' tables have these columns; the queries name them through the aliases `c` and `l`.
type ReactionTables = {
  c: {
    id: string;
    subject_id: string;
    member_id: string;
    content: string;
    created_at: number;
    deleted_at: number | null;
    reply_to: string | null;
    reply_to_member: string | null;
  };
  l: { subject_id: string; member_id: string; created_at: number };
  s: { id: string; member_id: string; deleted_at: number | null };
  members: { id: string; cancelled_at: number | null };
};

const commentOf = (row: Omit<ReactionTables['c'], 'deleted_at'>): CommentRecord => ({
  id: row.id,
  subjectId: row.subject_id,
  memberId: row.member_id,
  content: row.content,
  createdAt: Number(row.created_at),
  ...(row.reply_to !== null && { replyTo: { id: row.reply_to, memberId: row.reply_to_member ?? '' } }),
});

const COMMENT_COLUMNS = [
  'c.id',
  'c.subject_id',
  'c.member_id',
  'c.content',
  'c.created_at',
  'c.reply_to',
  'c.reply_to_member',
] as const;

/** The Kysely implementation of {@link ReactionStore} over one kind's `tables`. */
export function createReactionStore(
  base: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  tables: ReactionTableNames,
): ReactionStore {
  const db = base.withTables<ReactionTables>();
  // The queries are typed against the aliases; at run time they name the kind's own tables.
  const comments = tables.comments as 'c';
  const likes = tables.likes as 'l';
  const commentsAs = `${tables.comments} as c` as 'c';
  const likesAs = `${tables.likes} as l` as 'l';
  const subjectsAs = `${tables.subjects} as s` as 's';
  const shownComments = () =>
    db
      .selectFrom(commentsAs)
      .innerJoin('members', 'members.id', 'c.member_id')
      .select(COMMENT_COLUMNS)
      .where('c.deleted_at', 'is', null)
      .where('members.cancelled_at', 'is', null);
  return {
    async comment(record, { since, max }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, record.memberId, dialect);
        const { count } = await trx
          .selectFrom(comments)
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('member_id', '=', record.memberId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return false;
        await trx
          .insertInto(comments)
          .values({
            id: record.id,
            subject_id: record.subjectId,
            member_id: record.memberId,
            content: record.content,
            created_at: record.createdAt,
            deleted_at: null,
            reply_to: record.replyTo?.id ?? null,
            reply_to_member: record.replyTo?.memberId ?? null,
          })
          .execute();
        return true;
      });
    },
    async commentById(id) {
      const row = await shownComments().where('c.id', '=', id).executeTakeFirst();
      return row && commentOf(row);
    },
    async comments(subjectId, { viewerId, before, limit }) {
      const cursor = await keysetOf(db, tables.comments, before, { column: 'subject_id', value: subjectId });
      if (cursor === 'missing') return undefined;
      const rows = await shownComments()
        .where('c.subject_id', '=', subjectId)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'c.member_id')))
        .where(olderThan(cursor, { time: 'c.created_at', id: 'c.id' }))
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(commentOf);
    },
    async removeComment(id, now) {
      const result = await db
        .updateTable(comments)
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async like(memberId, subjectId, on, now) {
      if (!on) {
        const result = await db
          .deleteFrom(likes)
          .where('subject_id', '=', subjectId)
          .where('member_id', '=', memberId)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      }
      const result = await db
        .insertInto(likes)
        .values({ subject_id: subjectId, member_id: memberId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async likers(subjectId, { viewerId, before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom(likes)
          .select(['created_at', 'member_id'])
          .where('subject_id', '=', subjectId)
          .where('member_id', '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.member_id };
      }
      const rows = await db
        .selectFrom(likesAs)
        .innerJoin('members', 'members.id', 'l.member_id')
        .select(['l.member_id', 'l.created_at'])
        .where('l.subject_id', '=', subjectId)
        .where('members.cancelled_at', 'is', null)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'l.member_id')))
        .where(olderThan(cursor, { time: 'l.created_at', id: 'l.member_id' }))
        .orderBy('l.created_at', 'desc')
        .orderBy('l.member_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ memberId: row.member_id, createdAt: Number(row.created_at) }));
    },
    async counts(subjectIds, viewerId) {
      const counts = new Map<string, ReactionCounts>(
        subjectIds.map((id) => [id, { likes: 0, comments: 0, liked: false }]),
      );
      if (subjectIds.length === 0) return counts;
      const [liking, commenting, liked] = await Promise.all([
        db
          .selectFrom(likesAs)
          .innerJoin('members', 'members.id', 'l.member_id')
          .select((eb) => ['l.subject_id', eb.fn.countAll<string | number>().as('n')])
          .where('l.subject_id', 'in', subjectIds)
          .where('members.cancelled_at', 'is', null)
          .groupBy('l.subject_id')
          .execute(),
        shownComments()
          .clearSelect()
          .select((eb) => ['c.subject_id', eb.fn.countAll<string | number>().as('n')])
          .where('c.subject_id', 'in', subjectIds)
          .groupBy('c.subject_id')
          .execute(),
        viewerId === undefined
          ? Promise.resolve([])
          : db
              .selectFrom(likes)
              .select('subject_id')
              .where('subject_id', 'in', subjectIds)
              .where('member_id', '=', viewerId)
              .execute(),
      ]);
      for (const row of liking) {
        const entry = counts.get(row.subject_id);
        if (entry) entry.likes = Number(row.n);
      }
      for (const row of commenting) {
        const entry = counts.get(row.subject_id);
        if (entry) entry.comments = Number(row.n);
      }
      for (const row of liked) {
        const entry = counts.get(row.subject_id);
        if (entry) entry.liked = true;
      }
      return counts;
    },

    async received(authorId) {
      // The author's subjects by their index (member_id first), each one's likes by the likes' key (subject first).
      const row = await db
        .selectFrom(subjectsAs)
        .innerJoin(likesAs, 'l.subject_id', 's.id')
        .innerJoin('members', 'members.id', 'l.member_id')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('s.member_id', '=', authorId)
        .where('s.deleted_at', 'is', null)
        .where('members.cancelled_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
