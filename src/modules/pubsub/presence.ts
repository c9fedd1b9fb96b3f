import type { ChannelPresenceEvent, PresenceMember, WireChannelPresenceEvent } from '../../protocol/index.js';

/**
 * One watched channel's presence as this client knows it: the members (newest first, as the server lists them)
 * and the amount. Pushed events update it the way the reference client does: `join`/`back` put the member first,
 * `leave`/`timeout` remove it, and `amount` is taken from the push.
 */
export class ChannelPresence {
  readonly channel: string;
  readonly membersLimit: number;
  readonly onPresence: (event: ChannelPresenceEvent) => void;
  /** The token the watch was asked with, re-sent when it is restored. */
  readonly accessToken: string | undefined;
  #members: PresenceMember[] = [];
  #amount = 0;

  constructor(params: {
    channel: string;
    membersLimit: number;
    onPresence: (event: ChannelPresenceEvent) => void;
    accessToken?: string | undefined;
  }) {
    this.channel = params.channel;
    this.membersLimit = params.membersLimit;
    this.onPresence = params.onPresence;
    this.accessToken = params.accessToken;
  }

  /** Replaces what is known with a here-now answer. */
  reset(members: readonly PresenceMember[], amount: number): void {
    this.#members = members.slice(0, this.membersLimit);
    this.#amount = amount;
  }

  /** Applies a pushed event and tells the listener. */
  apply(event: WireChannelPresenceEvent): void {
    const others = this.#members.filter((m) => m.id !== event.member.id);
    this.#members = event.action === 'join' || event.action === 'back' ? [event.member, ...others] : others;
    this.#members = this.#members.slice(0, this.membersLimit);
    this.#amount = event.amount;
    this.onPresence({ ...event, members: [...this.#members] });
  }

  /** How many members the channel has, as last heard. */
  get amount(): number {
    return this.#amount;
  }
}

/** Turns a pushed or listed member into its domain form; data is an object whatever the server sent. */
export function toMember(member: { id: unknown; data?: unknown }): PresenceMember {
  const data = member.data;
  return {
    id: String(member.id),
    data: typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
  };
}
