import type { MemberResult } from '../members/service.js';
import { fail, keyMatches } from './model.js';
import {
  LIVE_STATUS,
  type LiveLinkRecord,
  type LiveLinkStatus,
  type LiveLinkStore,
  type LiveMember,
  type LiveRoomRecord,
} from '../store/index.js';

/** Bounds of co-broadcast (docs/limits.md). */
export const LIVE_LINK_LIMITS = {
  /** Guests on stage with the anchor in one room, at most (LIVE-13). */
  guestsMax: 3,
  /** Requests waiting in one room, at most (LIVE-12). */
  waitingMax: 50,
  /** How long a guest's stream may stay lost before their place on stage ends (LIVE-18). */
  streamLostGraceMs: 60_000,
} as const;

/** A co-broadcast link as the app shows it: a request waiting, or a guest on stage. */
export interface LiveLink {
  member: LiveMember;
  status: 'waiting' | 'accepted';
  /** When the member asked, or when they were accepted. */
  time: number;
  /** Where everyone watches the guest: only once accepted. */
  playUrl: string | null;
}

/** The member's own link: with where they push, once accepted; only ever to that member. */
export interface LiveMyLink extends LiveLink {
  pushUrl: string | null;
}

/** A change of a link, as the room's channel carries it (LIVE-16). */
export interface LiveLinkEvent {
  type: 'link';
  uid: string;
  status: LiveLinkStatus;
  /** With `accepted` only; null otherwise. */
  play_url: string | null;
}

/** Co-broadcast in live rooms (spec §1 audience co-broadcast, §4 co-broadcast states, §6 the anchor manages it). */
export interface LiveLinkService {
  /** A viewer asks to join the anchor of room `id` on stage (LIVE-12). */
  requestLink(member: LiveMember, id: unknown): Promise<MemberResult<LiveMyLink>>;
  /** The viewer withdraws their waiting request, or leaves the stage (LIVE-13). */
  cancelLink(memberId: string, id: unknown): Promise<MemberResult<void>>;
  /** The anchor's list: the waiting requests, the oldest first, then the guests on stage (LIVE-13). */
  links(anchorId: string, id: unknown): Promise<MemberResult<LiveLink[]>>;
  /** The anchor accepts member `uid`'s waiting request, with fewer than 3 guests on stage (LIVE-13). */
  acceptLink(anchorId: string, id: unknown, uid: unknown): Promise<MemberResult<LiveLink>>;
  /** The anchor rejects member `uid`'s waiting request (LIVE-13). */
  rejectLink(anchorId: string, id: unknown, uid: unknown): Promise<MemberResult<void>>;
  /** The anchor ends guest `uid`'s place on stage (LIVE-13). */
  endLink(anchorId: string, id: unknown, uid: unknown): Promise<MemberResult<void>>;
}

/** What the room's view shows of co-broadcast: the guests on stage, and the viewer's own link. */
export interface LiveStage {
  guests: LiveLink[];
  mine: LiveMyLink | null;
}

/** What {@link createLiveLinks} needs from the live service around it. */
export interface LiveLinkDeps {
  links: LiveLinkStore;
  roomById: (id: unknown) => Promise<LiveRoomRecord | undefined>;
  /** Room `id` when it is `anchorId`'s, else `live_missing`. */
  owned: (anchorId: string, id: unknown) => Promise<MemberResult<LiveRoomRecord>>;
  blocked: (a: string, b: string) => Promise<boolean>;
  /** A member id as the app may send it, or undefined. */
  memberIdOf: (value: unknown) => string | undefined;
  /** The play and push URLs of a stream, from the media server's templates. */
  playUrl: (stream: string) => string;
  pushUrl: (stream: string, key: string) => string;
  /** A new stream name and push key. */
  newStream: () => { stream: string; pushKey: string };
  /** Publishes an event on the channel of room `roomId`. */
  publish: (roomId: string, event: LiveLinkEvent) => Promise<void>;
  now: () => number;
}

const done: MemberResult<void> = { ok: true, value: undefined };

