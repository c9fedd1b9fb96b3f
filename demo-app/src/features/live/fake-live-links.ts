/**
 * Co-broadcast in the fake live server ({@link fakeLive}): viewers' requests, the anchor's accept, reject and end, and
 * the `link` events, following the server's rules (at most 3 on stage and 50 waiting in a room; one link per room and
 * member; the room's end and a kick end them). `anchorDoes` plays the anchor of another member's room, as the server
 * would answer that anchor's own calls.
 */
import type { HttpHandler } from 'msw';
import { LIVE_LIMITS, type LiveLink, type LiveMember, type MyLink } from './api';
import type { LiveEvent } from './events';
import type { FakeRoom } from './fake-live';

/** A request or a place on stage as the fake server keeps it. */
export interface FakeLink {
  room: string;
  uid: string;
  status: 'waiting' | 'accepted';
  time: number;
  /** The guest's stream and push key, made at the acceptance. */
  stream: string | null;
  key: string | null;
}

/** What the link handlers need of the fake server. */
export interface LinkServer {
  state: {
    me: LiveMember;
    rooms: FakeRoom[];
    links: FakeLink[];
    members: Record<string, LiveMember>;
    bans: Array<{ room: string; uid: string }>;
  };
  handle: (path: string, answer: (body: Record<string, unknown>) => Response) => HttpHandler;
  publish: (channel: string, event: LiveEvent) => void;
  ok: (ret: unknown) => Response;
  refused: (code: string) => Response;
}

/** Most requests waiting in a room. */
const WAITING_MAX = 50;

export const guestPlayUrl = (stream: string) => `https://media.test/live/${stream}.m3u8`;
export const guestPushUrl = (stream: string, key: string) => `rtmp://media.test/live/${stream}?key=${key}`;

/** A link of `uid` in `room`, as the fake server keeps it: waiting unless a stream is given. */
export function fakeLink(room: string, uid: string, extra: Partial<FakeLink> = {}): FakeLink {
  return { room, uid, status: 'waiting', time: 1_700_000_500_000, stream: null, key: null, ...extra };
}

