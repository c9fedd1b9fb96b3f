import { CIRCLE_LIMITS, type CirclePostView } from '../../content/circle.js';
import type { MemberResult } from '../../members/service.js';
import type { TopicRecord } from '../../store/index.js';
import { membersOf, viewerOf } from './articles.js';
import { ownFile, ownImages } from './images.js';
import type { ProductApiDeps } from './index.js';
import { reactionRoutes } from './reactions.js';
import { videoSourcesOf } from './video-sources.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * Circle posts (spec §1 "circle posts (images, or a video, or a vote)", §2 pages/quanzi/index, member/add-quanzi):
 * - `member/quanzi_add` (`token`, `title` 5 to 30 characters on one line, `content` 1 to 2 000 characters, `imgs?`:
 *   up to 9 images the member uploaded, or `video?` and `img?`: a video the member uploaded and its cover, an image
 *   they uploaded, or `vote?`: `{options: 2 to 10 different texts of 1 to 20 characters, days: 1, 3 or 7}`, never two
 *   of them (`post_media_exclusive`); `topic?`: the id of its topic) answers `{ret: post, id}`. The title is checked
 *   as an article's, before the text: `post_title_short` ("title must not be less than 5 characters"),
 *   `post_title_long` past 30. A video that is not the member's own upload is `video_invalid`, one without a cover
 *   `video_cover_missing`.
 * - `quanzi/list` (`token?`, `uid?`: one author's, `keyword?`: those whose title or text holds it, as `article/list`
 *   finds articles, `before?`: the id of the last one shown) answers `{ret: [post]}`,
 *   newest first, twenty at a time.
 * - `quanzi/vote` (`token`, `id`, `option`: its index, from 0) casts the member's vote, once, while it runs:
 *   `{ret: post}`.
 * - `member/quanzi_del` (`token`, `id`) deletes the member's own post: `{ret: true}`.
 * - Comments and likes: `quanzi/ping_add`, `quanzi/ping_list`, `member/quanzi_ping_del`, `quanzi/zan` and
 *   `quanzi/zan_list`, as {@link reactionRoutes} gives them for articles; a post that is not one, is deleted or is
 *   across a block is `post_missing`.
 * - `topic/index` (`token?`) answers `{ret: [topic]}`, the most posts first: `{id, title, intro, img, posts}`.
 * - `topic/list` (`token?`, `id`, `before?`) answers a topic's posts as `quanzi/list` does, with `topic`; a topic that
 *   does not exist or was removed is `topic_missing` ("topic does not exist or was deleted").
 *
 * A post is `{id, title, content, imgs, video, vote, topic: {id, title} | null, author: {id, username, img},
 * created_at, likes, comments, liked, mine}` (`title` empty for a post written before posts had titles, `liked` by the
 * viewer); `video` is null or `{url, cover, sources}` (`sources`: its resolutions, as `video/lists` gives them);
 * `vote` is null or `{options: [{text, count}], total, ends_at, ended, voted}` (`voted`: the viewer's option, or
 * null). Visitors may read; a member sees nothing of members one of the two has blocked, and cannot vote on their
 * posts.
 */
