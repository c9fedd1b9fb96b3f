import { apiPost, type CallContext } from '../api/request';
import type { Channel } from './channels';
import type { VideoSource } from './VideoPlayer';

/** The query key of every article list and page, which publishing or deleting makes stale. */
export const ARTICLES_QUERY = 'articles';

/** An article's author as lists show them: empty name and avatar once their account is cancelled. */
export interface ArticleAuthor {
  id: string;
  username: string;
  img: string;
}

/** How many liked and commented on an article, and whether the signed-in member liked it. */
export interface ArticleCounts {
  likes: number;
  comments: number;
  liked: boolean;
}

/** An article in a feed: its summary and at most three images. */
export interface ArticleCard extends ArticleCounts {
  id: string;
  title: string;
  summary: string;
  imgs: string[];
  author: ArticleAuthor;
  /** The channel it is filed under; null for none. */
  channel: Channel | null;
  created_at: number;
  /** The video and its cover for a video; null for a plain article. */
  video?: ArticleVideo | null;
}

/** A video article's video, its cover image and its resolutions (none while the server has not made them). */
export interface ArticleVideo {
  url: string;
  cover: string;
  sources?: VideoSource[];
}

/** An article on its page. */
export interface Article extends ArticleCounts {
  id: string;
  title: string;
  content: string;
  imgs: string[];
  author: ArticleAuthor;
  /** The channel it is filed under; null for none. */
  channel: Channel | null;
  created_at: number;
  /** The video and its cover for a video; null for a plain article. */
  video?: ArticleVideo | null;
  /** Whether the signed-in member collected it. */
  collected: boolean;
  /** Whether the signed-in member wrote it. */
  mine: boolean;
}

/** The server's bounds (docs/limits.md; spec §5, §9). */
export const ARTICLE_LIMITS = { titleMin: 5, titleMax: 30, contentMax: 5000, imagesMax: 9 } as const;

/**
 * What is wrong with a title (an article's, a video's or a circle post's: spec §5, §9 "Post title 5 to 30
 * characters") before it is sent, or undefined; the server checks the same.
 */
export function titleProblem(title: string): 'title_short' | 'title_long' | undefined {
  const length = [...title.trim()].length;
  if (length < ARTICLE_LIMITS.titleMin) return 'title_short';
  if (length > ARTICLE_LIMITS.titleMax) return 'title_long';
  return undefined;
}

/** What is wrong with an article before it is sent, or undefined; the server checks the same. */
export function articleProblem(title: string, content: string): 'title_short' | 'title_long' | 'content' | undefined {
  const wrong = titleProblem(title);
  if (wrong !== undefined) return wrong;
  const text = content.trim();
  if (text === '' || [...text].length > ARTICLE_LIMITS.contentMax) return 'content';
  return undefined;
}

/**
 * A page of the feed, of one author's articles (`uid`), of one channel's (`typeid`), or of those holding `keyword`;
 * `before` is the id of the last one shown.
 */
export async function articlePage(
  params: { uid?: string; typeid?: string; keyword?: string; before?: string | undefined },
  context: CallContext,
): Promise<ArticleCard[]> {
  const body = {
    ...(params.uid !== undefined && { uid: params.uid }),
    ...(params.typeid !== undefined && { typeid: params.typeid }),
    ...(params.keyword !== undefined && { keyword: params.keyword }),
    ...(params.before !== undefined && { before: params.before }),
  };
  return (await apiPost<{ ret: ArticleCard[] }>('article/list', body, context)).ret;
}

export async function articleView(id: string, context: CallContext): Promise<Article> {
  return (await apiPost<{ ret: Article }>('article/view', { id }, context)).ret;
}

/** Publishes an article; resolves with it. */
export async function publishArticle(
  draft: { title: string; content: string; imgs: string[]; typeid?: string | undefined },
  context: CallContext,
): Promise<Article> {
  const body = {
    title: draft.title.trim(),
    content: draft.content.trim(),
    imgs: draft.imgs,
    ...(draft.typeid !== undefined && { typeid: draft.typeid }),
  };
  return (await apiPost<{ ret: Article; id: string }>('member/article_add', body, context, { loading: true })).ret;
}

