import { randomBytes } from 'node:crypto';
import type { LiveConfig } from '../config.js';
import { lineOf } from '../members/addresses.js';
import { isRowKey, type MemberResult, type MemberService } from '../members/service.js';
import { type LiveLinkService, createLiveLinks } from './links.js';
import {
  LIVE_LIMITS,
  chatLineOf,
  fail,
  goodsItemOf,
  keyMatches,
  liveChannel,
  memberIdOf,
  pushOf,
  randomName,
  type LiveAnchorRoom,
  type LiveChatLine,
  type LiveEvent,
  type LiveGoodsItem,
  type LiveRoomDetail,
  type LiveRoomSummary,
} from './model.js';
import {
  LIVE_STATUS,
  type LiveBanRecord,
  type LiveLinkStore,
  type LiveMember,
  type LiveRoomRecord,
  type LiveStore,
  type ProductRecord,
  type ProductStore,
} from '../store/index.js';

export {
  LIVE_LIMITS,
  type LiveAnchorRoom,
  type LiveChatLine,
  type LiveEvent,
  type LiveGoodsItem,
  type LiveRoomDetail,
  type LiveRoomSummary,
} from './model.js';

/** Live rooms (spec §1 live anchors and audiences, §4 live states and anchor actions), with co-broadcast. No HTTP here. */
export interface LiveService extends LiveLinkService {
  /** Whether live streaming is set up on this server (LIVE-1). */
  readonly enabled: boolean;
  /** Rooms not ended, `page` (from 1) of them, none of a member a block stands between with the viewer (LIVE-5). */
  list(viewerId: string, page: unknown): Promise<MemberResult<LiveRoomSummary[]>>;
  /** Room `id` as `viewerId` sees it; `live_missing` across a block, `live_removed` when kicked (LIVE-8). */
  view(viewerId: string, id: unknown): Promise<MemberResult<LiveRoomDetail>>;
  /** The member's room not ended, if any, and their latest ended rooms. */
  mine(anchorId: string): Promise<{ room: LiveAnchorRoom | null; ended: LiveRoomSummary[] }>;
  /** A certified member opens a room; `cover` is undefined when it is not an image of theirs (LIVE-2, LIVE-3). */
  add(anchorId: string, fields: { title: unknown; cover: string | undefined }): Promise<MemberResult<LiveAnchorRoom>>;
  /** The anchor starts their room; starting a live room again changes nothing (LIVE-4). */
  start(anchorId: string, id: unknown): Promise<MemberResult<LiveAnchorRoom>>;
  /** The anchor ends their room (LIVE-4). */
  end(anchorId: string, id: unknown): Promise<MemberResult<void>>;
  /** The anchor sets the products their room shows (LIVE-6). */
  setGoods(anchorId: string, id: unknown, goods: unknown): Promise<MemberResult<LiveGoodsItem[]>>;
  /** A member says something in a live room (LIVE-7). */
  say(member: LiveMember, id: unknown, text: unknown): Promise<MemberResult<LiveChatLine>>;
  /** The anchor mutes or kicks member `uid` (LIVE-8). */
  ban(anchorId: string, id: unknown, uid: unknown, kind: unknown): Promise<MemberResult<void>>;
  /** The anchor lifts member `uid`'s ban; lifting none is no error (LIVE-8). */
  restore(anchorId: string, id: unknown, uid: unknown): Promise<MemberResult<void>>;
  /** The anchor's list of their room's bans, the newest first. */
  bans(anchorId: string, id: unknown): Promise<MemberResult<LiveBanRecord[]>>;
  /** The media server asks whether a stream may be pushed; a good one starts its room (LIVE-9). */
  publishing(params: { stream: unknown; key: unknown }): Promise<boolean>;
  /** The media server says a stream stopped: a live room's own (LIVE-17) or a guest's on stage (LIVE-18) is lost. */
  unpublishing(params: { stream: unknown; key: unknown }): Promise<void>;
  /**
   * Ends the rooms left behind, live with their stream lost too long or never started (LIVE-17), and the places on
   * stage of guests whose stream stayed lost (LIVE-18); how many of both.
   */
  endStale(): Promise<number>;
  /** The id of the member's room not ended, if any. */
  openRoomOf(anchorId: string): Promise<string | undefined>;
  /** Tells the channel of room `id` that it ended, if it did: after a cancellation ended it (LIVE-10). */
  announceEnd(id: string): Promise<void>;
  /** The rooms where the member holds a co-broadcast request or a place on stage. */
  linkRoomsOf(memberId: string): Promise<string[]>;
  /** Tells the channels of `roomIds` that the member's link ended, where it did: after a cancellation (LIVE-15). */
  announceLinkEnds(memberId: string, roomIds: readonly string[]): Promise<void>;
}

