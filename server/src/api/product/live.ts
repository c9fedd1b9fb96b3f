import type { FastifyInstance } from 'fastify';
import type { LiveLink, LiveMyLink } from '../../live/links.js';
import type { LiveAnchorRoom, LiveRoomDetail, LiveRoomSummary, LiveService } from '../../live/service.js';
import type { LiveBanRecord, LiveMember } from '../../store/index.js';
import { ownFile } from './images.js';
import type { ProductApiDeps } from './index.js';
import type { PRODUCT_MEMBER_LIMITS } from './limits.js';
import { acceptForms, refuse, type ProductAnswer, type ProductBody, type ProductPost } from './reply.js';

/** Whether member `memberId` may call a path limited per member now (LIVE-7); takes one call from their budget. */
export type MemberLimit = (path: keyof typeof PRODUCT_MEMBER_LIMITS, memberId: string) => Promise<boolean>;

/** Where the media server asks whether a stream may be pushed (LIVE-9). */
const LIVE_HOOK_PATHS = { publish: 'live/hook/publish', unpublish: 'live/hook/unpublish' } as const;

const memberSummary = ({ id, username, img }: LiveMember) => ({ id, username, img });

/** A room as lists show it. */
function roomSummary({ room, viewers }: LiveRoomSummary) {
  return {
    id: room.id,
    title: room.title,
    cover: room.cover,
    status: room.status,
    anchor: memberSummary(room.anchor),
    viewers,
    started_at: room.startedAt,
    created_at: room.createdAt,
  };
}

/** A co-broadcast link: a request waiting, or a guest on stage (LIVE-12..LIVE-14). */
const linkObject = ({ member, status, time, playUrl }: LiveLink) => ({
  uid: member.id,
  username: member.username,
  img: member.img,
  status,
  time,
  play_url: playUrl,
});

/** The member's own link: with where they push once accepted. */
const myLinkObject = (link: LiveMyLink) => ({ ...linkObject(link), push_url: link.pushUrl });

/** A room as one viewer sees it. */
function roomDetail(detail: LiveRoomDetail) {
  return {
    ...roomSummary(detail),
    ended_at: detail.room.endedAt,
    play_url: detail.playUrl,
    channel: detail.channel,
    access_token: detail.accessToken,
    goods: detail.goods,
    messages: detail.lines,
    guests: detail.guests.map(linkObject),
    me: { ...detail.me, link: detail.me.link && myLinkObject(detail.me.link) },
  };
}

/** A room as its anchor sees it: with where and how to push. */
function anchorRoom(anchor: LiveAnchorRoom) {
  return { ...roomDetail(anchor), push_url: anchor.pushUrl, stream: anchor.room.stream, push_key: anchor.room.pushKey };
}

const banObject = ({ member, kind, createdAt }: LiveBanRecord) => ({
  uid: member.id,
  username: member.username,
  img: member.img,
  kind,
  time: createdAt,
});

/**
 * Live streaming (spec §1 live anchors and audiences, §2 live, §4 live states; docs/product-app.md "Live streaming").
 * Every path needs a member's token (spec §2: live requires login). Answers:
 * - `live/list` (`page`, from 1) `{ret: [room summary]}`; `live/view` (`id`) `{ret: room detail}`;
 * - `live/mine` `{ret: {enabled, room: anchor room or null, ended: [room summary]}}`;
 * - `live/add` (`title`, `cover`) and `live/start` (`id`) `{ret: anchor room}`; `live/end` (`id`) `{ret: true}`;
 * - `live/goods` (`id`, `goods`: product ids) `{ret: [goods item]}`; `live/say` (`id`, `text`) `{ret: chat line}`;
 * - `live/ban` (`id`, `uid`, `kind`: mute or kick) and `live/restore` (`id`, `uid`) `{ret: true}`;
 * - `live/bans` (`id`) `{ret: [{uid, username, img, kind, time}]}`;
 * - co-broadcast: `live/link_request` (`id`) `{ret: my link}`; `live/link_cancel` (`id`) `{ret: true}`; the anchor's
 *   `live/links` (`id`) `{ret: [link]}`, `live/link_accept` (`id`, `uid`) `{ret: link}`, `live/link_reject` and
 *   `live/link_end` (`id`, `uid`) `{ret: true}`.
 */
