/**
 * How long a join keeps out the broadcasts of messages stored before it. A message still crossing from another node
 * after this long is let through; the adapter's stream brings them in well under a second.
 */
export const LATE_JOIN_WINDOW_MS = 60_000;

interface Join {
  /** The newest message time stored when the socket joined: broadcasts of messages up to it are old to it. */
  from: number;
  at: number;
}

/**
 * The sockets of this node that joined a room after messages were stored up to some time (PUB-9 on several nodes).
 * A message stored on another node before a subscribe may still be on its way through Redis when the subscriber
 * joins its channel's room here; the broadcast must not reach it. The adapter asks {@link LateJoins.excluded} for
 * each broadcast that arrives from another node, and leaves out the sockets it names.
 */
export class LateJoins {
  private readonly rooms = new Map<string, Map<string, Join>>();
  private swept: number;

  constructor(private readonly now: () => number = Date.now) {
    this.swept = now();
  }

  /** `socketId` joined `room` when the newest message stored for it was of time `from`. */
  joined(room: string, socketId: string, from: number): void {
    const at = this.now();
    this.sweep(at);
    let joins = this.rooms.get(room);
    if (!joins) {
      joins = new Map();
      this.rooms.set(room, joins);
    }
    joins.set(socketId, { from, at });
  }

  /** `socketId` left `room`. */
  left(room: string, socketId: string): void {
    const joins = this.rooms.get(room);
    if (!joins?.delete(socketId)) return;
    if (joins.size === 0) this.rooms.delete(room);
  }

  /** The sockets in `room` that joined after a message of time `time` was stored: it is not theirs. */
  excluded(room: string, time: number): string[] {
    const joins = this.rooms.get(room);
    if (!joins) return [];
    const since = this.now() - LATE_JOIN_WINDOW_MS;
    const out: string[] = [];
    for (const [socketId, join] of joins) {
      if (join.at < since) joins.delete(socketId);
      else if (time <= join.from) out.push(socketId);
    }
    if (joins.size === 0) this.rooms.delete(room);
    return out;
  }

  /** How many joins are remembered, in every room. */
  get size(): number {
    let n = 0;
    for (const joins of this.rooms.values()) n += joins.size;
    return n;
  }

  /** Forgets joins past the window, at most once a window, so that rooms nobody publishes to do not keep them. */
  private sweep(at: number): void {
    if (at - this.swept < LATE_JOIN_WINDOW_MS) return;
    this.swept = at;
    for (const [room, joins] of this.rooms) {
      for (const [socketId, join] of joins) if (join.at < at - LATE_JOIN_WINDOW_MS) joins.delete(socketId);
      if (joins.size === 0) this.rooms.delete(room);
    }
  }
}
