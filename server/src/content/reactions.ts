import { randomBytes } from 'node:crypto';
import { writtenText } from './text.js';
import type { ArticleReactionStore, CommentRecord, LikeRecord, ReactionCounts } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import type { ArticleService } from './articles.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of comments and likes (docs/limits.md). */
export const REACTION_LIMITS = {
  /** A comment: 1 to this many characters after trimming. */
  commentMax: 500,
  /** Comments a member writes in {@link REACTION_LIMITS.windowMs}, at most. */
  commentsPerWindow: 200,
  windowMs: 86_400_000,
  /** A page of comments or of likes. */
  pageSize: 20,
} as const;

/**
 * Comments on articles and likes of them (spec §1 "comment, like", §2 article/ping, article/ping-zan). Each call needs
 * the article to be one the member may see (`article_missing` otherwise), so that nobody comments on or likes
 * across a block. No HTTP here.
 */
export interface ReactionService {
  /** Comments on an article. */
  comment(memberId: string, articleId: unknown, content: unknown): Promise<MemberResult<CommentRecord>>;
  /** A page of an article's comments, newest first, as `viewerId` may see them, with the article's author. */
  comments(
    articleId: unknown,
    viewerId: string | undefined,
    before: unknown,
  ): Promise<MemberResult<{ authorId: string; comments: CommentRecord[] }>>;
  /** Deletes a comment: its writer's, or any on the member's own article. */
  removeComment(memberId: string, commentId: unknown): Promise<MemberResult<void>>;
  /** Likes or unlikes an article; answers its counts after. */
  like(memberId: string, articleId: unknown, on: unknown): Promise<MemberResult<ReactionCounts>>;
  /** A page of the members who liked an article, newest first, as `viewerId` may see them. */
  likers(articleId: unknown, viewerId: string | undefined, before: unknown): Promise<MemberResult<LikeRecord[]>>;
  /** The counts of articles, as `viewerId` sees them. */
  counts(articleIds: readonly string[], viewerId: string | undefined): Promise<Map<string, ReactionCounts>>;
}

/** Creates the reaction service over the store and the articles. */
export function createReactionService(deps: {
  reactions: ArticleReactionStore;
  articles: ArticleService;
  now: () => number;
}): ReactionService {
  const { reactions, articles } = deps;
  return {
    async comment(memberId, articleId, content) {
      const article = await articles.view(articleId, memberId);
      if (!article.ok) return article;
      const text = writtenText(content, REACTION_LIMITS.commentMax);
      if (text === undefined) return fail('comment_invalid');
      const now = deps.now();
      const record = {
        id: randomBytes(8).toString('hex'),
        articleId: article.value.id,
        memberId,
        content: text,
        createdAt: now,
      };
      const stored = await reactions.comment(record, {
        since: now - REACTION_LIMITS.windowMs,
        max: REACTION_LIMITS.commentsPerWindow,
      });
      return stored ? { ok: true, value: record } : fail('too_frequent');
    },
    async comments(articleId, viewerId, before) {
      const article = await articles.view(articleId, viewerId);
      if (!article.ok) return article;
      if (!isRowKey(before)) return fail('bad_params');
      const page = await reactions.comments(article.value.id, { viewerId, before, limit: REACTION_LIMITS.pageSize });
      return page ? { ok: true, value: { authorId: article.value.memberId, comments: page } } : fail('bad_params');
    },
    async removeComment(memberId, commentId) {
      if (!isRowKey(commentId) || commentId === undefined) return fail('comment_missing');
      const comment = await reactions.commentById(commentId);
      if (!comment) return fail('comment_missing');
      if (comment.memberId !== memberId) {
        const article = await articles.view(comment.articleId, memberId);
        if (!article.ok || article.value.memberId !== memberId) return fail('comment_missing');
      }
      return (await reactions.removeComment(comment.id, deps.now()))
        ? { ok: true, value: undefined }
        : fail('comment_missing');
    },
    async like(memberId, articleId, on) {
      if (typeof on !== 'boolean') return fail('bad_params');
      const article = await articles.view(articleId, memberId);
      if (!article.ok) return article;
      await reactions.like(memberId, article.value.id, on, deps.now());
      const counts = await reactions.counts([article.value.id], memberId);
      return { ok: true, value: counts.get(article.value.id) ?? { likes: 0, comments: 0, liked: on } };
    },
    async likers(articleId, viewerId, before) {
      const article = await articles.view(articleId, viewerId);
      if (!article.ok) return article;
      if (!isRowKey(before)) return fail('bad_params');
      const page = await reactions.likers(article.value.id, { viewerId, before, limit: REACTION_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    counts: (articleIds, viewerId) => reactions.counts(articleIds, viewerId),
  };
}