export function liveRoutes(post: ProductPost, deps: ProductApiDeps, mayCall: MemberLimit): void {
  const { live } = deps;
  /** Runs `handler` for the member the token names. */
  const member = (path: string, handler: (me: LiveMember, body: ProductBody) => Promise<ProductAnswer>) =>
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      return handler({ id: me.value.id, username: me.value.username, img: me.value.img }, body);
    });

  member('live/list', async (me, body) => {
    const result = await live.list(me.id, body['page']);
    return result.ok ? { ret: result.value.map(roomSummary) } : refuse(result.failure);
  });

  member('live/view', async (me, body) => {
    const result = await live.view(me.id, body['id']);
    return result.ok ? { ret: roomDetail(result.value) } : refuse(result.failure);
  });

  member('live/mine', async (me) => {
    const { room, ended } = await live.mine(me.id);
    return { ret: { enabled: live.enabled, room: room && anchorRoom(room), ended: ended.map(roomSummary) } };
  });

  member('live/add', async (me, body) => {
    // The cover is checked as the avatar is: an image the member uploaded.
    const cover = await ownFile(deps, me.id, body['cover'], 'image');
    const result = await live.add(me.id, { title: body['title'], cover });
    return result.ok ? { ret: anchorRoom(result.value) } : refuse(result.failure);
  });

  member('live/start', async (me, body) => {
    const result = await live.start(me.id, body['id']);
    return result.ok ? { ret: anchorRoom(result.value) } : refuse(result.failure);
  });

  member('live/end', async (me, body) => {
    const result = await live.end(me.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  member('live/goods', async (me, body) => {
    const result = await live.setGoods(me.id, body['id'], body['goods']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  member('live/say', async (me, body) => {
    if (!(await mayCall('live/say', me.id))) return refuse('too_frequent');
    const result = await live.say(me, body['id'], body['text']);
    return result.ok ? { ret: result.value } : refuse(result.failure);
  });

  member('live/ban', async (me, body) => {
    const result = await live.ban(me.id, body['id'], body['uid'], body['kind']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  member('live/restore', async (me, body) => {
    const result = await live.restore(me.id, body['id'], body['uid']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  member('live/bans', async (me, body) => {
    const result = await live.bans(me.id, body['id']);
    return result.ok ? { ret: result.value.map(banObject) } : refuse(result.failure);
  });

  member('live/link_request', async (me, body) => {
    if (!(await mayCall('live/link_request', me.id))) return refuse('too_frequent');
    const result = await live.requestLink(me, body['id']);
    return result.ok ? { ret: myLinkObject(result.value) } : refuse(result.failure);
  });

  member('live/link_cancel', async (me, body) => {
    const result = await live.cancelLink(me.id, body['id']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  member('live/links', async (me, body) => {
    const result = await live.links(me.id, body['id']);
    return result.ok ? { ret: result.value.map(linkObject) } : refuse(result.failure);
  });

  member('live/link_accept', async (me, body) => {
    const result = await live.acceptLink(me.id, body['id'], body['uid']);
    return result.ok ? { ret: linkObject(result.value) } : refuse(result.failure);
  });

  member('live/link_reject', async (me, body) => {
    const result = await live.rejectLink(me.id, body['id'], body['uid']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });

  member('live/link_end', async (me, body) => {
    const result = await live.endLink(me.id, body['id'], body['uid']);
    return result.ok ? { ret: true } : refuse(result.failure);
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The stream and key of a media server's `on_publish`: nginx-rtmp posts the stream as `name` and the push URL's query
 * arguments (`key`) as fields; SRS posts JSON with `stream` and the query as `param` (`?key=...`).
 */
function publishOf(fields: Record<string, unknown>): { stream: unknown; key: unknown } {
  const stream = fields['stream'] ?? fields['name'];
  const param = fields['param'];
  const key = fields['key'] ?? (typeof param === 'string' ? new URLSearchParams(param).get('key') : undefined);
  return { stream, key };
}

/**
 * LIVE-9, LIVE-14: the media server's hooks, under the product API's base and without a member's token: `publish`
 * answers 200 `{code: 0}` to a stream and key of a room not ended (and starts it) or of a guest on stage, else 403
 * `{code: 403}`; `unpublish` answers 200 `{code: 0}` and marks a room's own stream lost, which ends the room when
 * it stays lost (LIVE-17), since the anchor's software may reconnect meanwhile. Bodies are JSON or a form.
 */
export function liveHookRoutes(app: FastifyInstance, base: string, live: LiveService): void {
  void app.register((scope, _options, done) => {
    acceptForms(scope);
    scope.post(`${base}${LIVE_HOOK_PATHS.publish}`, async (request, reply) => {
      const allowed = await live.publishing(publishOf(isRecord(request.body) ? request.body : {}));
      return allowed ? { code: 0 } : reply.code(403).send({ code: 403 });
    });
    scope.post(`${base}${LIVE_HOOK_PATHS.unpublish}`, async (request) => {
      await live.unpublishing(publishOf(isRecord(request.body) ? request.body : {}));
      return { code: 0 };
    });
    done();
  });
}