/** Links as the calls answer them, and the handlers of the co-broadcast calls. */
export function fakeLinks({ state, handle, publish, ok, refused }: LinkServer) {
  const view = (link: FakeLink): LiveLink => {
    const member = state.members[link.uid];
    return {
      uid: link.uid,
      username: member?.username ?? '',
      img: member?.img ?? '',
      status: link.status,
      time: link.time,
      play_url: link.stream && guestPlayUrl(link.stream),
    };
  };
  const mine = (link: FakeLink): MyLink => ({
    ...view(link),
    push_url: link.stream && link.key && guestPushUrl(link.stream, link.key),
  });
  const of = (room: string, uid: string) => state.links.find((l) => l.room === room && l.uid === uid);
  const inRoom = (room: string, status: FakeLink['status']) =>
    state.links.filter((l) => l.room === room && l.status === status);
  const drop = (link: FakeLink) => (state.links = state.links.filter((l) => l !== link));
  const tell = (link: FakeLink, status: 'waiting' | 'rejected' | 'cancelled' | 'ended') =>
    publish(`$live.${link.room}`, { type: 'link', uid: link.uid, status });

  /** What the anchor's calls do in `room`: the answer, or a refusal's code. */
  const anchorCalls = {
    accept(room: FakeRoom, uid: string): LiveLink | string {
      const link = of(room.id, uid);
      if (link?.status !== 'waiting') return 'live_link_missing';
      if (inRoom(room.id, 'accepted').length >= LIVE_LIMITS.guestsMax) return 'live_link_full';
      Object.assign(link, { status: 'accepted', time: Date.now(), stream: `${room.stream}g${uid}`, key: `gkey${uid}` });
      publish(`$live.${room.id}`, {
        type: 'link',
        uid,
        status: 'accepted',
        play_url: guestPlayUrl(link.stream ?? ''),
      });
      return view(link);
    },
    reject(room: FakeRoom, uid: string): true | string {
      const link = of(room.id, uid);
      if (link?.status !== 'waiting') return 'live_link_missing';
      drop(link);
      tell(link, 'rejected');
      return true;
    },
    end(room: FakeRoom, uid: string): true | string {
      const link = of(room.id, uid);
      if (link?.status !== 'accepted') return 'live_link_missing';
      drop(link);
      tell(link, 'ended');
      return true;
    },
  };
  /** The room `id` of the member's own, or undefined (`live_missing`). */
  const own = (id: unknown) => state.rooms.find((r) => r.id === id && r.anchor.id === state.me.id);
  const answer = (result: unknown) => (typeof result === 'string' ? refused(result) : ok(result));
  const byAnchor = (action: keyof typeof anchorCalls) => (body: Record<string, unknown>) => {
    const room = own(body['id']);
    if (!room) return refused('live_missing');
    const uid = String(body['uid']);
    if (!state.members[uid]) return refused('user_missing');
    return answer(anchorCalls[action](room, uid));
  };

  const handlers = [
    handle('live/link_request', (body) => {
      const room = state.rooms.find((r) => r.id === body['id']);
      if (!room) return refused('live_missing');
      if (room.anchor.id === state.me.id) return refused('live_link_self');
      if (room.status !== 1) return refused('live_state');
      if (state.bans.some((b) => b.room === room.id && b.uid === state.me.id)) return refused('live_removed');
      if (of(room.id, state.me.id)) return refused('live_link_open');
      if (inRoom(room.id, 'waiting').length >= WAITING_MAX) return refused('live_link_full');
      const link = fakeLink(room.id, state.me.id, { time: Date.now() });
      state.links.push(link);
      tell(link, 'waiting');
      return ok(mine(link));
    }),
    handle('live/link_cancel', (body) => {
      const room = state.rooms.find((r) => r.id === body['id']);
      if (!room) return refused('live_missing');
      const link = of(room.id, state.me.id);
      if (!link) return refused('live_link_missing');
      drop(link);
      tell(link, 'cancelled');
      return ok(true);
    }),
    handle('live/links', (body) => {
      const room = own(body['id']);
      if (!room) return refused('live_missing');
      const waiting = inRoom(room.id, 'waiting').sort((a, b) => a.time - b.time);
      const onStage = inRoom(room.id, 'accepted').sort((a, b) => a.time - b.time);
      return ok([...waiting, ...onStage].map(view));
    }),
    handle('live/link_accept', byAnchor('accept')),
    handle('live/link_reject', byAnchor('reject')),
    handle('live/link_end', byAnchor('end')),
  ];

  return {
    handlers,
    /** The guests on stage of `room`, accepted order, and the member's own link there: `live/view`'s part. */
    stage(room: FakeRoom) {
      const link = of(room.id, state.me.id);
      return {
        guests: inRoom(room.id, 'accepted')
          .sort((a, b) => a.time - b.time)
          .map(view),
        link: link ? mine(link) : null,
      };
    },
    /** The room ends: its links go, without a word on the channel. */
    roomEnded(room: string) {
      state.links = state.links.filter((l) => l.room !== room);
    },
    /** `uid` is kicked from `room`: their link ends. */
    kicked(room: string, uid: string) {
      const link = of(room, uid);
      if (!link) return;
      drop(link);
      tell(link, 'ended');
    },
    /** The anchor of `room` (another member) accepts, rejects or ends `uid`'s link, on their own device. */
    anchorDoes: (room: string, uid: string, action: keyof typeof anchorCalls) => {
      const found = state.rooms.find((r) => r.id === room);
      if (!found) throw new Error(`no room ${room}`);
      const result = anchorCalls[action](found, uid);
      if (typeof result === 'string') throw new Error(result);
      return result;
    },
  };
}
