import { articleObject, cardsOf, channelOf, membersOf, viewerOf } from './articles.js';
import { ownFile } from './images.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductBody, type ProductPost } from './reply.js';
import { videoSourcesOf } from './video-sources.js';

/** The longest video address `public/video_sources` takes. */
export const VIDEO_URL_MAX = 2048;

/**
 * Videos (spec §2 video/view, member/add-video; §4 publish job: channel 2, `video_data`, `img`; §7
 * `member/video_add`, `video/lists/in/{id}`), articles with a video and a cover:
 * - `member/video_add` (`token`, `title` 5 to 30 characters, `content`, `video`: a video the member uploaded, `img`:
 *   its cover, an image the member uploaded, `typeid?`: its channel) answers `{ret: article, vid}`; it refuses in
 *   the spec's order the title and the text as `member/article_add` does, then `video_invalid` ("please upload a
 *   video") and `video_cover_missing` ("a video cover is required"). Videos count with articles against the daily
 *   most.
 * - `video/lists` (`token?`, `typeid?`: one channel's, `keyword?`: those whose title or text holds it, as
 *   `article/list` finds articles, `before?`: the id of the last one shown) and
 *   `video/lists/in/{typeid}` answer `{ret: [card]}`, newest first, twenty at a time, cards as `article/list`'s
 *   with `video: {url, cover, sources}`, `sources` being its resolutions, smallest first: `{quality: 'smooth' | 'sd' |
 *   'hd' | 'bluray', url, height}` (UP-22), none while they are not known.
 *
 * - `public/video_sources` (`url`: a video's address, 1 to {@link VIDEO_URL_MAX} characters; no token) answers
 *   `{ret: [source]}`, the resolutions of a video uploaded through the app as above, none for any other address: what
 *   the preview page (spec §2 public/openvideo) offers for a link it is given. Anything but such a string is
 *   `bad_params`.
 *
 * A video is read, commented on, liked, collected and deleted with the article calls.
 */
export function videoRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/video_add', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const channel = await channelOf(deps, body['typeid']);
    if (!channel.ok) return refuse(channel.failure);
    const [video, cover] = await Promise.all([
      ownFile(deps, me.value.id, body['video'], 'video'),
      ownFile(deps, me.value.id, body['img'], 'image'),
    ]);
    const result = await deps.articles.publishVideo(me.value.id, {
      title: body['title'],
      content: body['content'],
      video,
      cover,
      channelId: channel.value?.id ?? null,
    });
    if (!result.ok) return refuse(result.failure);
    const [authors, sources] = await Promise.all([
      membersOf(deps, [result.value.memberId]),
      videoSourcesOf(deps, [result.value.video?.url]),
    ]);
    const channels = new Map(channel.value ? [[channel.value.id, channel.value]] : []);
    const article = articleObject(result.value, authors, channels, undefined, sources);
    return { ret: { ...article, mine: true }, vid: result.value.id };
  });

  const list = async (body: ProductBody, typeid: unknown) => {
    const viewerId = await viewerOf(deps, body);
    const channel = await channelOf(deps, typeid);
    if (!channel.ok) return refuse(channel.failure);
    const result = await deps.articles.list({
      viewerId,
      videos: true,
      channelId: channel.value?.id,
      keyword: body['keyword'],
      before: body['before'],
    });
    return result.ok ? { ret: await cardsOf(deps, result.value, viewerId) } : refuse(result.failure);
  };
  post('public/video_sources', async (body) => {
    const url = body['url'];
    if (typeof url !== 'string' || url.length === 0 || url.length > VIDEO_URL_MAX) return refuse('bad_params');
    return { ret: await deps.uploads.service.videoSources(url) };
  });
  post('video/lists', (body) => list(body, body['typeid']));
  post('video/lists/in/:typeid', (body, request) => list(body, (request.params as { typeid?: string }).typeid));
}
