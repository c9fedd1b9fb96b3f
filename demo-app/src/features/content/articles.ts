import { apiPost, type CallContext } from '../api/request';

/** The query key of every article list and page, which publishing or deleting makes stale. */
export const ARTICLES_QUERY = 'articles';

/** An article's author as lists show them: empty name and avatar once their account is cancelled. */
export interface ArticleAuthor {
  id: string;
  username: string;
  img: string;
}

/** An article in a feed: its summary and at most three images. */
export interface ArticleCard {
  id: string;
  title: string;
  summary: string;
  imgs: string[];
  author: ArticleAuthor;
  created_at: number;
}

/** An article on its page. */
export interface Article {
  id: string;
  title: string;
  content: string;
  imgs: string[];
  author: ArticleAuthor;
  created_at: number;
  /** Whether the signed-in member wrote it. */
  mine: boolean;
}

/** The server's bounds (docs/limits.md; spec §5, §9). */
export const ARTICLE_LIMITS = { titleMin: 5, titleMax: 30, contentMax: 5000, imagesMax: 9 } as const;

/** What is wrong with an article before it is sent, or undefined; the server checks the same. */
export function articleProblem(title: string, content: string): 'title_short' | 'title_long' | 'content' | undefined {
  const length = [...title.trim()].length;
  if (length < ARTICLE_LIMITS.titleMin) return 'title_short';
  if (length > ARTICLE_LIMITS.titleMax) return 'title_long';
  const text = content.trim();
  if (text === '' || [...text].length > ARTICLE_LIMITS.contentMax) return 'content';
  return undefined;
}

/** A page of the feed, or of one author's articles (`uid`); `before` is the id of the last one shown. */
export async function articlePage(
  params: { uid?: string; before?: string | undefined },
  context: CallContext,
): Promise<ArticleCard[]> {
  const body = {
    ...(params.uid !== undefined && { uid: params.uid }),
    ...(params.before !== undefined && { before: params.before }),
  };
  return (await apiPost<{ ret: ArticleCard[] }>('article/list', body, context)).ret;
}

export async function articleView(id: string, context: CallContext): Promise<Article> {
  return (await apiPost<{ ret: Article }>('article/view', { id }, context)).ret;
}

/** Publishes an article; resolves with it. */
export async function publishArticle(
  draft: { title: string; content: string; imgs: string[] },
  context: CallContext,
): Promise<Article> {
  const body = { title: draft.title.trim(), content: draft.content.trim(), imgs: draft.imgs };
  return (await apiPost<{ ret: Article; id: string }>('member/article_add', body, context, { loading: true })).ret;
}

export async function deleteArticle(id: string, context: CallContext): Promise<void> {
  await apiPost<{ ret: boolean }>('member/article_del', { id }, context, { loading: true });
}
