import { apiPost, type CallContext } from '../api/request';

/** The query key of everything about live rooms; invalidating it refreshes the list, the rooms and the anchor's. */
export const LIVE_QUERY = 'live';

/** The query key of room `id`'s page as member `memberId` sees it. */
export const roomKey = (id: string, memberId: string | undefined) => [LIVE_QUERY, 'view', id, memberId] as const;

/** Where a live stands (spec §4): not started, live, ended. */
export type LiveStatus = 0 | 1 | 2;

/** A member as a room names them. */
export interface LiveMember {
  id: string;
  username: string;
  img: string;
}

/** A room as the list shows it; `viewers` is how many were on the room's channel when asked (0 when unknown). */
export interface RoomSummary {
  id: string;
  title: string;
  cover: string;
  status: LiveStatus;
  anchor: LiveMember;
  viewers: number;
  started_at: number | null;
  created_at: number;
}

/** A product shown in a live, from the anchor's own shop. */
export interface GoodsItem {
  id: string;
  title: string;
  price: number;
  img: string;
}

/** One line of a room's chat. */
export interface ChatLine {
  id: string;
  uid: string;
  username: string;
  img: string;
  text: string;
  time: number;
}

/** A room as its page shows it: the play URL while it is live, its channel, goods, newest chat and what the member may do. */
export interface RoomDetail extends RoomSummary {
  ended_at: number | null;
  play_url: string | null;
  /** The room's pub/sub channel, `$live.<id>`, which only the server publishes on. */
  channel: string;
  /** Read access to the channel, when the messaging app requires tokens. */
  access_token: string | null;
  goods: GoodsItem[];
  /** The newest 50 lines, oldest first. */
  messages: ChatLine[];
  /** The guests on stage, in the order they were accepted. */
  guests: LiveLink[];
  /** `link`: the member's own request or place on stage, if any. */
  me: { anchor: boolean; muted: boolean; link: MyLink | null };
}

/** The anchor's own room: where their streaming software sends the stream. */
export interface AnchorRoom extends RoomDetail {
  push_url: string;
  stream: string;
  push_key: string;
}

/** What the anchor's page needs: whether the server has live streaming, their open room and their ended ones. */
export interface MyLive {
  enabled: boolean;
  room: AnchorRoom | null;
  ended: RoomSummary[];
}

/** A viewer the anchor muted or removed from a room. */
export interface LiveBan {
  uid: string;
  username: string;
  img: string;
  kind: BanKind;
  time: number;
}

/** Where a co-broadcast stands (spec §4): the viewer asked and waits, or the anchor took them on stage. */
export type LinkStatus = 'waiting' | 'accepted';

/** A viewer's request to co-broadcast with the anchor, or their place on stage. */
export interface LiveLink {
  uid: string;
  username: string;
  img: string;
  status: LinkStatus;
  /** When they asked, or when they were accepted. */
  time: number;
  /** The guest's stream, once accepted. */
  play_url: string | null;
}

/** The member's own co-broadcast: once accepted, where their streaming software sends their stream. */
export interface MyLink extends LiveLink {
  push_url: string | null;
}

/** What the anchor does to a viewer (spec §4): mute, or remove from the room (kick). */
export type BanKind = 'mute' | 'kick';

/** Bounds the server checks too. */
export const LIVE_LIMITS = { titleMax: 30, textMax: 100, goodsMax: 20, pageSize: 20, guestsMax: 3 } as const;

/** A page (from 1) of rooms: live ones newest start first, then those not started newest first. */
export async function roomPage(page: number, context: CallContext): Promise<RoomSummary[]> {
  return (await apiPost<{ ret: RoomSummary[] }>('live/list', { page }, context)).ret;
}

export async function roomView(id: string, context: CallContext): Promise<RoomDetail> {
  return (await apiPost<{ ret: RoomDetail }>('live/view', { id }, context)).ret;
}

export async function myLive(context: CallContext): Promise<MyLive> {
  return (await apiPost<{ ret: MyLive }>('live/mine', {}, context)).ret;
}

/** Opens a room that has not started; its push URL is the anchor's to use. */
export async function addRoom(draft: { title: string; cover: string }, context: CallContext): Promise<AnchorRoom> {
  return (await apiPost<{ ret: AnchorRoom }>('live/add', draft, context, { loading: true })).ret;
}

