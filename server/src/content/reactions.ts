import { randomBytes } from 'node:crypto';
import { writtenText } from './text.js';
import type { CommentRecord, LikeRecord, ReactionCounts, ReactionStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';

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
  /** A comment's notification carries its start, at most this many characters. */
  noticeExcerpt: 50,
} as const;

/** What comments and likes are on: an article or a circle post, by its id and author, and what to call it. */
export interface ReactionSubject {
  id: string;
  memberId: string;
  /** The article's or the post's title (the start of the text of a post without one: see `postTitle`). */
  title: string;
}

/**
 * Comments on one kind of subject, articles or circle posts, and likes of them (spec §1 "comment, like", §2
 * article/ping, article/ping-zan). Each call needs the subject to be one the member may see (the kind's own failure
 * otherwise, `article_missing` or `post_missing`), so that nobody comments on or likes across a block. No HTTP here.
 */
export interface ReactionService {
  /**
   * Comments on a subject; `replyTo` names a comment on it that this one answers, which must be there and not of a
   * member across a block (`comment_missing` otherwise).
   */
  comment(
    memberId: string,
    subjectId: unknown,
    content: unknown,
    replyTo?: unknown,
  ): Promise<MemberResult<CommentRecord>>;
  /** A page of a subject's comments, newest first, as `viewerId` may see them, with the subject's author. */
  comments(
    subjectId: unknown,
    viewerId: string | undefined,
    before: unknown,
  ): Promise<MemberResult<{ authorId: string; comments: CommentRecord[] }>>;
  /**
   * A comment as `viewerId` may see it: there, on a subject they may see, and not of a member across a block
   * (`comment_missing` otherwise). For reports of comments.
   */
  shownComment(commentId: unknown, viewerId: string): Promise<MemberResult<CommentRecord>>;
  /** A comment not deleted, whoever asks; for an operator about to take it down. */
  commentById(commentId: string): Promise<CommentRecord | undefined>;
  /**
   * Once `comment` was taken down by an operator (a report upheld), what it told is taken back as its deletion by a
   * member takes it back.
   */
  takenDown(comment: CommentRecord): Promise<void>;
  /** Deletes a comment: its writer's, or any on the member's own subject. */
  removeComment(memberId: string, commentId: unknown): Promise<MemberResult<void>>;
  /** Likes or unlikes a subject; answers its counts after. */
  like(memberId: string, subjectId: unknown, on: unknown): Promise<MemberResult<ReactionCounts>>;
  /** A page of the members who liked a subject, newest first, as `viewerId` may see them. */
  likers(subjectId: unknown, viewerId: string | undefined, before: unknown): Promise<MemberResult<LikeRecord[]>>;
  /** The counts of subjects, as `viewerId` sees them. */
  counts(subjectIds: readonly string[], viewerId: string | undefined): Promise<Map<string, ReactionCounts>>;
  /** The likes `authorId`'s subjects have received, of members still open, the subjects not deleted. */
  received(authorId: string): Promise<number>;
}

/**
 * Creates the reaction service of one kind over its store; `view` finds a subject as a viewer may see it (the
 * articles' or the circle's own check).
 */
