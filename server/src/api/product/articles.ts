import { ARTICLE_LIMITS } from '../../content/articles.js';
import type { ArticleRecord } from '../../store/index.js';
import { ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';

/** How much of the text a feed card shows, in characters. */
const SUMMARY_LENGTH = 100;
/** How many images a feed card shows. */
const CARD_IMAGES = 3;

/** The member a call comes from: a member's `token`, or a visitor (none, or one no longer valid). */
async function viewerOf(deps: ProductApiDeps, body: ProductBody): Promise<string | undefined> {
  if (body['token'] === undefined) return undefined;
  const me = await deps.members.byToken(body['token']);
  return me.ok ? me.value.id : undefined;
}

/** The authors of `articles` as cards show them, each looked up once. */
async function authorsOf(deps: ProductApiDeps, articles: readonly ArticleRecord[]) {
  const ids = [...new Set(articles.map((article) => article.memberId))];
  const found = await Promise.all(ids.map(async (id) => [id, await deps.members.profile(id)] as const));
  return new Map(
    found.map(([id, profile]) => [
      id,
      profile.ok ? { id, username: profile.value.username, img: profile.value.img } : { id, username: '', img: '' },
    ]),
  );
}

/**
 * Articles (spec §2 article/view, member/add-article; §7 `member/article_add`):
 * - `member/article_add` (`token`, `title` 5 to 30 characters, `content`, `imgs`: up to 9 images the member uploaded)
 *   answers `{ret: article, id}`.
 * - `article/list` (`token?`, `uid?`: one author's, `before?`: the id of the last one shown) answers `{ret: [card]}`,
 *   newest first, twenty at a time; a card is `{id, title, summary, imgs (at most 3), author: {id, username, img},
 *   created_at}`.
 * - `article/view` (`token?`, `id`) answers `{ret: article}`: `{id, title, content, imgs, author, created_at, mine}`,
 *   or `article_missing` ("content does not exist or was deleted by the author").
 * - `member/article_del` (`token`, `id`) deletes the member's own article: `{ret: true}`.
 *
 * Visitors may read; a member sees nothing of members one of the two has blocked (spec §5).
 */
export function articleRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/article_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const imgs = await ownImages(deps, me.value.id, body['imgs'] ?? [], ARTICLE_LIMITS.imagesMax);
    if (imgs === undefined) return refuse('article_images_invalid');
    const result = await deps.articles.publish(me.value.id, {
      title: body['title'],
      content: body['content'],
      images: imgs,
    });
    if (!result.ok) return refuse(result.failure);
    const authors = await authorsOf(deps, [result.value]);
    return { ret: { ...articleObject(result.value, authors), mine: true }, id: result.value.id };
  });

  post('article/list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const uid = body['uid'];
    const result = await deps.articles.list({
      viewerId,
      authorId: typeof uid === 'number' ? String(uid) : uid,
      before: body['before'],
    });
    if (!result.ok) return refuse(result.failure);
    const authors = await authorsOf(deps, result.value);
    return {
      ret: result.value.map((article) => {
        const { content, imgs, ...card } = articleObject(article, authors);
        return { ...card, summary: [...content].slice(0, SUMMARY_LENGTH).join(''), imgs: imgs.slice(0, CARD_IMAGES) };
      }),
    };
  });

  post('article/view', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.articles.view(body['id'], viewerId);
    if (!result.ok) return refuse(result.failure);
    const authors = await authorsOf(deps, [result.value]);
    return { ret: { ...articleObject(result.value, authors), mine: result.value.memberId === viewerId } };
  });

  post('member/article_del', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.articles.remove(me.value.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });
}

/** An article with its author, as its page shows it. */
function articleObject(article: ArticleRecord, authors: Map<string, { id: string; username: string; img: string }>) {
  return {
    id: article.id,
    title: article.title,
    content: article.content,
    imgs: article.images,
    author: authors.get(article.memberId) ?? { id: article.memberId, username: '', img: '' },
    created_at: article.createdAt,
  };
}
