import type { PresenceAction, PresenceMember } from '../protocol.js';

interface Member {
  data: Record<string, unknown>;
  /** Sessions of this user that are members and connected. */
  live: Set<string>;
}

interface ChannelMembers {
  /** Present users, oldest first (a user who comes back moves to the end). */
  present: Map<string, Member>;
  /** Users who timed out, with the time, so that a return within the session lifetime is a `back`. */
  timedOut: Map<string, number>;
}

/** A change of a channel's presence, to be pushed to its watchers. */
export interface PresenceChange {
  action: PresenceAction;
  member: PresenceMember;
  amount: number;
}

/**
 * Channel presence (PUB-12, PUB-13): who is a member of which channel, counted by user. A user is present while
 * at least one of their sessions that subscribed with presence is connected. The first such session makes a
 * `join` (or a `back` if the user timed out within `backWithinMs`); the last one leaving makes a `leave` (on
 * purpose) or a `timeout` (the link was lost).
 */
export class ChannelPresenceRegistry {
  readonly #channels = new Map<string, ChannelMembers>();
  readonly #backWithinMs: number;

  constructor(backWithinMs: number) {
    this.#backWithinMs = backWithinMs;
  }

  /** Session `sid` of `userId` is a connected member now; returns the change the channel sees, if any. */
  enter(key: string, user: PresenceMember, sid: string, now: number): PresenceChange | undefined {
    const channel = this.#channel(key);
    const current = channel.present.get(user.id);
    if (current) {
      current.live.add(sid);
      current.data = user.data;
      return undefined;
    }
    channel.present.set(user.id, { data: user.data, live: new Set([sid]) });
    const timedOutAt = channel.timedOut.get(user.id);
    channel.timedOut.delete(user.id);
    const back = timedOutAt !== undefined && timedOutAt >= now - this.#backWithinMs;
    return { action: back ? 'back' : 'join', member: user, amount: channel.present.size };
  }

  /** Session `sid` of `userId` is no longer a connected member; `how` says why. */
  exit(key: string, userId: string, sid: string, how: 'leave' | 'timeout', now: number): PresenceChange | undefined {
    const channel = this.#channels.get(key);
    const current = channel?.present.get(userId);
    if (!channel || !current || !current.live.delete(sid) || current.live.size > 0) return undefined;
    channel.present.delete(userId);
    if (how === 'timeout') channel.timedOut.set(userId, now);
    const change: PresenceChange = {
      action: how,
      member: { id: userId, data: current.data },
      amount: channel.present.size,
    };
    if (channel.present.size === 0 && channel.timedOut.size === 0) this.#channels.delete(key);
    return change;
  }

  /** Up to `limit` present members, newest first, and how many there are. */
  hereNow(key: string, limit: number): { members: PresenceMember[]; amount: number } {
    const present = this.#channels.get(key)?.present;
    if (!present) return { members: [], amount: 0 };
    const members = [...present].reverse().slice(0, limit);
    return { members: members.map(([id, m]) => ({ id, data: m.data })), amount: present.size };
  }

  /** Forgets timeouts older than the window, so a much later return is a `join`. */
  sweep(now: number): void {
    for (const [key, channel] of this.#channels) {
      for (const [userId, at] of channel.timedOut) {
        if (at < now - this.#backWithinMs) channel.timedOut.delete(userId);
      }
      if (channel.present.size === 0 && channel.timedOut.size === 0) this.#channels.delete(key);
    }
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