export async function startRoom(id: string, context: CallContext): Promise<AnchorRoom> {
  return (await apiPost<{ ret: AnchorRoom }>('live/start', { id }, context, { loading: true })).ret;
}

/** Ends a room for good. */
export async function endRoom(id: string, context: CallContext): Promise<void> {
  await apiPost('live/end', { id }, context, { loading: true });
}

/** Sets the goods shown in a room, in order. */
export async function setRoomGoods(id: string, goods: string[], context: CallContext): Promise<GoodsItem[]> {
  return (await apiPost<{ ret: GoodsItem[] }>('live/goods', { id, goods }, context, { loading: true })).ret;
}

export async function say(id: string, text: string, context: CallContext): Promise<ChatLine> {
  return (await apiPost<{ ret: ChatLine }>('live/say', { id, text }, context)).ret;
}

export async function banViewer(id: string, uid: string, kind: BanKind, context: CallContext): Promise<void> {
  await apiPost('live/ban', { id, uid, kind }, context, { loading: true });
}

/** Lifts a viewer's mute or removal. */
export async function restoreViewer(id: string, uid: string, context: CallContext): Promise<void> {
  await apiPost('live/restore', { id, uid }, context, { loading: true });
}

/** The room's muted and removed viewers, newest first. */
export async function roomBans(id: string, context: CallContext): Promise<LiveBan[]> {
  return (await apiPost<{ ret: LiveBan[] }>('live/bans', { id }, context)).ret;
}

/** Asks the anchor to co-broadcast: the member's request, waiting. */
export async function requestLink(id: string, context: CallContext): Promise<MyLink> {
  return (await apiPost<{ ret: MyLink }>('live/link_request', { id }, context, { loading: true })).ret;
}

/** Withdraws the member's waiting request, or takes them off the stage. */
export async function cancelLink(id: string, context: CallContext): Promise<void> {
  await apiPost('live/link_cancel', { id }, context, { loading: true });
}

/** The anchor's view of co-broadcast: the waiting requests, oldest first, then the guests on stage. */
export async function roomLinks(id: string, context: CallContext): Promise<LiveLink[]> {
  return (await apiPost<{ ret: LiveLink[] }>('live/links', { id }, context)).ret;
}

/** Takes a waiting viewer on stage. */
export async function acceptLink(id: string, uid: string, context: CallContext): Promise<LiveLink> {
  return (await apiPost<{ ret: LiveLink }>('live/link_accept', { id, uid }, context, { loading: true })).ret;
}

export async function rejectLink(id: string, uid: string, context: CallContext): Promise<void> {
  await apiPost('live/link_reject', { id, uid }, context, { loading: true });
}

/** Takes a guest off the stage. */
export async function endLink(id: string, uid: string, context: CallContext): Promise<void> {
  await apiPost('live/link_end', { id, uid }, context, { loading: true });
}

/** What is wrong with a new room before it is sent, or undefined: a title of 1 to 30 characters, and a cover. */
export function roomProblem(draft: {
  title: string;
  cover: string;
}): 'live_title_invalid' | 'live_cover_invalid' | undefined {
  const title = [...draft.title.trim()].length;
  if (title < 1 || title > LIVE_LIMITS.titleMax) return 'live_title_invalid';
  if (!draft.cover) return 'live_cover_invalid';
  return undefined;
}

/** Whether a chat line may be sent: 1 to 100 characters after trimming, no control characters. */
export function chatTextValid(text: string): boolean {
  const characters = [...text.trim()];
  const control = characters.some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');
  return characters.length >= 1 && characters.length <= LIVE_LIMITS.textMax && !control;
}

/**
 * A push URL as streaming software asks for it (OBS: "Server" and "Stream Key"): everything before the last path
 * segment, and that segment with the query (`rtmp://host/live` and `<stream>?key=<key>`).
 */
export function pushFields(url: string): { server: string; key: string } {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const slash = path.lastIndexOf('/');
  const scheme = path.indexOf('://');
  if (slash < 0 || (scheme >= 0 && slash < scheme + 3)) return { server: url, key: '' };
  return { server: path.slice(0, slash), key: url.slice(slash + 1) };
}
