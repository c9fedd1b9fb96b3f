/**
 * What live rooms are made of, apart from the service that changes them: their bounds, the shapes the product API and
 * the rooms' channels carry, and the small pure helpers both use.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SERVER_CHANNEL_PREFIX } from '../protocol.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';
import { FEN_PER_YUAN } from '../members/wallet.js';
import type { LiveLink, LiveLinkEvent, LiveMyLink } from './links.js';
import {
  type LIVE_STATUS,
  type LiveBanKind,
  type LiveLineRecord,
  type LiveRoomRecord,
  type ProductRecord,
} from '../store/index.js';

/** Bounds of live streaming (docs/limits.md). */
export const LIVE_LIMITS = {
  /** A room's title: 1 to this many characters after trimming, one line. */
  titleMax: 30,
  /** A chat line: 1 to this many characters after trimming, one line. */
  textMax: 100,
  /** Products a room shows, at most. */
  goodsMax: 20,
  /** Chat lines a room's view carries: the newest. */
  linesShown: 50,
  /** Rooms on a page of the list. */
  pageSize: 20,
  /** Ended rooms the anchor's own page shows: the latest. */
  endedShown: 20,
  /** Bans the anchor's list shows: the newest. */
  bansShown: 500,
  /** How long a viewer's access token to a room's channel lasts. */
  accessTtlMs: 2 * 3_600_000,
  /** Characters of a room's public stream name, and of its secret push key: [a-z0-9]. */
  streamLength: 16,
  pushKeyLength: 32,
  /** LIVE-17: a live room whose stream stays lost this long ends by itself. */
  streamLostGraceMs: 5 * 60_000,
  /** LIVE-17: a room not started this long after its creation ends by itself. */
  notStartedMaxMs: 24 * 3_600_000,
  /** LIVE-17: a read that lists or shows rooms looks for stale ones first, at most this often on a node. */
  staleCheckMs: 10_000,
  /** LIVE-17: stale rooms ended at one look, at most. */
  staleBatch: 100,
} as const;

/** A product a room shows, as the app lists it: the price in yuan, `img` its first image. */
export interface LiveGoodsItem {
  id: string;
  title: string;
  price: number;
  img: string;
}

/** A line of a room's chat, as the app shows it and the channel carries it. */
export interface LiveChatLine {
  id: string;
  uid: string;
  username: string;
  img: string;
  text: string;
  time: number;
}

/** What the server publishes on a room's channel `$live.<room id>`, as JSON (LIVE-11, LIVE-16). */
export type LiveEvent =
  | ({ type: 'chat' } & LiveChatLine)
  | { type: 'status'; status: typeof LIVE_STATUS.live | typeof LIVE_STATUS.ended }
  | { type: 'goods'; goods: LiveGoodsItem[] }
  | { type: LiveBanKind | 'restore'; uid: string }
  | LiveLinkEvent;

/** A room in a list: with how many watch it now. */
export interface LiveRoomSummary {
  room: LiveRoomRecord;
  /** The channel's presence now; 0 when it cannot be had. */
  viewers: number;
}

/** A room as one viewer sees it. */
export interface LiveRoomDetail extends LiveRoomSummary {
  /** Where to watch: only while live. */
  playUrl: string | null;
  /** The room's pub/sub channel. */
  channel: string;
  /** A read-only token to the channel when the messaging app needs one; else null. */
  accessToken: string | null;
  /** The room's products still on sale, in the anchor's order. */
  goods: LiveGoodsItem[];
  /** The newest chat lines, the oldest of them first. */
  lines: LiveChatLine[];
  /** The guests on stage, in accepted order (LIVE-14). */
  guests: LiveLink[];
  /** `link`: the viewer's own request or place on stage, if any. */
  me: { anchor: boolean; muted: boolean; link: LiveMyLink | null };
}

/** A room as its anchor sees it: with where to push (`room.stream`, `room.pushKey` are theirs too). */
export interface LiveAnchorRoom extends LiveRoomDetail {
  pushUrl: string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random characters of [a-z0-9], each as likely as the others. */
export function randomName(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 252 is 7 × 36: larger bytes would favour the first characters.
      if (byte < 252 && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

/** The channel of room `id`: a server channel (PUB-18), which only the server publishes on. */
export const liveChannel = (id: string) => `${SERVER_CHANNEL_PREFIX}live.${id}`;

export const chatLineOf = (line: LiveLineRecord): LiveChatLine => ({
  id: line.id,
  uid: line.member.id,
  username: line.member.username,
  img: line.member.img,
  text: line.text,
  time: line.createdAt,
});

export const goodsItemOf = (product: ProductRecord): LiveGoodsItem => ({
  id: product.id,
  title: product.title,
  price: product.price / FEN_PER_YUAN,
  img: product.images[0] ?? '',
});

export const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/**
 * A stream name and push key as the media server hands them over, when both could be ones this server made: letters
 * and digits, the stream of its length.
 */
export const pushOf = (stream: unknown, key: unknown): { stream: string; key: string } | undefined =>
  typeof stream === 'string' &&
  typeof key === 'string' &&
  stream.length === LIVE_LIMITS.streamLength &&
  /^[a-z0-9]+$/.test(stream) &&
  /^[a-z0-9]+$/.test(key)
    ? { stream, key }
    : undefined;

/** Whether `key` is `expected`, compared in constant time (of the key's alphabet and length first, as it needs). */
export const keyMatches = (key: string, expected: string) =>
  key.length === expected.length && timingSafeEqual(Buffer.from(key), Buffer.from(expected));

/** A member id as the app may send it: a string, or a number. */
export const memberIdOf = (value: unknown): string | undefined =>
  (typeof value === 'string' && isRowKey(value)) || (typeof value === 'number' && Number.isSafeInteger(value))
    ? String(value)
    : undefined;