/** A comment on an article or a circle post, newest first. */
export interface ArticleComment {
  id: string;
  content: string;
  author: ArticleAuthor;
  created_at: number;
  /** Whether the signed-in member may delete it: they wrote it, or what it is on. */
  deletable: boolean;
  /** The comment it answers (perhaps since deleted) and that comment's writer, or null. */
  reply_to: { id: string; author: ArticleAuthor } | null;
}

/** A member who liked an article or a circle post. */
export interface ArticleLiker extends ArticleAuthor {
  created_at: number;
}

/** A comment has 1 to this many characters (docs/limits.md). */
export const COMMENT_MAX = 500;

/** What comments and likes are on: an article, or a circle post (`quanzi`). */
export type ReactionKind = 'article' | 'quanzi';

/** The kind a page's `type` parameter names: `quanzi` for a circle post, an article otherwise. */
export const reactionKindOf = (type: string | null): ReactionKind => (type === 'quanzi' ? 'quanzi' : 'article');

/** The path that deletes a comment of each kind. */
const COMMENT_DELETE: Record<ReactionKind, string> = { article: 'member/ping_del', quanzi: 'member/quanzi_ping_del' };

/** Likes (`zan` true) or unlikes an article, or a circle post; resolves with its counts after. */
export async function like(kind: ReactionKind, id: string, zan: boolean, context: CallContext): Promise<ArticleCounts> {
  return (await apiPost<{ ret: ArticleCounts }>(`${kind}/zan`, { id, zan }, context)).ret;
}

/** A page of the comments on an article or a circle post; `before` is the id of the last one shown. */
export async function commentPage(kind: ReactionKind, id: string, before: string | undefined, context: CallContext) {
  const body = { id, ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: ArticleComment[] }>(`${kind}/ping_list`, body, context)).ret;
}

/** Comments on an article or a circle post; `replyTo` is the id of a comment on it that this one answers. */
export async function addComment(
  kind: ReactionKind,
  id: string,
  content: string,
  context: CallContext,
  replyTo?: string,
): Promise<ArticleComment> {
  const body = { id, content: content.trim(), ...(replyTo !== undefined && { reply_to: replyTo }) };
  return (await apiPost<{ ret: ArticleComment }>(`${kind}/ping_add`, body, context)).ret;
}

export async function deleteComment(kind: ReactionKind, id: string, context: CallContext): Promise<void> {
  await apiPost<{ ret: boolean }>(COMMENT_DELETE[kind], { id }, context, { loading: true });
}

/** A page of the members who liked an article or a circle post; `before` is the id of the last one shown. */
export async function likerPage(kind: ReactionKind, id: string, before: string | undefined, context: CallContext) {
  const body = { id, ...(before !== undefined && { before }) };
  return (await apiPost<{ ret: ArticleLiker[] }>(`${kind}/zan_list`, body, context)).ret;
}

/** Collects (`shoucang` true) or uncollects an article; resolves with whether it is collected. */
export async function collectArticle(id: string, shoucang: boolean, context: CallContext): Promise<boolean> {
  return (await apiPost<{ ret: { collected: boolean } }>('article/shoucang', { id, shoucang }, context)).ret.collected;
}

/** A page of the member's collection (member/record), the latest collected first. */
export async function collectionPage(before: string | undefined, context: CallContext): Promise<ArticleCard[]> {
  const body = before === undefined ? {} : { before };
  return (await apiPost<{ ret: ArticleCard[] }>('member/record', body, context)).ret;
}

export async function deleteArticle(id: string, context: CallContext): Promise<void> {
  await apiPost<{ ret: boolean }>('member/article_del', { id }, context, { loading: true });
}

/**
 * The class of a list's image grid (spec §9 image grid): one image alone, 480 of the design's 750 units wide; four as
 * two columns of two (235 units each, the cells of a row of three); any other count in rows of three.
 */
export function imageGridClass(count: number): string {
  if (count === 1) return 'article-images article-images-one';
  if (count === 4) return 'article-images article-images-four';
  return 'article-images';
}
