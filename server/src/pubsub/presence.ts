import type { HereNowAck, PresenceAction, PresenceMember } from '../protocol.js';

/** A change of a channel's presence, to be pushed to its watchers. */
export interface PresenceChange {
  action: PresenceAction;
  member: PresenceMember;
  amount: number;
}

/** A presence change in a channel of an app, as a dead node's cleanup finds them. */
export interface ChannelPresenceChange {
  appkey: string;
  channel: string;
  change: PresenceChange;
}

/** One connection of a member session: presence is counted per connection, whichever node holds it. */
export interface PresenceEntry {
  sid: string;
  connectionId: string;
}

/**
 * Channel presence (PUB-12, PUB-13): who is a member of which channel, counted by user. A user is present while at
 * least one connection of a session of theirs that subscribed with presence is open. The first such connection
 * makes a `join` (or a `back` if the user timed out within the back window); the last one going makes a `leave`
 * (on purpose) or a `timeout` (the link was lost). The memory implementation below serves one node; the Redis one
 * (`redis-presence.ts`) serves several.
 */
export interface ChannelPresence {
  /** A member connection is open now; resolves with the change the channel sees, if any. */
  enter(params: {
    appkey: string;
    channel: string;
    member: PresenceMember;
    entry: PresenceEntry;
    now: number;
  }): Promise<PresenceChange | undefined>;
  /** A member connection is gone, or its session left the channel; `how` says why. */
  exit(params: {
    appkey: string;
    channel: string;
    userId: string;
    entry: PresenceEntry;
    how: 'leave' | 'timeout';
    now: number;
  }): Promise<PresenceChange | undefined>;
  /** Up to `limit` present members, newest first, and how many there are. */
  hereNow(appkey: string, channel: string, limit: number): Promise<HereNowAck>;
  /** Forgets timeouts older than the back window, so that a much later return is a `join`. */
  sweep(now: number): Promise<void>;
  /** Removes the entries of a node that stopped without cleanup: its members' last connections time out. */
  forgetNode(nodeId: string, now: number): Promise<ChannelPresenceChange[]>;
}

interface Member {
  data: Record<string, unknown>;
  /** Open member connections of this user, as `sid\nconnectionId`. */
  live: Set<string>;
}

interface ChannelMembers {
  /** Present users, oldest first (a user who comes back moves to the end). */
  present: Map<string, Member>;
  /** Users who timed out, with the time, so that a return within the back window is a `back`. */
  timedOut: Map<string, number>;
}

/** The key of a channel within an app, for maps. */
function channelKey(appkey: string, channel: string): string {
  return `${appkey}\n${channel}`;
}

/** A {@link ChannelPresence} in this process's memory: right for one node. */
export class MemoryChannelPresence implements ChannelPresence {
  readonly #channels = new Map<string, ChannelMembers>();
  readonly #backWithinMs: number;

  /** `backWithinMs`: how long after a timeout a return counts as `back`: the session lifetime. */
  constructor(backWithinMs: number) {
    this.#backWithinMs = backWithinMs;
  }

  enter(params: Parameters<ChannelPresence['enter']>[0]): Promise<PresenceChange | undefined> {
    const { member: user, entry, now } = params;
    const channel = this.#channel(channelKey(params.appkey, params.channel));
    const current = channel.present.get(user.id);
    if (current) {
      current.live.add(liveId(entry));
      current.data = user.data;
      return Promise.resolve(undefined);
    }
    channel.present.set(user.id, { data: user.data, live: new Set([liveId(entry)]) });
    const timedOutAt = channel.timedOut.get(user.id);
    channel.timedOut.delete(user.id);
    const back = timedOutAt !== undefined && timedOutAt >= now - this.#backWithinMs;
    return Promise.resolve({ action: back ? 'back' : 'join', member: user, amount: channel.present.size });
  }

  exit(params: Parameters<ChannelPresence['exit']>[0]): Promise<PresenceChange | undefined> {
    const { userId, how, now } = params;
    const key = channelKey(params.appkey, params.channel);
    const channel = this.#channels.get(key);
    const current = channel?.present.get(userId);
    if (!channel || !current || !current.live.delete(liveId(params.entry)) || current.live.size > 0) {
      return Promise.resolve(undefined);
    }
    channel.present.delete(userId);
    if (how === 'timeout') channel.timedOut.set(userId, now);
    const change: PresenceChange = {
      action: how,
      member: { id: userId, data: current.data },
      amount: channel.present.size,
    };
    if (channel.present.size === 0 && channel.timedOut.size === 0) this.#channels.delete(key);
    return Promise.resolve(change);
  }

  hereNow(appkey: string, channel: string, limit: number): Promise<HereNowAck> {
    const present = this.#channels.get(channelKey(appkey, channel))?.present;
    if (!present) return Promise.resolve({ members: [], amount: 0 });
    const members = [...present].reverse().slice(0, limit);
    return Promise.resolve({ members: members.map(([id, m]) => ({ id, data: m.data })), amount: present.size });
  }

  sweep(now: number): Promise<void> {
    for (const [key, channel] of this.#channels) {
      for (const [userId, at] of channel.timedOut) {
        if (at < now - this.#backWithinMs) channel.timedOut.delete(userId);
      }
      if (channel.present.size === 0 && channel.timedOut.size === 0) this.#channels.delete(key);
    }
    return Promise.resolve();
  }

  /** One node: there is no other node whose entries could be left behind. */
  forgetNode(): Promise<ChannelPresenceChange[]> {
    return Promise.resolve([]);
  }

  #channel(key: string): ChannelMembers {
    let channel = this.#channels.get(key);
    if (!channel) {
      channel = { present: new Map(), timedOut: new Map() };
      this.#channels.set(key, channel);
    }
    return channel;
  }
}

/** How an entry is told apart from the user's other member connections. */
export function liveId(entry: PresenceEntry): string {
  return `${entry.sid}\n${entry.connectionId}`;
}
