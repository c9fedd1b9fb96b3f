import * as z from 'zod/mini';
import { MESSAGES } from './codes.js';
import { LIMITS } from './limits.js';

/**
 * Pub/sub on the wire (reference §2 and the reference client's exact reading of each field). A pushed message is
 * abbreviated: `n` channel, `c` content, `t` server time, `i` guid, `a` needs an `ack`, `nt` notification.
 */

/** Limits of pub/sub that the spec does not fix; Parley's own. */
export const PUBSUB_LIMITS = {
  /** Longest channel name, in characters: channels are stored and named in socket.io rooms. */
  channelMaxLength: 128,
  /** History page size when none is given. */
  historyDefaultLimit: 10,
  /** Largest history page: the server answers at most this many, newest first before ordering. */
  historyMaxLimit: 100,
  /** Longest publish guid: the reference sends 32 hex characters. */
  guidMaxLength: 64,
  /** Most channels one session subscribes to (PUB-17): each is a room and a stored row. */
  sessionChannelsMax: 1000,
  /** Most channels whose presence one session watches (PUB-17). */
  sessionWatchesMax: 1000,
} as const;

/**
 * PUB-18: channels whose name starts with this are the app server's to publish: clients may subscribe to them (with
 * a read token when the app requires one) but never publish there, whatever token they hold.
 */
export const SERVER_CHANNEL_PREFIX = '$';

/** PUB-18: whether only the app's server may publish on `channel`. */
export function isServerChannel(channel: string): boolean {
  return channel.startsWith(SERVER_CHANNEL_PREFIX);
}

/** `channel[x] is not subscribed`, built with the channel's name. */
export function channelNotSubscribed(channel: string): string {
  return MESSAGES.channelNotSubscribed.replace('{channel}', channel);
}

/**
 * A channel name: a non-empty string (trimmed) of at most 128 characters, or a number, as a string. `emptyMessage`
 * is what a missing or blank one is refused with: alone it is required, in a list it is an empty item.
 */
function channelName(emptyMessage: string) {
  return z.pipe(
    z.union(
      [
        z
          .string()
          .check(
            z.trim(),
            z.minLength(1, emptyMessage),
            z.maxLength(PUBSUB_LIMITS.channelMaxLength, MESSAGES.channelTooLong),
          ),
        z.number(),
      ],
      { error: emptyMessage },
    ),
    z.transform((v) => String(v)),
  );
}

/** One channel: a non-empty string or a number, sent as a string (`channel is required.`). */
export const channelSchema = channelName(MESSAGES.channelRequired);

/**
 * A channel list: non-empty, no blank items, no duplicates, at most 300 (product spec §5), with the messages the
 * SDK gives for the same list (PUB-2).
 */
export const channelsSchema = z.array(channelName(MESSAGES.channelsBlankItem), { error: MESSAGES.channelsEmpty }).check(
  z.minLength(1, MESSAGES.channelsEmpty),
  z.maxLength(LIMITS.idArrayMax, MESSAGES.channelsTooLong),
  z.refine((list) => new Set(list).size === list.length, MESSAGES.channelsDuplicate),
);

/** `presence: {enable}` of a subscribe. */
export const presenceOptionSchema = z.looseObject({
  enable: z.boolean({ error: MESSAGES.presenceEnableNotBoolean }),
});

const optionalToken = z.optional(z.nullable(z.string()));

/**
 * `subscribe`: the reference sends `channels` (a string array) always; a lone `channel` is accepted too, but not
 * both. `resubscribe` is true when the client re-sends a subscription it already had (PUB-9).
 */
export const subscribeSchema = z
  .looseObject({
    channel: z.optional(z.nullable(channelSchema)),
    channels: z.optional(z.nullable(channelsSchema)),
    accessToken: optionalToken,
    presence: z.optional(z.nullable(presenceOptionSchema)),
    resubscribe: z.optional(z.nullable(z.boolean())),
  })
  .check(
    z.refine((v) => !(v.channel != null && v.channels != null), MESSAGES.channelOrChannels),
    z.refine((v) => v.channel != null || v.channels != null, MESSAGES.channelRequired),
  );
