import { ARTICLE_LIMITS } from '../../content/articles.js';
import type { ChannelChoice } from '../../content/channels.js';
import type { MemberResult } from '../../members/service.js';
import type { ArticleRecord, ChannelRecord, ReactionCounts } from '../../store/index.js';
import type { VideoSource } from '../../uploads/renditions.js';
import { ownImages } from './images.js';
import { reactionRoutes } from './reactions.js';
import { videoSourcesOf } from './video-sources.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';

/** How much of the text a feed card shows, in characters. */
const SUMMARY_LENGTH = 100;
/** How many images a feed card shows. */
const CARD_IMAGES = 3;

/** The member a call comes from: a member's `token`, or a visitor (none, or one no longer valid). */
export async function viewerOf(deps: ProductApiDeps, body: ProductBody): Promise<string | undefined> {
  if (body['token'] === undefined) return undefined;
  const me = await deps.members.byToken(body['token']);
  return me.ok ? me.value.id : undefined;
}

/** Members as lists show them (`{id, username, img}`, empty once cancelled), each looked up once. */
export async function membersOf(deps: ProductApiDeps, memberIds: readonly string[]) {
  const ids = [...new Set(memberIds)];
  const found = await Promise.all(ids.map(async (id) => [id, await deps.members.profile(id)] as const));
  return new Map(
    found.map(([id, profile]) => [
      id,
      profile.ok ? { id, username: profile.value.username, img: profile.value.img } : { id, username: '', img: '' },
    ]),
  );
}

/** The channel `typeid` names: null when it names none (absent or empty), `channel_missing` when it is no channel. */
export async function channelOf(deps: ProductApiDeps, typeid: unknown): Promise<MemberResult<ChannelRecord | null>> {
  if (typeid === undefined || typeid === '') return { ok: true, value: null };
  return deps.channels.byId(typeid);
}

/** Channels as the app shows them: `{id, name}`. */
const channelView = ({ id, name }: ChannelRecord) => ({ id, name });
const choiceView = ({ mine, more }: ChannelChoice) => ({ mine: mine.map(channelView), more: more.map(channelView) });

/**
 * Articles (spec §2 article/view, member/add-article; §7 `member/article_add`):
 * - `member/article_add` (`token`, `title` 5 to 30 characters, `content`, `imgs`: up to 9 images the member uploaded,
 *   `typeid?`: its channel) answers `{ret: article, id}`.
 * - `article/list` (plain articles, videos being listed by `video/lists`; `token?`, `uid?`: one author's, `typeid?`: one channel's, `keyword?`: those whose title or text holds it, at most 20
 *   characters, `before?`: the id of the last one shown) answers `{ret: [card]}`, newest first, twenty at a time; a
 *   card is `{id, title, summary, imgs (at most 3), author: {id, username, img}, channel: {id, name} | null,
 *   created_at, likes, comments, liked, video}`.
 * - `article/typeid` (`token?`) answers `{ret: {mine, more}}`: the channels of the front page in the member's order
 *   (the default ones for a visitor or a member who has not chosen) and the others, each `{id, name}`;
 *   `member/typeid_set` (`token`, `ids`: the channels chosen, in order, at least one) answers the same.
 * - `article/view` (`token?`, `id`) answers `{ret: article}`: `{id, title, content, imgs, author, channel, created_at,
 *   likes, comments, liked, video, collected, mine}`, `video` being `{url, cover, sources}` for a video (`sources`: its
 *   resolutions, UP-22) and null otherwise, or `article_missing` ("content does not exist or was deleted by the
 *   author").
 * - `member/article_del` (`token`, `id`) deletes the member's own article: `{ret: true}`.
 * - `article/shoucang` (`token`, `id`, `shoucang`: true to collect, false to uncollect) answers `{ret: {collected}}`;
 *   `member/record` (`token`, `before?`) answers the member's collection as cards, the latest collected first.
 *
 * - Comments and likes: `article/ping_add`, `article/ping_list`, `member/ping_del`, `article/zan` and
 *   `article/zan_list`, as {@link reactionRoutes} gives them.
 *
 * Articles and cards carry `likes`, `comments` and `liked` (by the viewer). Visitors may read; a member sees nothing
 * of members one of the two has blocked (spec §5), and can neither comment on nor like their articles.
 */
