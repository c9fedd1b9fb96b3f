import type { ChannelPresenceEvent, HistoryMessage, PresenceMember, PubsubMessage } from '../../protocol/index.js';

export type { ChannelPresenceEvent, HistoryMessage, PresenceMember, PubsubMessage };

/** A channel: a non-empty string (at most 128 characters) or a number. */
export type Channel = string | number;

/** A notification native clients show for a published message. */
export interface PublishNotification {
  /** At most 32 characters. */
  title?: string;
  /** At most 50 characters. */
  body?: string;
  /** An integer of 0 or more. */
  badge?: number;
  /** Passed through to native clients. */
  sound?: string;
}

/** Options of `pubsub.publish()`. */
export interface PublishOptions {
  channel: Channel;
  /** A non-empty string of at most 10000 characters. */
  message: string;
  /** 0: at most once; 1: at least once, redelivered until the subscriber acks. @default 0 */
  qos?: 0 | 1;
  notification?: PublishNotification;
  /** For private channels: a token from your app server granting write on the channel. */
  accessToken?: string;
}

/** What a successful publish returns. */
export interface PublishResult {
  /** The publish's idempotency key, also the pushed message's id. */
  guid: string;
  /** The server's time for the message, in ms; undefined if the server did not say. */
  time: number | undefined;
}

/** Options of `pubsub.subscribe()`: give `channel` or `channels`, not both. */
export interface SubscribeOptions {
  channel?: Channel;
  /** 1 to 300 channels, no duplicates or empty items. */
  channels?: readonly Channel[];
  /** Join the channels' presence as a member (needs a connected user id). */
  presence?: { enable: boolean };
  /** For private channels: a token from your app server granting read on the channels. */
  accessToken?: string;
  /** Called with every message of the channels. */
  onMessage: (message: PubsubMessage) => void;
}

/** Options of a read of one channel: `pubsub.history()`, `pubsub.hereNow()` and `pubsub.subscribePresence()`. */
export interface ChannelReadOptions {
  channel: Channel;
  /**
   * For private channels: a token from your app server granting read on the channel. Not needed for a channel this
   * client subscribes to or watches, whose token was checked then.
   */
  accessToken?: string;
}

/** Options of `pubsub.subscribePresence()`. */
export interface SubscribePresenceOptions extends ChannelReadOptions {
  /** How many members each event carries. @default 10, at most 300 */
  membersLimit?: number;
  /** Called with every presence change of the channel. */
  onPresence: (event: ChannelPresenceEvent) => void;
}

/** What `pubsub.hereNow()` returns. */
export interface HereNowResult {
  channel: string;
  /** How many members the channel has. */
  amount: number;
  /** Up to `limit` of them, newest first. */
  members: PresenceMember[];
}

/** What `pubsub.history()` returns: oldest first. */
export interface HistoryResult {
  messages: HistoryMessage[];
}