/** Co-broadcast, its view and its pushes, over the link store. */
export function createLiveLinks(deps: LiveLinkDeps) {
  const { links, now } = deps;
  const linkOf = (record: LiveLinkRecord): LiveLink => {
    const accepted = record.status === 'accepted' && record.stream !== null;
    return {
      member: record.member,
      status: accepted ? 'accepted' : 'waiting',
      time: accepted ? (record.acceptedAt ?? record.requestedAt) : record.requestedAt,
      playUrl: accepted ? deps.playUrl(record.stream as string) : null,
    };
  };
  const myLinkOf = (record: LiveLinkRecord): LiveMyLink => ({
    ...linkOf(record),
    pushUrl:
      record.status === 'accepted' && record.stream && record.pushKey
        ? deps.pushUrl(record.stream, record.pushKey)
        : null,
  });
  const event = (uid: string, status: LiveLinkStatus, playUrl: string | null = null): LiveLinkEvent => ({
    type: 'link',
    uid,
    status,
    play_url: playUrl,
  });
  /** Room `id` of `anchorId` and member `uid`, or why not. */
  const ownedWith = async (anchorId: string, id: unknown, uid: unknown) => {
    const room = await deps.owned(anchorId, id);
    if (!room.ok) return room;
    const memberId = deps.memberIdOf(uid);
    return memberId === undefined
      ? fail<never>('bad_params')
      : { ok: true as const, value: { room: room.value, memberId } };
  };

  const service: LiveLinkService = {
    async requestLink(member, id) {
      const room = await deps.roomById(id);
      if (!room) return fail('live_missing');
      if (room.anchor.id === member.id) return fail('live_link_self');
      if (await deps.blocked(member.id, room.anchor.id)) return fail('live_missing');
      const time = now();
      const outcome = await links.request({
        roomId: room.id,
        memberId: member.id,
        now: time,
        waitingMax: LIVE_LINK_LIMITS.waitingMax,
      });
      if (outcome !== 'ok') {
        const failures = {
          state: 'live_state',
          removed: 'live_removed',
          open: 'live_link_open',
          full: 'live_link_full',
          missing: 'user_missing',
        } as const;
        return fail(failures[outcome]);
      }
      await deps.publish(room.id, event(member.id, 'waiting'));
      return { ok: true, value: { member, status: 'waiting', time, playUrl: null, pushUrl: null } };
    },

    async cancelLink(memberId, id) {
      // No block check: a member who blocked the anchor since may still withdraw.
      const room = await deps.roomById(id);
      if (!room) return fail('live_missing');
      const status = await links.cancel(room.id, memberId, now());
      if (status === undefined) return fail('live_link_missing');
      await deps.publish(room.id, event(memberId, status));
      return done;
    },

    async links(anchorId, id) {
      const room = await deps.owned(anchorId, id);
      if (!room.ok) return room;
      return { ok: true, value: (await links.openOf(room.value.id)).map(linkOf) };
    },

    async acceptLink(anchorId, id, uid) {
      const found = await ownedWith(anchorId, id, uid);
      if (!found.ok) return found;
      const { room, memberId } = found.value;
      const outcome = await links.accept({
        roomId: room.id,
        memberId,
        ...deps.newStream(),
        now: now(),
        guestsMax: LIVE_LINK_LIMITS.guestsMax,
      });
      if (outcome === 'full') return fail('live_link_full');
      const record = outcome === 'ok' ? await links.linkOf(room.id, memberId) : undefined;
      if (!record) return fail('live_link_missing');
      const link = linkOf(record);
      await deps.publish(room.id, event(memberId, 'accepted', link.playUrl));
      return { ok: true, value: link };
    },

    async rejectLink(anchorId, id, uid) {
      const found = await ownedWith(anchorId, id, uid);
      if (!found.ok) return found;
      const { room, memberId } = found.value;
      if (!(await links.reject(room.id, memberId, now()))) return fail('live_link_missing');
      await deps.publish(room.id, event(memberId, 'rejected'));
      return done;
    },

    async endLink(anchorId, id, uid) {
      const found = await ownedWith(anchorId, id, uid);
      if (!found.ok) return found;
      const { room, memberId } = found.value;
      if (!(await links.end(room.id, memberId, now()))) return fail('live_link_missing');
      await deps.publish(room.id, event(memberId, 'ended'));
      return done;
    },
  };

  return {
    service,

    /** What room `room`'s view shows of co-broadcast to `viewerId`: nothing once the room is not live. */
    async viewOf(room: LiveRoomRecord, viewerId: string): Promise<LiveStage> {
      if (room.status !== LIVE_STATUS.live) return { guests: [], mine: null };
      const open = await links.openOf(room.id);
      const mine = open.find((record) => record.member.id === viewerId);
      return {
        guests: open.filter((record) => record.status === 'accepted').map(linkOf),
        mine: mine ? myLinkOf(mine) : null,
      };
    },

    /**
     * Whether `stream` is a guest's on stage and `key` theirs (LIVE-14); the key is compared in constant time. A
     * stream that was lost is back (LIVE-18).
     */
    async publishing(stream: string, key: string): Promise<boolean> {
      const link = await links.byStream(stream);
      const theirs = link?.status === 'accepted' && link.pushKey !== null && keyMatches(key, link.pushKey);
      if (theirs) await links.streamLost(stream, null);
      return theirs;
    },

    /** The media server lost guest stream `stream`: with its key, marked lost from now (LIVE-18). */
    async unpublishing(stream: string, key: string): Promise<void> {
      const link = await links.byStream(stream);
      if (link?.status === 'accepted' && link.pushKey !== null && keyMatches(key, link.pushKey)) {
        await links.streamLost(stream, now());
      }
    },

    /** LIVE-18: ends the places on stage whose guest's stream stayed lost past the grace, each told; how many. */
    async endLost(at: number): Promise<number> {
      const ended = await links.endLost(at - LIVE_LINK_LIMITS.streamLostGraceMs, at);
      for (const { roomId, memberId } of ended) await deps.publish(roomId, event(memberId, 'ended'));
      return ended.length;
    },

    /** The rooms where the member holds an open link: what a cancellation of their account will end (LIVE-15). */
    openRoomsOf: (memberId: string) => links.openRoomsOf(memberId),

    /** Tells the channels of `roomIds` that the member's link ended, where it did (LIVE-15). */
    async announceEnds(memberId: string, roomIds: readonly string[]): Promise<void> {
      for (const roomId of roomIds) {
        const link = await links.linkOf(roomId, memberId);
        if (link?.status === 'ended') await deps.publish(roomId, event(memberId, 'ended'));
      }
    },

    /** Tells room `room`'s channel that a kick ended member `memberId`'s link (LIVE-15). */
    announceKick: (room: LiveRoomRecord, memberId: string) => deps.publish(room.id, event(memberId, 'ended')),
  };
}