/** A `subscribe` request as validated. */
export type SubscribeRequest = z.infer<typeof subscribeSchema>;

/** The channels a validated `subscribe` names. */
export function subscribedChannels(request: SubscribeRequest): string[] {
  return request.channels ?? (request.channel == null ? [] : [request.channel]);
}

/** `unsubscribe`. */
export const unsubscribeSchema = z.looseObject({
  channel: channelSchema,
  presence: z.optional(z.nullable(presenceOptionSchema)),
});

/**
 * A notification shown by native clients (PUB-4): title and body, bounded, badge an integer of 0 or more (product
 * spec §5), with the messages the SDK gives.
 */
export const notificationSchema = z.looseObject(
  {
    title: z.optional(
      z.nullable(
        z
          .string({ error: MESSAGES.notificationTitleTooLong })
          .check(z.maxLength(LIMITS.notificationTitleMaxLength, MESSAGES.notificationTitleTooLong)),
      ),
    ),
    body: z.optional(
      z.nullable(
        z
          .string({ error: MESSAGES.notificationBodyTooLong })
          .check(z.maxLength(LIMITS.notificationBodyMaxLength, MESSAGES.notificationBodyTooLong)),
      ),
    ),
    sound: z.optional(z.unknown()),
    // The reference sends the badge as a string ("0"); Parley's SDK sends an integer.
    badge: z.optional(
      z.nullable(
        z.union(
          [z.int().check(z.gte(0, MESSAGES.badgeInvalid)), z.string().check(z.regex(/^\d+$/, MESSAGES.badgeInvalid))],
          {
            error: MESSAGES.badgeInvalid,
          },
        ),
      ),
    ),
  },
  { error: MESSAGES.notificationNotObject },
);
/** A notification as published. */
export type WireNotification = z.infer<typeof notificationSchema>;

/** `publish`. `guid` is the idempotency key; `retried` counts re-emits (0 at first). */
export const publishSchema = z.looseObject({
  channel: channelSchema,
  content: z
    .string({ error: MESSAGES.publishMessageRequired })
    .check(
      z.minLength(1, MESSAGES.publishMessageRequired),
      z.maxLength(LIMITS.publishMessageMaxLength, MESSAGES.publishMessageTooLong),
    ),
  nt: z.optional(z.nullable(notificationSchema)),
  at: optionalToken,
  guid: z.string().check(z.minLength(1), z.maxLength(PUBSUB_LIMITS.guidMaxLength)),
  q: z.optional(z.nullable(z.union([z.literal(0), z.literal(1)], { error: MESSAGES.qosInvalid }))),
  retried: z.optional(z.nullable(z.number())),
});
/** A `publish` request as validated. */
export type PublishRequest = z.infer<typeof publishSchema>;
/** What a successful `publish` acks with (the reference does not read it). */
export interface PublishAck {
  time: number;
  guid: string;
}

/**
 * `historyMessages`: the newest `limit` messages of a channel, oldest first. `accessToken` (Parley's; the reference
 * sends none) grants read on a private channel, as a subscribe's does (PUB-15).
 */
export const historyMessagesSchema = z.looseObject({
  channel: channelSchema,
  accessToken: optionalToken,
  limit: z.optional(
    z.nullable(z.int({ error: MESSAGES.historyLimitInvalid }).check(z.gte(1, MESSAGES.historyLimitInvalid))),
  ),
});
/** One message of a channel's history. */
export interface HistoryMessage {
  time: number;
  content: string;
}
/** What `historyMessages` acks with. */
export interface HistoryMessagesAck {
  messages: HistoryMessage[];
}

/** `PUBSUB_PRESENCE_UNSUBSCRIBE`. */
export const channelRefSchema = z.looseObject({ channel: channelSchema });

/** `PUBSUB_PRESENCE_SUBSCRIBE`; `accessToken` (Parley's) grants read on a private channel (PUB-15). */
export const presenceSubscribeSchema = z.looseObject({ channel: channelSchema, accessToken: optionalToken });

/**
 * `PUBSUB_PRESENCE_HERENOW`: `limit` defaults to 10; the server caps it at 300. `accessToken` (Parley's) grants read
 * on a private channel (PUB-15).
 */
