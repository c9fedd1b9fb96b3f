import type { ReactionService } from '../../content/reactions.js';
import type { CommentRecord } from '../../store/index.js';
import { membersOf, viewerOf } from './articles.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * Comments and likes of one kind of subject, `article` or `quanzi` (a circle post), each call naming it by `id`:
 * - `<subject>/ping_add` (`token`, `id`, `content`: 1 to 500 characters, `reply_to?`: a comment on it this one
 *   answers) comments on it: `{ret: comment}`.
 * - `<subject>/ping_list` (`token?`, `id`, `before?`) answers `{ret: [comment]}`, newest first, twenty at a time; a
 *   comment is `{id, content, author, created_at, deletable, reply_to}`, `deletable` when the viewer wrote it or the
 *   subject, `reply_to` null or `{id, author}` (the comment answered, which may since be deleted, and its writer).
 * - `remove` (`member/ping_del` for articles, `member/quanzi_ping_del` for posts; `token`, `id`) deletes a comment of
 *   the member's, or one on their own subject: `{ret: true}`.
 * - `<subject>/zan` (`token`, `id`, `zan`: true to like, false to unlike) answers `{ret: {likes, comments, liked}}`.
 * - `<subject>/zan_list` (`token?`, `id`, `before?`) answers `{ret: [{id, username, img, created_at}]}`, the members
 *   who liked it, newest first, twenty at a time.
 *
 * Visitors may read; a member sees nothing of members one of the two has blocked (spec §5), and can neither comment
 * on nor like their articles or posts.
 */
export function reactionRoutes(
  post: ProductPost,
  deps: ProductApiDeps,
  reactions: ReactionService,
  names: { subject: 'article' | 'quanzi'; remove: string },
): void {
  const { subject } = names;
  post(`${subject}/ping_add`, async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await reactions.comment(me.value.id, body['id'], body['content'], body['reply_to']);
    if (!result.ok) return refuse(result.failure);
    const authors = await membersOf(deps, [
      me.value.id,
      ...(result.value.replyTo ? [result.value.replyTo.memberId] : []),
    ]);
    return { ret: commentObject(result.value, authors, true) };
  });

  post(`${subject}/ping_list`, async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await reactions.comments(body['id'], viewerId, body['before']);
    if (!result.ok) return refuse(result.failure);
    const { authorId, comments } = result.value;
    const authors = await membersOf(
      deps,
      comments.flatMap((comment) => [comment.memberId, ...(comment.replyTo ? [comment.replyTo.memberId] : [])]),
    );
    return {
      ret: comments.map((comment) =>
        commentObject(
          comment,
          authors,
          viewerId !== undefined && (comment.memberId === viewerId || authorId === viewerId),
        ),
      ),
    };
  });

  post(names.remove, async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await reactions.removeComment(me.value.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  post(`${subject}/zan`, async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await reactions.like(me.value.id, body['id'], body['zan']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  post(`${subject}/zan_list`, async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await reactions.likers(body['id'], viewerId, body['before']);
    if (!result.ok) return refuse(result.failure);
    const members = await membersOf(
      deps,
      result.value.map((like) => like.memberId),
    );
    return {
      ret: result.value.map((like) => ({
        ...(members.get(like.memberId) ?? { id: like.memberId, username: '', img: '' }),
        created_at: like.createdAt,
      })),
    };
  });
}

/** A comment with its writer and what it answers; `deletable` when the viewer wrote it or what it is on. */
function commentObject(
  comment: CommentRecord,
  members: Map<string, { id: string; username: string; img: string }>,
  deletable: boolean,
) {
  const shown = (id: string) => members.get(id) ?? { id, username: '', img: '' };
  return {
    id: comment.id,
    content: comment.content,
    author: shown(comment.memberId),
    created_at: comment.createdAt,
    deletable,
    reply_to: comment.replyTo ? { id: comment.replyTo.id, author: shown(comment.replyTo.memberId) } : null,
  };
}