export function circleRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/quanzi_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const imgs = await ownImages(deps, me.value.id, body['imgs'] ?? [], CIRCLE_LIMITS.imagesMax);
    if (imgs === undefined) return refuse('post_images_invalid');
    const topic = await topicOf(deps, body['topic']);
    if (!topic.ok) return refuse(topic.failure);
    const asked = (value: unknown) => value !== undefined && value !== null && value !== '';
    const video = asked(body['video'])
      ? {
          url: await ownFile(deps, me.value.id, body['video'], 'video'),
          cover: asked(body['img']) ? await ownFile(deps, me.value.id, body['img'], 'image') : undefined,
        }
      : undefined;
    const result = await deps.circle.publish(me.value.id, {
      title: body['title'],
      content: body['content'],
      images: imgs,
      vote: body['vote'],
      video,
      topicId: topic.value?.id ?? null,
    });
    if (!result.ok) return refuse(result.failure);
    const [shown] = await postsOf(deps, [result.value], me.value.id);
    return { ret: shown, id: result.value.post.id };
  });

  post('quanzi/list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const uid = body['uid'];
    const result = await deps.circle.list({
      viewerId,
      authorId: typeof uid === 'number' ? String(uid) : uid,
      keyword: body['keyword'],
      before: body['before'],
    });
    return result.ok ? { ret: await postsOf(deps, result.value, viewerId) } : refuse(result.failure);
  });

  // One post, as the circle shows it (its vote with the viewer's choice): `post_missing` when it is not there to see.
  post('quanzi/view', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const result = await deps.circle.show(body['id'], viewerId);
    if (!result.ok) return refuse(result.failure);
    const [shown] = await postsOf(deps, [result.value], viewerId);
    return { ret: shown };
  });

  post('topic/index', async () => ({
    ret: (await deps.topics.all()).map(({ id, title, intro, img, posts }) => ({ id, title, intro, img, posts })),
  }));

  post('topic/list', async (body) => {
    const viewerId = await viewerOf(deps, body);
    const topic = await deps.topics.byId(body['id']);
    if (!topic.ok) return refuse(topic.failure);
    const result = await deps.circle.list({ viewerId, topicId: topic.value.id, before: body['before'] });
    if (!result.ok) return refuse(result.failure);
    const { id, title, intro, img } = topic.value;
    return { ret: await postsOf(deps, result.value, viewerId), topic: { id, title, intro, img } };
  });

  post('quanzi/vote', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.circle.vote(me.value.id, body['id'], body['option']);
    if (!result.ok) return refuse(result.failure);
    const [shown] = await postsOf(deps, [result.value], me.value.id);
    return { ret: shown };
  });

  post('member/quanzi_del', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.circle.remove(me.value.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  reactionRoutes(post, deps, deps.circleReactions, { subject: 'quanzi', remove: 'member/quanzi_ping_del' });
}

/** The topic `id` names: null when it names none (absent or empty), `topic_missing` when it is no topic. */
async function topicOf(deps: ProductApiDeps, id: unknown): Promise<MemberResult<TopicRecord | null>> {
  if (id === undefined || id === '') return { ok: true, value: null };
  return deps.topics.byId(id);
}

/** Posts as the app shows them to `viewerId`, with their authors, topics and how their votes stand. */
async function postsOf(deps: ProductApiDeps, views: readonly CirclePostView[], viewerId: string | undefined) {
  const [authors, titles, reactions, sources] = await Promise.all([
    membersOf(
      deps,
      views.map(({ post }) => post.memberId),
    ),
    deps.topics.titles(views.flatMap(({ post }) => post.topicId ?? [])),
    deps.circleReactions.counts(
      views.map(({ post }) => post.id),
      viewerId,
    ),
    videoSourcesOf(
      deps,
      views.map(({ post }) => post.video?.url),
    ),
  ]);
  const now = deps.now();
  return views.map(({ post, tally }) => {
    const counts = tally?.counts ?? [];
    const reacted = reactions.get(post.id);
    return {
      id: post.id,
      title: post.title,
      content: post.content,
      imgs: post.images,
      video: post.video && { ...post.video, sources: sources.get(post.video.url) ?? [] },
      topic:
        post.topicId !== null && titles.has(post.topicId)
          ? { id: post.topicId, title: titles.get(post.topicId) }
          : null,
      vote: post.vote && {
        options: post.vote.options.map((text, index) => ({ text, count: counts[index] ?? 0 })),
        total: counts.reduce((sum, count) => sum + count, 0),
        ends_at: post.vote.endsAt,
        ended: now >= post.vote.endsAt,
        voted: tally?.mine ?? null,
      },
      author: authors.get(post.memberId) ?? { id: post.memberId, username: '', img: '' },
      created_at: post.createdAt,
      likes: reacted?.likes ?? 0,
      comments: reacted?.comments ?? 0,
      liked: reacted?.liked ?? false,
      mine: post.memberId === viewerId,
    };
  });
}