export function createReactionService(deps: {
  reactions: ReactionStore;
  view: (id: unknown, viewerId: string | undefined) => Promise<MemberResult<ReactionSubject>>;
  now: () => number;
  /** Whether one of two members has blocked the other; nobody answers a comment across a block. */
  blocked: (a: string, b: string) => Promise<boolean>;
  /** Told of each comment stored, with what it is on. */
  onCommented?: (comment: CommentRecord, subject: ReactionSubject) => Promise<void>;
  /** Told of each like that was not there before (not of an unlike, nor of a like repeated). */
  onLiked?: (memberId: string, subject: ReactionSubject) => Promise<void>;
  /** Told of each comment deleted, with what it was on (when that is still there). */
  onCommentRemoved?: (comment: CommentRecord, subject: ReactionSubject) => Promise<void>;
  /** Told of each like undone. */
  onUnliked?: (memberId: string, subject: ReactionSubject) => Promise<void>;
}): ReactionService {
  const { reactions, view } = deps;
  return {
    async comment(memberId, subjectId, content, replyTo) {
      const subject = await view(subjectId, memberId);
      if (!subject.ok) return subject;
      const text = writtenText(content, REACTION_LIMITS.commentMax);
      if (text === undefined) return fail('comment_invalid');
      let answered: CommentRecord | undefined;
      if (replyTo !== undefined && replyTo !== null) {
        if (!isRowKey(replyTo) || replyTo === undefined) return fail('comment_missing');
        answered = await reactions.commentById(replyTo);
        if (!answered || answered.subjectId !== subject.value.id) return fail('comment_missing');
        if (answered.memberId !== memberId && (await deps.blocked(memberId, answered.memberId))) {
          return fail('comment_missing');
        }
      }
      const now = deps.now();
      const record = {
        id: randomBytes(8).toString('hex'),
        subjectId: subject.value.id,
        memberId,
        content: text,
        createdAt: now,
        ...(answered && { replyTo: { id: answered.id, memberId: answered.memberId } }),
      };
      const stored = await reactions.comment(record, {
        since: now - REACTION_LIMITS.windowMs,
        max: REACTION_LIMITS.commentsPerWindow,
      });
      if (!stored) return fail('too_frequent');
      await deps.onCommented?.(record, subject.value);
      return { ok: true, value: record };
    },
    async comments(subjectId, viewerId, before) {
      const subject = await view(subjectId, viewerId);
      if (!subject.ok) return subject;
      if (!isRowKey(before)) return fail('bad_params');
      const page = await reactions.comments(subject.value.id, { viewerId, before, limit: REACTION_LIMITS.pageSize });
      return page ? { ok: true, value: { authorId: subject.value.memberId, comments: page } } : fail('bad_params');
    },
    async shownComment(commentId, viewerId) {
      if (!isRowKey(commentId) || commentId === undefined) return fail('comment_missing');
      const comment = await reactions.commentById(commentId);
      if (!comment) return fail('comment_missing');
      const subject = await view(comment.subjectId, viewerId);
      if (!subject.ok) return fail('comment_missing');
      if (comment.memberId !== viewerId && (await deps.blocked(viewerId, comment.memberId))) {
        return fail('comment_missing');
      }
      return { ok: true, value: comment };
    },
    commentById: (commentId) => reactions.commentById(commentId),
    async takenDown(comment) {
      if (!deps.onCommentRemoved) return;
      const subject = await view(comment.subjectId, undefined);
      if (subject.ok) await deps.onCommentRemoved(comment, subject.value);
    },
    async removeComment(memberId, commentId) {
      if (!isRowKey(commentId) || commentId === undefined) return fail('comment_missing');
      const comment = await reactions.commentById(commentId);
      if (!comment) return fail('comment_missing');
      if (comment.memberId !== memberId) {
        const subject = await view(comment.subjectId, memberId);
        if (!subject.ok || subject.value.memberId !== memberId) return fail('comment_missing');
      }
      if (!(await reactions.removeComment(comment.id, deps.now()))) return fail('comment_missing');
      if (deps.onCommentRemoved) {
        // What it was on, as anyone sees it: its author is who heard of the comment.
        const subject = await view(comment.subjectId, undefined);
        if (subject.ok) await deps.onCommentRemoved(comment, subject.value);
      }
      return { ok: true, value: undefined };
    },
    async like(memberId, subjectId, on) {
      if (typeof on !== 'boolean') return fail('bad_params');
      const subject = await view(subjectId, memberId);
      if (!subject.ok) return subject;
      const changed = await reactions.like(memberId, subject.value.id, on, deps.now());
      if (changed && on) await deps.onLiked?.(memberId, subject.value);
      if (changed && !on) await deps.onUnliked?.(memberId, subject.value);
      const counts = await reactions.counts([subject.value.id], memberId);
      return { ok: true, value: counts.get(subject.value.id) ?? { likes: 0, comments: 0, liked: on } };
    },
    async likers(subjectId, viewerId, before) {
      const subject = await view(subjectId, viewerId);
      if (!subject.ok) return subject;
      if (!isRowKey(before)) return fail('bad_params');
      const page = await reactions.likers(subject.value.id, { viewerId, before, limit: REACTION_LIMITS.pageSize });
      return page ? { ok: true, value: page } : fail('bad_params');
    },
    counts: (subjectIds, viewerId) => reactions.counts(subjectIds, viewerId),
    received: (authorId) => reactions.received(authorId),
  };
}