export function articleRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/article_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const imgs = await ownImages(deps, me.value.id, body['imgs'] ?? [], ARTICLE_LIMITS.imagesMax);
    if (imgs === undefined) return refuse('article_images_invalid');
    const channel = await channelOf(deps, body['typeid']);
    if (!channel.ok) return refuse(channel.failure);
    const result = await deps.articles.publish(me.value.id, {
      title: body['title'],
      content: body['content'],
      images: imgs,
      channelId: channel.value?.id ?? null,
    });
    if (!result.ok) return refuse(result.failure);
    const authors = await membersOf(deps, [result.value.memberId]);
    const channels = new Map(channel.value ? [[channel.value.id, channel.value]] : []);
    const article = articleObject(result.value, authors, channels, undefined, new Map());
    return { ret: { ...article, mine: true }, id: result.value.id };
  });

  post('article/typeid', async (body) => ({
    ret: choiceView(await deps.channels.choiceOf(await viewerOf(deps, body))),
  }));

  post('member/typeid_set', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.channels.choose(me.value.id, body['ids']);
    return result.ok ? { ret: choiceView(result.value) } : refuse(result.failure);
  });

  post('article/list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const uid = body['uid'];
    const channel = await channelOf(deps, body['typeid']);
    if (!channel.ok) return refuse(channel.failure);
    const result = await deps.articles.list({
      viewerId,
      authorId: typeof uid === 'number' ? String(uid) : uid,
      channelId: channel.value?.id,
      keyword: body['keyword'],
      before: body['before'],
    });
    return result.ok ? { ret: await cardsOf(deps, result.value, viewerId) } : refuse(result.failure);
  });

  post('member/record', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.articles.collection(me.value.id, body['before']);
    return result.ok ? { ret: await cardsOf(deps, result.value, me.value.id) } : refuse(result.failure);
  });

  post('article/shoucang', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.articles.collect(me.value.id, body['id'], body['shoucang']);
    return result.ok ? { ret: { collected: result.value } } : refuse(result.failure);
  });

  post('article/view', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.articles.view(body['id'], viewerId);
    if (!result.ok) return refuse(result.failure);
    const [authors, counts, collected, channels, sources] = await Promise.all([
      membersOf(deps, [result.value.memberId]),
      deps.reactions.counts([result.value.id], viewerId),
      deps.articles.collected(viewerId, [result.value.id]),
      channelsById(deps),
      videoSourcesOf(deps, [result.value.video?.url]),
    ]);
    const article = articleObject(result.value, authors, channels, counts.get(result.value.id), sources);
    return { ret: { ...article, collected: collected.has(result.value.id), mine: result.value.memberId === viewerId } };
  });

  reactionRoutes(post, deps, deps.reactions, { subject: 'article', remove: 'member/ping_del' });

  post('member/article_del', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.articles.remove(me.value.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });
}

/** Feed cards of `articles` as `viewerId` sees them: the summary and at most three images in place of the text. */
export async function cardsOf(deps: ProductApiDeps, articles: readonly ArticleRecord[], viewerId: string | undefined) {
  const ids = articles.map((article) => article.id);
  const [authors, counts, channels, sources] = await Promise.all([
    membersOf(
      deps,
      articles.map((article) => article.memberId),
    ),
    deps.reactions.counts(ids, viewerId),
    channelsById(deps),
    videoSourcesOf(
      deps,
      articles.map((article) => article.video?.url),
    ),
  ]);
  return articles.map((article) => {
    const { content, imgs, ...card } = articleObject(article, authors, channels, counts.get(article.id), sources);
    return { ...card, summary: [...content].slice(0, SUMMARY_LENGTH).join(''), imgs: imgs.slice(0, CARD_IMAGES) };
  });
}

/** Every channel by its id (a few dozen at most), to name the channels of articles. */
async function channelsById(deps: ProductApiDeps): Promise<Map<string, ChannelRecord>> {
  return new Map((await deps.channels.all()).map((channel) => [channel.id, channel]));
}

/**
 * An article with its author, its channel (null for none, or one since removed), counts and its video's resolutions
 * (from {@link videoSourcesOf}), as its page shows it.
 */
export function articleObject(
  article: ArticleRecord,
  authors: Map<string, { id: string; username: string; img: string }>,
  channels: Map<string, ChannelRecord>,
  counts: ReactionCounts | undefined,
  sources: ReadonlyMap<string, VideoSource[]>,
) {
  const channel = article.channelId === null ? undefined : channels.get(article.channelId);
  return {
    id: article.id,
    title: article.title,
    content: article.content,
    imgs: article.images,
    author: authors.get(article.memberId) ?? { id: article.memberId, username: '', img: '' },
    channel: channel ? channelView(channel) : null,
    created_at: article.createdAt,
    likes: counts?.likes ?? 0,
    comments: counts?.comments ?? 0,
    liked: counts?.liked ?? false,
    video: article.video
      ? { url: article.video.url, cover: article.video.cover, sources: sources.get(article.video.url) ?? [] }
      : null,
  };
}
