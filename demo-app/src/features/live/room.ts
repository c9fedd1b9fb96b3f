import type { ChatLine, GoodsItem, LiveStatus, RoomDetail } from './api';
import type { LiveEvent } from './events';

/** How many chat lines a room keeps on screen; older ones give way. */
export const CHAT_LINES_KEPT = 200;

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

  constructor({ detail, me }: { detail: RoomDetail; me: string }) {
    this.#me = me;
    this.#state = {
      status: detail.status,
      goods: detail.goods,
      messages: mergeLines([], detail.messages),
      muted: detail.me.muted,
      removed: false,
      viewers: detail.viewers,
    };
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
        return;
      case 'goods':
        this.#set({ goods: event.goods });
        return;
      case 'mute':
      case 'kick':
      case 'restore':
        if (event.uid !== this.#me) return;
        if (event.type === 'kick') this.#set({ muted: true, removed: true });
        else this.#set({ muted: event.type === 'mute' });
        return;
    }
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
