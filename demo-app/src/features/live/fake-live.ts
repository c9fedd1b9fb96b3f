/**
 * An in-process fake of the live calls for the app's component tests (msw handlers over plain state), answering as
 * the server does: rooms listed, viewed, opened, started and ended by their anchor, goods from the anchor's products
 * on sale (`shop/business_list` with `status` and `before` too), chat, mutes, removals and restores, and
 * co-broadcast (`fake-live-links.ts`). What the
 * server publishes on a room's channel goes to `publish`, when a test gives one. Tests arrange `state`, read what was
 * `sent`, and make a call refuse with `state.refuse`. To extend it, add a handler that reads and changes `state` and
 * records its call.
 */
import { http, HttpResponse } from 'msw';
import type { Product } from '../shop/products';
import type { AnchorRoom, BanKind, ChatLine, GoodsItem, LiveMember, LiveStatus, RoomDetail, RoomSummary } from './api';
import type { LiveEvent } from './events';
import { fakeLinks, type FakeLink } from './fake-live-links';

/** A room as the fake server keeps it. */
export interface FakeRoom {
  id: string;
  anchor: LiveMember;
  title: string;
  cover: string;
  status: LiveStatus;
  stream: string;
  push_key: string;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  goods: string[];
}

export interface FakeLiveState {
  /** The signed-in member. */
  me: LiveMember;
  /** Whether the server has push and play URLs. */
  enabled: boolean;
  /** Whether the member's real-name certification passed. */
  certified: boolean;
  rooms: FakeRoom[];
  lines: Array<ChatLine & { room: string }>;
  bans: Array<{ room: string; uid: string; kind: BanKind; time: number }>;
  /** Co-broadcast requests and guests on stage. */
  links: FakeLink[];
  /** Members by id, for bans. */
  members: Record<string, LiveMember>;
  /** The member's own shop's products. */
  products: Product[];
  /** Presence counts by room id. */
  viewers: Record<string, number>;
  /** Calls that answer a refusal (by path, e.g. `live/add`) until removed. */
  refuse: Record<string, { err: string; code: string }>;
}

/** A page of rooms and of products. */
const PAGE = 20;

export const ALICE: LiveMember = { id: '42', username: 'Alice', img: 'https://files.test/alice.png' };
export const BOB: LiveMember = { id: '7', username: 'Bob', img: 'https://files.test/bob.png' };

/** A room of `anchor` (Bob unless said), not started. */
export function fakeRoom(id: string, extra: Partial<FakeRoom> = {}): FakeRoom {
  return {
    id,
    anchor: BOB,
    title: `Room ${id}`,
    cover: `https://files.test/${id}.png`,
    status: 0,
    stream: `stream${id}`,
    push_key: `key${id}`,
    created_at: 1_700_000_000_000,
    started_at: null,
    ended_at: null,
    goods: [],
    ...extra,
  };
}

/** A chat line of `member` in room `room`. */
export function fakeLine(id: string, room: string, member: LiveMember, text: string, time = 1_700_000_000_000) {
  return { id, room, uid: member.id, username: member.username, img: member.img, text, time };
}

export const playUrl = (room: FakeRoom) => `https://media.test/live/${room.stream}.m3u8`;
export const pushUrl = (room: FakeRoom) => `rtmp://media.test/live/${room.stream}?key=${room.push_key}`;

function emptyState(): FakeLiveState {
  return {
    me: ALICE,
    enabled: true,
    certified: true,
    rooms: [],
    lines: [],
    bans: [],
    links: [],
    members: { [ALICE.id]: ALICE, [BOB.id]: BOB },
    products: [],
    viewers: {},
    refuse: {},
  };
}