export const hereNowSchema = z.looseObject({
  channel: channelSchema,
  accessToken: optionalToken,
  limit: z.optional(
    z.nullable(z.int({ error: MESSAGES.membersLimitInvalid }).check(z.gte(1, MESSAGES.membersLimitInvalid))),
  ),
});

/** A presence member: a connected user and the data it authorized with. */
export interface PresenceMember {
  id: string;
  data: Record<string, unknown>;
}
/** What `PUBSUB_PRESENCE_HERENOW` acks with: the newest members first, and how many there are in all. */
export interface HereNowAck {
  members: PresenceMember[];
  amount: number;
}

/** `ack`: the client received a qos-1 message. */
export const pubsubAckSchema = z.looseObject({
  publishGuid: z.string().check(z.minLength(1), z.maxLength(PUBSUB_LIMITS.guidMaxLength)),
});

/** The `message` push. */
export interface WirePubsubMessage {
  /** Channel. */
  n: string;
  /** Content. */
  c: string;
  /** Server time, ms. */
  t: number;
  /** The publish guid. */
  i: string;
  /** True for qos 1: answer with `ack {publishGuid: i}`. */
  a: boolean;
  /** Notification title (`t`) and body (`c`), for native clients. */
  nt?: PushedNotification;
}

/** A notification as pushes carry it to native clients: title `t`, body `c` (PUB-4, and IM-26 for IM messages). */
export interface PushedNotification {
  t?: string | null;
  c?: string | null;
}

/** Checks a pushed message on the client; the server is trusted, but a bad push must not break the SDK. */
export const wirePubsubMessageSchema = z.looseObject({
  n: z.string(),
  c: z.string(),
  t: z.number(),
  i: z.string().check(z.minLength(1)),
  a: z.optional(z.nullable(z.boolean())),
});

/**
 * The `PS_REDELIVERED` push (PUB-8): this connection's redeliveries of `channels` (those a `subscribe` named), or of
 * every channel of its session when absent (after `authorize`), have all been pushed.
 */
export interface WireRedelivered {
  channels?: string[];
}

/**
 * What a Parley server says about pub/sub in the authorize reply (`mD.GWS`). `redelivered: true`: after each
 * `authorize` and each `subscribe` it pushes `PS_REDELIVERED` once that request's redeliveries are out, so that
 * Parley's SDK can hand a channel's messages over in their order (PUB-8).
 */
export interface PubsubModuleData {
  redelivered?: boolean;
}

/** Whether the server marks the end of its redeliveries: only when it said `redelivered: true`. */
export function marksRedeliveries(moduleData: { GWS?: unknown }): boolean {
  const gws = moduleData.GWS as PubsubModuleData | null | undefined;
  return gws?.redelivered === true;
}

/** A message as the SDK hands it to `onMessage`. */
export interface PubsubMessage {
  time: number;
  channel: string;
  content: string;
}

/** Maps a pushed message to its domain form. */
export function toPubsubMessage(wire: Pick<WirePubsubMessage, 'n' | 'c' | 't'>): PubsubMessage {
  return { time: wire.t, channel: wire.n, content: wire.c };
}

/** What happened to a channel's presence: a member subscribed, unsubscribed, lost its link, or came back. */
export const PRESENCE_ACTIONS = ['join', 'leave', 'timeout', 'back'] as const;
/** A channel presence action. */
export type PresenceAction = (typeof PRESENCE_ACTIONS)[number];

/** The `PS_PRESENCE_EVENT` push. `amount` is the channel's member count after the change. */
export interface WireChannelPresenceEvent {
  channel: string;
  action: PresenceAction;
  member: PresenceMember;
  time: number;
  amount: number;
}

/** Checks a pushed presence event on the client. */
export const wireChannelPresenceEventSchema = z.looseObject({
  channel: z.string(),
  action: z.enum(PRESENCE_ACTIONS),
  member: z.looseObject({ id: z.string(), data: z.optional(z.unknown()) }),
  time: z.number(),
  amount: z.number(),
});

/** A presence event as the SDK hands it to `onPresence`: the push plus the members it now knows, newest first. */
export interface ChannelPresenceEvent extends WireChannelPresenceEvent {
  members: PresenceMember[];
}
