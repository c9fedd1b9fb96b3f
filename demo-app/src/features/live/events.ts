import type { ChatLine, GoodsItem } from './api';

/** What the server publishes on a room's channel, one event a message. */
export type LiveEvent =
  | ({ type: 'chat' } & ChatLine)
  | { type: 'status'; status: 1 | 2 }
  | { type: 'goods'; goods: GoodsItem[] }
  | { type: 'mute' | 'kick' | 'restore'; uid: string }
  | LinkEvent;

/** How a co-broadcast changed: asked for, accepted (with the guest's stream), or gone one way or another. */
export type LinkEvent =
  | { type: 'link'; uid: string; status: 'accepted'; play_url: string }
  | { type: 'link'; uid: string; status: LinkGone | 'waiting' };

/** Ways a request or a place on stage ends. */
export type LinkGone = 'rejected' | 'cancelled' | 'ended';

const LINK_GONE: ReadonlySet<unknown> = new Set<LinkGone>(['rejected', 'cancelled', 'ended']);

function linkEvent({ uid, status, play_url: playUrl }: Fields): LinkEvent | undefined {
  if (!isId(uid)) return undefined;
  if (status === 'accepted')
    return isText(playUrl) ? { type: 'link', uid: String(uid), status, play_url: playUrl } : undefined;
  if (status === 'waiting' || LINK_GONE.has(status))
    return { type: 'link', uid: String(uid), status: status as LinkGone | 'waiting' };
  return undefined;
}

type Fields = Record<string, unknown>;

const isText = (value: unknown): value is string => typeof value === 'string';
const isId = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

function chatLine(event: Fields): ChatLine | undefined {
  const { id, uid, username, img, text, time } = event;
  if (!isId(id) || !isId(uid) || !isText(text) || typeof time !== 'number') return undefined;
  return {
    id: String(id),
    uid: String(uid),
    username: isText(username) ? username : '',
    img: isText(img) ? img : '',
    text,
    time,
  };
}

function goodsItem(value: unknown): GoodsItem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, title, price, img } = value as Fields;
  if (!isId(id) || !isText(title) || typeof price !== 'number') return undefined;
  return { id: String(id), title, price, img: isText(img) ? img : '' };
}

/**
 * The event a channel message carries, or undefined for anything else (not JSON, an unknown type, missing fields):
 * a message the app does not understand is left out rather than shown wrong.
 */
export function parseLiveEvent(content: string): LiveEvent | undefined {
  let event: unknown;
  try {
    event = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null) return undefined;
  const fields = event as Fields;
  switch (fields['type']) {
    case 'chat': {
      const line = chatLine(fields);
      return line && { type: 'chat', ...line };
    }
    case 'status':
      return fields['status'] === 1 || fields['status'] === 2
        ? { type: 'status', status: fields['status'] }
        : undefined;
    case 'goods': {
      const list = fields['goods'];
      if (!Array.isArray(list)) return undefined;
      const goods = list.map(goodsItem);
      return goods.every((item) => item !== undefined) ? { type: 'goods', goods } : undefined;
    }
    case 'mute':
    case 'kick':
    case 'restore':
      return isId(fields['uid']) ? { type: fields['type'], uid: String(fields['uid']) } : undefined;
    case 'link':
      return linkEvent(fields);
    default:
      return undefined;
  }
}
