import type { ChatLine, GoodsItem, LiveLink, LiveStatus, MyLink, RoomDetail } from './api';
import type { LiveEvent, LinkEvent } from './events';

/** How many chat lines a room keeps on screen; older ones give way. */
export const CHAT_LINES_KEPT = 200;

/** A guest on stage, whose stream everyone in the room watches beside the anchor's. */
export interface Guest {
  uid: string;
  /** Empty until known: a guest accepted on the channel is named by the room's next `live/view`. */
  username: string;
  play_url: string;
}

/** The member's own co-broadcast: waiting for the anchor, or on stage (`push_url` null until `live/view` gives it). */
export type OwnLink = { status: 'waiting' } | { status: 'accepted'; push_url: string | null };

/** A room as its page shows it now: `live/view`'s answer with the channel's events applied. */
export interface LiveRoomState {
  status: LiveStatus;
  goods: GoodsItem[];
  /** Oldest first, each line once. */
  messages: ChatLine[];
  /** Whether the member may not write (muted or removed). */
  muted: boolean;
  /** Whether the anchor removed the member from the room. */
  removed: boolean;
  /** The channel's presence count once heard, else the count `live/view` gave. */
  viewers: number;
  /** The guests on stage, in the order they were accepted; none once the live has ended. */
  guests: Guest[];
  /** The member's request or place on stage, if any. */
  link: OwnLink | null;
}

const guestOf = (link: LiveLink): Guest | undefined =>
  link.status === 'accepted' && link.play_url
    ? { uid: link.uid, username: link.username, play_url: link.play_url }
    : undefined;

function ownLink(link: MyLink | null): OwnLink | null {
  if (!link) return null;
  return link.status === 'accepted' ? { status: 'accepted', push_url: link.push_url } : { status: 'waiting' };
}

/** Each line once (by id, the copy shown first stays), oldest first, the newest {@link CHAT_LINES_KEPT}. */
function mergeLines(current: readonly ChatLine[], incoming: readonly ChatLine[]): ChatLine[] {
  const byId = new Map(current.map((line) => [line.id, line]));
  for (const line of incoming) if (!byId.has(line.id)) byId.set(line.id, line);
  // A stable sort: lines of one millisecond keep the order they came in.
  return [...byId.values()].sort((a, b) => a.time - b.time).slice(-CHAT_LINES_KEPT);
}

/**
 * One live room as a plain value that changes: loaded from `live/view` (again when the live starts, for its play URL)
 * and changed by the channel's events and the member's own lines. React reads it through `subscribe` and
 * `getSnapshot`.
 */
export class LiveRoom {
  readonly #me: string;
  readonly #listeners = new Set<() => void>();
  #state: LiveRoomState;
  /** Whether the channel's presence has been heard, after which `live/view`'s count no longer counts. */
  #presence = false;
  /** The streams of guests the channel said have left: an older `live/view` does not bring their windows back. */
  readonly #left = new Set<string>();

  constructor({ detail, me }: { detail: RoomDetail; me: string }) {
    this.#me = me;
    this.#state = {
      status: detail.status,
      goods: detail.goods,
      messages: mergeLines([], detail.messages),
      muted: detail.me.muted,
      removed: false,
      viewers: detail.viewers,
      guests: [],
      link: null,
    };
    this.#state = { ...this.#state, ...this.#stage(detail) };
  }

  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): LiveRoomState => this.#state;

  /** Takes a newer `live/view` answer in: a live never goes back to an earlier status. */
  load(detail: RoomDetail): void {
    this.#set({
      status: Math.max(this.#state.status, detail.status) as LiveStatus,
      goods: detail.goods,
      messages: mergeLines(this.#state.messages, detail.messages),
      muted: detail.me.muted || this.#state.removed,
      viewers: this.#presence ? this.#state.viewers : detail.viewers,
      ...this.#stage(detail),
    });
  }

  /** Applies an event of the room's channel. */
  apply(event: LiveEvent): void {
    switch (event.type) {
      case 'chat': {
        const { type: _type, ...line } = event;
        this.#set({ messages: mergeLines(this.#state.messages, [line]) });
        return;
      }
      case 'status':
        this.#set({ status: Math.max(this.#state.status, event.status) as LiveStatus });
        // The end ends every co-broadcast, without a word on the channel.
        if (event.status === 2) this.#set({ guests: [], link: null });
        return;
      case 'goods':
        this.#set({ goods: event.goods });
        return;
      case 'mute':
      case 'kick':
      case 'restore':
        if (event.uid !== this.#me) return;
        if (event.type === 'kick') this.#set({ muted: true, removed: true, link: null });
        else this.#set({ muted: event.type === 'mute' });
        return;
      case 'link':
        this.#link(event);
        return;
    }
  }

  /** The member's request, as `live/link_request` answered it; news the channel brought meanwhile stands. */
  requested(link: MyLink): void {
    if (this.#state.link === null) this.#set({ link: ownLink(link) });
  }

  /** A guest the anchor accepted, as `live/link_accept` answered it. */
  onStage(link: LiveLink): void {
    const guest = guestOf(link);
    if (guest) this.#set({ guests: [...this.#state.guests.filter((g) => g.uid !== guest.uid), guest] });
  }

  /** A request or a place on stage ended here (withdrawn, left, ended by the anchor). */
  linkGone(uid: string): void {
    this.#link({ type: 'link', uid, status: 'cancelled' });
  }

  #link(event: LinkEvent): void {
    const mine = event.uid === this.#me;
    if (event.status === 'waiting') {
      if (mine && this.#state.link === null) this.#set({ link: { status: 'waiting' } });
      return;
    }
    if (event.status === 'accepted') {
      const known = this.#state.guests.find((g) => g.uid === event.uid)?.username;
      const said = this.#state.messages.findLast((line) => line.uid === event.uid)?.username;
      const guest = { uid: event.uid, username: known ?? said ?? '', play_url: event.play_url };
      const guests = [...this.#state.guests.filter((g) => g.uid !== event.uid), guest];
      const own = this.#state.link;
      const pushUrl = own?.status === 'accepted' ? own.push_url : null;
      this.#set({ guests, ...(mine && { link: { status: 'accepted', push_url: pushUrl } }) });
      return;
    }
    for (const guest of this.#state.guests) if (guest.uid === event.uid) this.#left.add(guest.play_url);
    this.#set({
      guests: this.#state.guests.filter((g) => g.uid !== event.uid),
      ...(mine && { link: null }),
    });
  }

  /** The stage as a `live/view` answer has it: no one once the live has ended. */
  #stage(detail: RoomDetail): Pick<LiveRoomState, 'guests' | 'link'> {
    if (this.#state.status === 2 || detail.status === 2) return { guests: [], link: null };
    const guests = detail.guests.flatMap((link) => {
      const guest = guestOf(link);
      return guest && !this.#left.has(guest.play_url) ? [guest] : [];
    });
    return { guests, link: ownLink(detail.me.link) };
  }

  /** A line the member sent, shown at once (the channel's copy of it is the same line). */
  said(line: ChatLine): void {
    this.#set({ messages: mergeLines(this.#state.messages, [line]) });
  }

  /** The server refused the member's line: they are muted, or removed. */
  silenced(): void {
    this.#set({ muted: true });
  }

  /** The channel's presence count. */
  presence(viewers: number): void {
    this.#presence = true;
    this.#set({ viewers });
  }

  #set(changes: Partial<LiveRoomState>): void {
    this.#state = { ...this.#state, ...changes };
    for (const listener of this.#listeners) listener();
  }
}