/** The fake live server; `publish` gets what the server publishes on a room's channel. */
export function fakeLive(publish: (channel: string, event: LiveEvent) => void = () => undefined) {
  const state = emptyState();
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  const refused = (code: string) => HttpResponse.json({ err: code, code });
  const ok = (ret: unknown) => HttpResponse.json({ ret });

  const goodsItem = (id: string): GoodsItem => {
    const product = state.products.find((p) => p.id === id);
    return { id, title: product?.title ?? id, price: product?.price ?? 0, img: product?.images[0] ?? '' };
  };
  const summary = (room: FakeRoom): RoomSummary => ({
    id: room.id,
    title: room.title,
    cover: room.cover,
    status: room.status,
    anchor: room.anchor,
    viewers: state.viewers[room.id] ?? 0,
    started_at: room.started_at,
    created_at: room.created_at,
  });
  const ban = (room: FakeRoom, uid: string) => state.bans.find((b) => b.room === room.id && b.uid === uid);
  const detail = (room: FakeRoom): RoomDetail => {
    const anchor = room.anchor.id === state.me.id;
    return {
      ...summary(room),
      ended_at: room.ended_at,
      play_url: room.status === 1 ? playUrl(room) : null,
      channel: `$live.${room.id}`,
      access_token: `read-${room.id}`,
      goods: room.goods.map(goodsItem),
      messages: state.lines
        .filter((line) => line.room === room.id)
        .slice(-50)
        .map(({ room: _room, ...line }) => line),
      guests: links.stage(room).guests,
      me: { anchor, muted: ban(room, state.me.id) !== undefined, link: anchor ? null : links.stage(room).link },
    };
  };
  const anchorRoom = (room: FakeRoom): AnchorRoom => ({
    ...detail(room),
    push_url: pushUrl(room),
    stream: room.stream,
    push_key: room.push_key,
  });
  const mineOpen = () => state.rooms.find((r) => r.anchor.id === state.me.id && r.status !== 2);
  /** A room of the member's own, or undefined (`live_missing`). */
  const own = (id: unknown) => state.rooms.find((r) => r.id === id && r.anchor.id === state.me.id);
  const onSale = () => state.products.filter((p) => p.status === 'on_sale');

  /** Records the call and reads its body; a refusal arranged for `path` comes back as `refusal`. */
  const handle = (path: string, answer: (body: Record<string, unknown>) => Response) =>
    http.post(`*/index.php/api/${path}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ path, body });
      const refusal = state.refuse[path];
      return refusal ? HttpResponse.json(refusal) : answer(body);
    });

  const links = fakeLinks({ state, handle, publish, ok, refused });

  const handlers = [
    ...links.handlers,
    handle('live/list', (body) => {
      const page = Number(body['page']);
      const order = (r: FakeRoom) => (r.status === 1 ? 2e13 + (r.started_at ?? 0) : r.created_at);
      const listed = state.rooms.filter((r) => r.status !== 2).sort((a, b) => order(b) - order(a));
      return ok(listed.slice((page - 1) * PAGE, page * PAGE).map(summary));
    }),
    handle('live/view', (body) => {
      const room = state.rooms.find((r) => r.id === body['id']);
      if (!room) return refused('live_missing');
      if (ban(room, state.me.id)?.kind === 'kick') return refused('live_removed');
      return ok(detail(room));
    }),
    handle('live/mine', () => {
      const room = mineOpen();
      const ended = state.rooms.filter((r) => r.anchor.id === state.me.id && r.status === 2).map(summary);
      return ok({ enabled: state.enabled, room: room ? anchorRoom(room) : null, ended });
    }),
    handle('live/add', (body) => {
      const title = typeof body['title'] === 'string' ? body['title'].trim() : '';
      if (title.length < 1 || title.length > 30) return refused('live_title_invalid');
      if (typeof body['cover'] !== 'string' || body['cover'] === '') return refused('live_cover_invalid');
      if (!state.enabled) return refused('live_unavailable');
      if (!state.certified) return refused('live_cert_required');
      if (mineOpen()) return refused('live_open');
      const room = fakeRoom(`r${state.rooms.length + 100}`, { anchor: state.me, title, cover: body['cover'] });
      state.rooms.push(room);
      return ok(anchorRoom(room));
    }),
    handle('live/start', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      if (room.status === 2) return refused('live_state');
      if (room.status === 0) {
        Object.assign(room, { status: 1, started_at: Date.now() });
        publish(`$live.${room.id}`, { type: 'status', status: 1 });
      }
      return ok(anchorRoom(room));
    }),
    handle('live/end', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      if (room.status === 2) return refused('live_state');
      Object.assign(room, { status: 2, ended_at: Date.now() });
      links.roomEnded(room.id);
      publish(`$live.${room.id}`, { type: 'status', status: 2 });
      return ok(true);
    }),
    handle('live/goods', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      if (room.status === 2) return refused('live_state');
      const ids = Array.isArray(body['goods']) ? body['goods'].map(String) : [];
      const valid = onSale().map((p) => p.id);
      if (ids.length > 20 || new Set(ids).size !== ids.length || ids.some((id) => !valid.includes(id))) {
        return refused('live_goods_invalid');
      }
      room.goods = ids;
      const goods = ids.map(goodsItem);
      publish(`$live.${room.id}`, { type: 'goods', goods });
      return ok(goods);
    }),
    handle('live/say', (body) => {
      const room = state.rooms.find((r) => r.id === body['id']);
      if (!room) return refused('live_missing');
      if (room.status !== 1) return refused('live_state');
      if (ban(room, state.me.id)) return refused('live_removed');
      const text = typeof body['text'] === 'string' ? body['text'].trim() : '';
      if (text.length < 1 || text.length > 100) return refused('live_text_invalid');
      const line = fakeLine(`l${state.lines.length + 1000}`, room.id, state.me, text, Date.now());
      state.lines.push(line);
      const { room: _room, ...chat } = line;
      publish(`$live.${room.id}`, { type: 'chat', ...chat });
      return ok(chat);
    }),
    handle('live/ban', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      const uid = String(body['uid']);
      if (uid === state.me.id) return refused('live_ban_self');
      if (!state.members[uid]) return refused('user_missing');
      const kind = body['kind'] === 'kick' ? 'kick' : 'mute';
      state.bans = state.bans.filter((b) => !(b.room === room.id && b.uid === uid));
      state.bans.unshift({ room: room.id, uid, kind, time: Date.now() });
      publish(`$live.${room.id}`, { type: kind, uid });
      if (kind === 'kick') links.kicked(room.id, uid);
      return ok(true);
    }),
    handle('live/restore', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      const uid = String(body['uid']);
      state.bans = state.bans.filter((b) => !(b.room === room.id && b.uid === uid));
      publish(`$live.${room.id}`, { type: 'restore', uid });
      return ok(true);
    }),
    handle('live/bans', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      const list = state.bans
        .filter((b) => b.room === room.id)
        .map((b) => ({ ...state.members[b.uid], uid: b.uid, kind: b.kind, time: b.time }));
      return ok(list.map(({ uid, username, img, kind, time }) => ({ uid, username, img, kind, time })));
    }),
    handle('shop/business_list', (body) => {
      const listed =
        body['status'] === undefined ? state.products : state.products.filter((p) => p.status === body['status']);
      const start = body['before'] === undefined ? 0 : listed.findIndex((p) => p.id === body['before']) + 1;
      return ok(listed.slice(start, start + PAGE));
    }),
  ];

  return {
    state,
    sent,
    handlers,
    /** The anchor of another member's room accepts, rejects or ends `uid`'s co-broadcast there. */
    anchorDoes: links.anchorDoes,
    /** What was sent to `path`, oldest first. */
    calls: (path: string) => sent.filter((call) => call.path === path).map((call) => call.body),
    /** Back to no rooms, lines, bans, links or products, Alice signed in and certified, nothing sent. */
    reset() {
      Object.assign(state, emptyState());
      sent.length = 0;
    },
  };
}

/** What {@link fakeLive} gives a test. */
export type FakeLive = ReturnType<typeof fakeLive>;