/** What {@link createLiveService} needs. */
export interface LiveServiceDeps {
  live: LiveStore;
  links: LiveLinkStore;
  products: Pick<ProductStore, 'byId'>;
  members: Pick<MemberService, 'profile'>;
  config: LiveConfig;
  /** Whether a block stands between two members, either way. */
  blocked: (a: string, b: string) => Promise<boolean>;
  /** Publishes an event on a room's channel. */
  publish: (channel: string, event: LiveEvent) => Promise<void>;
  /** How many are present on a channel now. */
  viewers: (channel: string) => Promise<number>;
  /** A read-only token to `channel` for the member until `expiresAt`, or null when the messaging app needs none. */
  accessToken: (params: { memberId: string; channel: string; expiresAt: number }) => string | null;
  now: () => number;
}

/** Creates the live service over its store. */
export function createLiveService(deps: LiveServiceDeps): LiveService {
  const { live, config, now } = deps;
  const enabled = config.pushUrl !== '' && config.playUrl !== '';
  const fill = (template: string, { stream, pushKey }: { stream: string; pushKey: string }) =>
    template.replaceAll('{stream}', stream).replaceAll('{key}', pushKey);

  const roomById = async (id: unknown) => (isRowKey(id) && id !== undefined ? live.byId(id) : undefined);
  /** Room `id` when it is `anchorId`'s; anyone else's is as good as none. */
  const owned = async (anchorId: string, id: unknown): Promise<MemberResult<LiveRoomRecord>> => {
    const room = await roomById(id);
    return room?.anchor.id === anchorId ? { ok: true, value: room } : fail('live_missing');
  };
  const publish = (room: LiveRoomRecord, event: LiveEvent) => deps.publish(liveChannel(room.id), event);
  const stage = createLiveLinks({
    links: deps.links,
    roomById,
    owned,
    blocked: deps.blocked,
    memberIdOf,
    playUrl: (stream) => fill(config.playUrl, { stream, pushKey: '' }),
    pushUrl: (stream, pushKey) => fill(config.pushUrl, { stream, pushKey }),
    newStream: () => ({ stream: randomName(LIVE_LIMITS.streamLength), pushKey: randomName(LIVE_LIMITS.pushKeyLength) }),
    publish: (roomId, event) => deps.publish(liveChannel(roomId), event),
    now,
  });
  const viewers = (room: LiveRoomRecord) => deps.viewers(liveChannel(room.id)).catch(() => 0);
  const summary = async (room: LiveRoomRecord): Promise<LiveRoomSummary> => ({ room, viewers: await viewers(room) });

  /** The products of `ids` still on sale, in order. */
  const goodsOf = async (ids: readonly string[]) => {
    const products = await Promise.all(ids.map((id) => deps.products.byId(id)));
    return products.filter((p) => p?.status === 'on_sale').map((p) => goodsItemOf(p as ProductRecord));
  };

  const detail = async (room: LiveRoomRecord, viewerId: string): Promise<LiveRoomDetail> => {
    const channel = liveChannel(room.id);
    const anchor = room.anchor.id === viewerId;
    const [viewing, goods, lines, ban, { guests, mine }] = await Promise.all([
      viewers(room),
      goodsOf(room.goods),
      live.lines(room.id, LIVE_LIMITS.linesShown),
      anchor ? undefined : live.banOf(room.id, viewerId),
      stage.viewOf(room, viewerId),
    ]);
    return {
      room,
      viewers: viewing,
      playUrl: enabled && room.status === LIVE_STATUS.live ? fill(config.playUrl, room) : null,
      channel,
      accessToken: deps.accessToken({ memberId: viewerId, channel, expiresAt: now() + LIVE_LIMITS.accessTtlMs }),
      goods,
      lines: lines.map(chatLineOf),
      guests,
      me: { anchor, muted: ban === 'mute', link: mine },
    };
  };
  const anchorRoom = async (room: LiveRoomRecord): Promise<LiveAnchorRoom> => ({
    ...(await detail(room, room.anchor.id)),
    pushUrl: enabled ? fill(config.pushUrl, room) : '',
  });
  /** The room as it is now, for its anchor. */
  const anchorRoomNow = async (id: string): Promise<MemberResult<LiveAnchorRoom>> => {
    const room = await live.byId(id);
    return room ? { ok: true, value: await anchorRoom(room) } : fail('live_missing');
  };

  let staleLookedAt = -Infinity;
  async function endStale(): Promise<number> {
    const at = now();
    staleLookedAt = at;
    const rooms = await live.stale({
      lostBefore: at - LIVE_LIMITS.streamLostGraceMs,
      createdBefore: at - LIVE_LIMITS.notStartedMaxMs,
      limit: LIVE_LIMITS.staleBatch,
    });
    let ended = 0;
    for (const room of rooms) {
      if (!(await live.end(room.id, room.anchor.id, at))) continue;
      ended += 1;
      await publish(room, { type: 'status', status: LIVE_STATUS.ended });
    }
    // LIVE-18: guests whose stream stayed lost leave the stage.
    return ended + (await stage.endLost(at));
  }
  /**
   * LIVE-17: before a read shows rooms, those left behind end, at most once in {@link LIVE_LIMITS.staleCheckMs}; a
   * failure here leaves them to the next look, not the read.
   */
  const upkeep = async () => {
    if (now() - staleLookedAt < LIVE_LIMITS.staleCheckMs) return;
    await endStale().catch(() => 0);
  };

  return {
    ...stage.service,
    enabled,

    async list(viewerId, page) {
      const number = page === undefined ? 1 : typeof page === 'string' && /^\d{1,9}$/.test(page) ? Number(page) : page;
      if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) return fail('bad_params');
      await upkeep();
      const { pageSize } = LIVE_LIMITS;
      const rooms = await live.list({ viewerId, offset: (number - 1) * pageSize, limit: pageSize });
      return { ok: true, value: await Promise.all(rooms.map(summary)) };
    },

    async view(viewerId, id) {
      await upkeep();
      const room = await roomById(id);
      if (!room) return fail('live_missing');
      if (room.anchor.id !== viewerId) {
        if (await deps.blocked(viewerId, room.anchor.id)) return fail('live_missing');
        if ((await live.banOf(room.id, viewerId)) === 'kick') return fail('live_removed');
      }
      return { ok: true, value: await detail(room, viewerId) };
    },

    async mine(anchorId) {
      await upkeep();
      const [open, ended] = await Promise.all([live.openOf(anchorId), live.endedOf(anchorId, LIVE_LIMITS.endedShown)]);
      return { room: open ? await anchorRoom(open) : null, ended: await Promise.all(ended.map(summary)) };
    },

    async add(anchorId, { title, cover }) {
      if (!enabled) return fail('live_unavailable');
      const titled = lineOf(title, LIVE_LIMITS.titleMax);
      if (titled === undefined) return fail('live_title_invalid');
      if (cover === undefined) return fail('live_cover_invalid');
      // A room of theirs left behind must not keep the anchor from opening another.
      await upkeep();
      const id = randomBytes(8).toString('hex');
      const outcome = await live.add({
        id,
        anchorId,
        title: titled,
        cover,
        stream: randomName(LIVE_LIMITS.streamLength),
        pushKey: randomName(LIVE_LIMITS.pushKeyLength),
        createdAt: now(),
      });
      if (outcome === 'uncertified') return fail('live_cert_required');
      if (outcome === 'open') return fail('live_open');
      if (outcome === 'missing') return fail('user_missing');
      return anchorRoomNow(id);
    },

    async start(anchorId, id) {
      if (!enabled) return fail('live_unavailable');
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      if (await live.start(room.value.id, anchorId, now())) {
        await publish(room.value, { type: 'status', status: LIVE_STATUS.live });
      }
      const current = await anchorRoomNow(room.value.id);
      // Ended before, or by an end that came first.
      return current.ok && current.value.room.status === LIVE_STATUS.ended ? fail('live_state') : current;
    },

    async end(anchorId, id) {
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      if (!(await live.end(room.value.id, anchorId, now()))) return fail('live_state');
      await publish(room.value, { type: 'status', status: LIVE_STATUS.ended });
      return { ok: true, value: undefined };
    },

    async setGoods(anchorId, id, goods) {
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      if (room.value.status === LIVE_STATUS.ended) return fail('live_state');
      const ids: unknown = goods;
      if (
        !Array.isArray(ids) ||
        ids.length > LIVE_LIMITS.goodsMax ||
        !ids.every((item): item is string => typeof item === 'string' && isRowKey(item)) ||
        new Set(ids).size !== ids.length
      ) {
        return fail('live_goods_invalid');
      }
      const products = await Promise.all(ids.map((productId) => deps.products.byId(productId)));
      if (!products.every((p) => p?.status === 'on_sale' && p.memberId === anchorId)) return fail('live_goods_invalid');
      if (!(await live.setGoods(room.value.id, anchorId, ids))) return fail('live_state');
      const items = (products as ProductRecord[]).map(goodsItemOf);
      await publish(room.value, { type: 'goods', goods: items });
      return { ok: true, value: items };
    },

    async say(member, id, text) {
      const room = await roomById(id);
      if (!room) return fail('live_missing');
      if (room.anchor.id !== member.id && (await deps.blocked(member.id, room.anchor.id))) return fail('live_missing');
      const said = lineOf(text, LIVE_LIMITS.textMax);
      if (said === undefined) return fail('live_text_invalid');
      const line = { id: randomBytes(8).toString('hex'), roomId: room.id, memberId: member.id, text: said };
      const createdAt = now();
      if (!(await live.say({ ...line, createdAt }))) {
        const current = await live.byId(room.id);
        return current?.status === LIVE_STATUS.live ? fail('live_removed') : fail('live_state');
      }
      const chat = chatLineOf({ ...line, member, createdAt });
      await publish(room, { type: 'chat', ...chat });
      return { ok: true, value: chat };
    },

    async ban(anchorId, id, uid, kind) {
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      if (kind !== 'mute' && kind !== 'kick') return fail('bad_params');
      if (memberIdOf(uid) === anchorId) return fail('live_ban_self');
      const member = await deps.members.profile(uid);
      if (!member.ok) return fail('user_missing');
      const outcome = await live.ban({ roomId: room.value.id, memberId: member.value.id, kind, now: now() });
      if (outcome.changed) await publish(room.value, { type: kind, uid: member.value.id });
      if (outcome.linkEnded) await stage.announceKick(room.value, member.value.id);
      return { ok: true, value: undefined };
    },

    async restore(anchorId, id, uid) {
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      const memberId = memberIdOf(uid);
      if (memberId === undefined) return fail('bad_params');
      if (await live.restore(room.value.id, memberId)) await publish(room.value, { type: 'restore', uid: memberId });
      return { ok: true, value: undefined };
    },

    async bans(anchorId, id) {
      const room = await owned(anchorId, id);
      if (!room.ok) return room;
      return { ok: true, value: await live.bans(room.value.id, LIVE_LIMITS.bansShown) };
    },

    async publishing({ stream, key }) {
      const push = enabled ? pushOf(stream, key) : undefined;
      if (!push) return false;
      const room = await live.byStream(push.stream);
      if (!room) return stage.publishing(push.stream, push.key);
      if (!keyMatches(push.key, room.pushKey)) return false;
      if (room.status === LIVE_STATUS.notStarted && (await live.start(room.id, room.anchor.id, now()))) {
        await publish(room, { type: 'status', status: LIVE_STATUS.live });
        return true;
      }
      // Live already (the software reconnected, and its stream is back), or started or ended a moment ago.
      if ((await live.byId(room.id))?.status !== LIVE_STATUS.live) return false;
      await live.streamLost(room.id, null);
      return true;
    },

    async unpublishing({ stream, key }) {
      const push = enabled ? pushOf(stream, key) : undefined;
      if (!push) return;
      const room = await live.byStream(push.stream);
      if (!room) await stage.unpublishing(push.stream, push.key);
      else if (keyMatches(push.key, room.pushKey)) await live.streamLost(room.id, now());
    },

    endStale,

    async openRoomOf(anchorId) {
      return (await live.openOf(anchorId))?.id;
    },

    async announceEnd(id) {
      const room = await live.byId(id);
      if (room?.status === LIVE_STATUS.ended) await publish(room, { type: 'status', status: LIVE_STATUS.ended });
    },

    linkRoomsOf: (memberId) => stage.openRoomsOf(memberId),
    announceLinkEnds: (memberId, roomIds) => stage.announceEnds(memberId, roomIds),
  };
}
