import type { Kysely } from 'kysely';
import { notBlockedWith } from './blocked.js';
import { keysetOf, olderThan } from './keyset.js';
import { holdMember } from './member-lock.js';
import type { Database } from './schema.js';

/** A comment on an article. */
export interface CommentRecord {
  id: string;
  articleId: string;
  memberId: string;
  content: string;
  createdAt: number;
}

/** A member who liked an article, and when. */
export interface LikeRecord {
  memberId: string;
  createdAt: number;
}

/** An article's likes and comments, and whether the viewer liked it. */
export interface ReactionCounts {
  likes: number;
  comments: number;
  liked: boolean;
}

/** Comments on articles and likes of them. */
export interface ArticleReactionStore {
  /**
   * Stores a comment unless its author commented `quota.max` times or more since `quota.since` (false then). One
   * transaction that holds the author's row, so that comments sent at once are counted.
   */
  comment(record: CommentRecord, quota: { since: number; max: number }): Promise<boolean>;
  /** A comment that is not deleted. */
  commentById(id: string): Promise<CommentRecord | undefined>;
  /**
   * An article's comments, newest first, at most `limit`; with `before` (a comment listed), only older ones. Deleted
   * ones, those of cancelled members and of members one of whom has blocked `viewerId` are left out. Undefined when
   * `before` is no comment of the article.
   */
  comments(
    articleId: string,
    params: { viewerId?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<CommentRecord[] | undefined>;
  /** Deletes comment `id`: false when there is no such comment (or it is deleted already). */
  removeComment(id: string, now: number): Promise<boolean>;
  /** Likes (`on`) or unlikes an article for a member; true when that changed anything. */
  like(memberId: string, articleId: string, on: boolean, now: number): Promise<boolean>;
  /**
   * The members who liked an article, newest first, at most `limit`; with `before` (a member listed), only earlier
   * ones. Cancelled members, and members one of whom has blocked `viewerId`, are left out. Undefined when `before` did
   * not like it.
   */
  likers(
    articleId: string,
    params: { viewerId?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<LikeRecord[] | undefined>;
  /** The counts of each of `articleIds` (those of open members, comments not deleted), as `viewerId` sees them. */
  counts(articleIds: readonly string[], viewerId: string | undefined): Promise<Map<string, ReactionCounts>>;
}

type ReactionTables = {
  article_comments: {
    id: string;
    article_id: string;
    member_id: string;
    content: string;
    created_at: number;
    deleted_at: number | null;
  };
  article_likes: { article_id: string; member_id: string; created_at: number };
  members: { id: string; cancelled_at: number | null };
};

const commentOf = (row: Omit<ReactionTables['article_comments'], 'deleted_at'>): CommentRecord => ({
  id: row.id,
  articleId: row.article_id,
  memberId: row.member_id,
  content: row.content,
  createdAt: Number(row.created_at),
});

const COMMENT_COLUMNS = [
  'article_comments.id',
  'article_comments.article_id',
  'article_comments.member_id',
  'article_comments.content',
  'article_comments.created_at',
] as const;

/** The Kysely implementation of {@link ArticleReactionStore}. */
export function createArticleReactionStore(
  base: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
): ArticleReactionStore {
  const db = base.withTables<ReactionTables>();
  const shownComments = () =>
    db
      .selectFrom('article_comments')
      .innerJoin('members', 'members.id', 'article_comments.member_id')
      .select(COMMENT_COLUMNS)
      .where('article_comments.deleted_at', 'is', null)
      .where('members.cancelled_at', 'is', null);
  return {
    async comment(record, { since, max }) {
      return db.transaction().execute(async (trx) => {
        await holdMember(trx, record.memberId, dialect);
        const { count } = await trx
          .selectFrom('article_comments')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('member_id', '=', record.memberId)
          .where('created_at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return false;
        await trx
          .insertInto('article_comments')
          .values({
            id: record.id,
            article_id: record.articleId,
            member_id: record.memberId,
            content: record.content,
            created_at: record.createdAt,
            deleted_at: null,
          })
          .execute();
        return true;
      });
    },
    async commentById(id) {
      const row = await shownComments().where('article_comments.id', '=', id).executeTakeFirst();
      return row && commentOf(row);
    },
    async comments(articleId, { viewerId, before, limit }) {
      const cursor = await keysetOf(db, 'article_comments', before, { column: 'article_id', value: articleId });
      if (cursor === 'missing') return undefined;
      const rows = await shownComments()
        .where('article_comments.article_id', '=', articleId)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'article_comments.member_id')))
        .where(olderThan(cursor, { time: 'article_comments.created_at', id: 'article_comments.id' }))
        .orderBy('article_comments.created_at', 'desc')
        .orderBy('article_comments.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(commentOf);
    },
    async removeComment(id, now) {
      const result = await db
        .updateTable('article_comments')
        .set({ deleted_at: now })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async like(memberId, articleId, on, now) {
      if (!on) {
        const result = await db
          .deleteFrom('article_likes')
          .where('article_id', '=', articleId)
          .where('member_id', '=', memberId)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      }
      const result = await db
        .insertInto('article_likes')
        .values({ article_id: articleId, member_id: memberId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async likers(articleId, { viewerId, before, limit }) {
      let cursor: { at: number; id: string } | undefined;
      if (before !== undefined) {
        const found = await db
          .selectFrom('article_likes')
          .select(['created_at', 'member_id'])
          .where('article_id', '=', articleId)
          .where('member_id', '=', before)
          .executeTakeFirst();
        if (!found) return undefined;
        cursor = { at: Number(found.created_at), id: found.member_id };
      }
      const rows = await db
        .selectFrom('article_likes')
        .innerJoin('members', 'members.id', 'article_likes.member_id')
        .select(['article_likes.member_id', 'article_likes.created_at'])
        .where('article_likes.article_id', '=', articleId)
        .where('members.cancelled_at', 'is', null)
        .$if(viewerId !== undefined, (q) => q.where(notBlockedWith(viewerId as string, 'article_likes.member_id')))
        .where(olderThan(cursor, { time: 'article_likes.created_at', id: 'article_likes.member_id' }))
        .orderBy('article_likes.created_at', 'desc')
        .orderBy('article_likes.member_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ memberId: row.member_id, createdAt: Number(row.created_at) }));
    },
    async counts(articleIds, viewerId) {
      const counts = new Map<string, ReactionCounts>(
        articleIds.map((id) => [id, { likes: 0, comments: 0, liked: false }]),
      );
      if (articleIds.length === 0) return counts;
      const [likes, comments, liked] = await Promise.all([
        db
          .selectFrom('article_likes')
          .innerJoin('members', 'members.id', 'article_likes.member_id')
          .select((eb) => ['article_likes.article_id', eb.fn.countAll<string | number>().as('n')])
          .where('article_likes.article_id', 'in', articleIds)
          .where('members.cancelled_at', 'is', null)
          .groupBy('article_likes.article_id')
          .execute(),
        shownComments()
          .clearSelect()
          .select((eb) => ['article_comments.article_id', eb.fn.countAll<string | number>().as('n')])
          .where('article_comments.article_id', 'in', articleIds)
          .groupBy('article_comments.article_id')
          .execute(),
        viewerId === undefined
          ? Promise.resolve([])
          : db
              .selectFrom('article_likes')
              .select('article_id')
              .where('article_id', 'in', articleIds)
              .where('member_id', '=', viewerId)
              .execute(),
      ]);
      for (const row of likes) {
        const entry = counts.get(row.article_id);
        if (entry) entry.likes = Number(row.n);
      }
      for (const row of comments) {
        const entry = counts.get(row.article_id);
        if (entry) entry.comments = Number(row.n);
      }
      for (const row of liked) {
        const entry = counts.get(row.article_id);
        if (entry) entry.liked = true;
      }
      return counts;
    },
  };
}
