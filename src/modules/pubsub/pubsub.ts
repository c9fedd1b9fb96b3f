import {
  CLIENT_EVENTS,
  CLIENT_NOTICES,
  CODES,
  LIMITS,
  PUBSUB_LIMITS,
  SERVER_PUSHES,
  channelNotSubscribed,
  isServerChannel,
  marksRedeliveries,
  toPubsubMessage,
  wireChannelPresenceEventSchema,
  wirePubsubMessageSchema,
  type HistoryMessage,
  type PubsubMessage,
  type WirePubsubMessage,
  type WireRedelivered,
} from '../../protocol/index.js';
import type { Connection } from '../../core/connection.js';
import { ParleyError } from '../../core/errors.js';
import { timeOrderedHexId } from '../../core/ids.js';
import { isOnline } from '../../core/status.js';
import { RedeliveryHold } from './hold.js';
import { ChannelPresence, toMember } from './presence.js';
import { RecentIds } from '../../core/recent-ids.js';
import type {
  Channel,
  ChannelReadOptions,
  HereNowResult,
  HistoryResult,
  PublishOptions,
  PublishResult,
  SubscribeOptions,
  SubscribePresenceOptions,
} from './types.js';
import {
  validateChannel,
  validateHistoryLimit,
  validateMembersLimit,
  validatePublish,
  validateSubscribe,
} from './validate.js';

/** What one subscribed channel was subscribed with, kept to re-send it after an expired reconnect. */
interface Subscription {
  onMessage: (message: PubsubMessage) => void;
  presence: boolean;
  accessToken: string | undefined;
}

/**
 * `client.pubsub`: publish to channels, subscribe with qos 0 or 1, channel presence, here-now and history.
 * Promise-based, with the reference's method names. Subscriptions survive reconnects: after `reconnected` the
 * server kept them; after `expired_reconnected` this module subscribes everything again by itself (PUB-9).
 */
export class Pubsub {
  readonly #connection: Connection;
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #presence = new Map<string, ChannelPresence>();
  readonly #seen = new RecentIds(LIMITS.dedupeWindow);
  /** PUB-8: each channel's messages in order, redeliveries included. */
  readonly #hold = new RedeliveryHold((wire) => this.#subscriptions.get(wire.n)?.onMessage(toPubsubMessage(wire)));

  constructor(connection: Connection) {
    this.#connection = connection;
    connection.pushes.on(SERVER_PUSHES.message, (payload) => this.#onMessage(payload));
    connection.pushes.on(SERVER_PUSHES.redelivered, (payload) => {
      const channels = (payload as WireRedelivered | null | undefined)?.channels;
      this.#hold.redelivered(Array.isArray(channels) ? channels.map(String) : undefined);
    });
    connection.pushes.on(SERVER_PUSHES.pubsubPresence, (payload) => this.#onPresence(payload));
    connection.events.on('connectionStatus', ({ status }) => {
      if (isOnline(status)) this.#hold.authorized(marksRedeliveries(connection.moduleData));
      if (status === 'expired_reconnected') this.#restore();
      if (status === 'reconnected') this.#refreshPresence();
      if (status === 'reconnecting') this.#hold.linkLost();
      // PUB-9: a refused reconnect ends the session as a disconnect does: a connect() after it, perhaps as another
      // user, starts with no channels, as IM starts with no state.
      if (status === 'disconnected' || status === 'connect_failed') {
        this.#subscriptions.clear();
        this.#presence.clear();
        this.#hold.clear();
      }
    });
  }

  /**
   * Publishes `message` to `channel` (PUB-3). The request carries a fresh guid, so that a re-sent publish reaches
   * subscribers once. Needs write permission. A channel starting with `$` is the app server's (PUB-18): publishing
   * there is refused with 401 `No permission` before asking.
   */
  async publish(options: PublishOptions): Promise<PublishResult> {
    this.#ready();
    const { channel, message, qos, notification } = validatePublish(options);
    if (isServerChannel(channel)) throw ParleyError.of(CODES.UNAUTHORIZED, 'noPermission');
    const guid = timeOrderedHexId();
    const ack = await this.#connection.requests.send({
      event: CLIENT_EVENTS.publish,
      params: { channel, content: message, nt: notification, at: options.accessToken, guid, q: qos },
      kind: 'request',
      permission: 'write',
      countRetries: true,
    });
    const time = (ack.content as { time?: unknown } | null | undefined)?.time;
    return { guid, time: typeof time === 'number' ? time : undefined };
  }

  /**
   * Subscribes to `channel` or `channels` (PUB-5); `onMessage` gets each message once, each channel's in publish
   * order, those redelivered after a lost link first (PUB-7, PUB-8). Subscribing a channel again replaces its
   * `onMessage`. With `presence: {enable: true}` this user becomes a member of the channels' presence, which needs a
   * user id (PUB-12).
   */
  async subscribe(options: SubscribeOptions): Promise<void> {
    this.#ready();
    const { channels, presence } = validateSubscribe(options);
    if (presence) this.#user();
    const joining = channels.filter((channel) => !this.#subscriptions.has(channel)).length;
    if (this.#subscriptions.size + joining > PUBSUB_LIMITS.sessionChannelsMax) {
      throw ParleyError.badRequest('sessionChannelsTooMany');
    }
    const entry: Subscription = { onMessage: options.onMessage, presence, accessToken: options.accessToken };
    // Registered before the request so that a message pushed before the ack already has its listener.
    const previous = new Map(channels.map((c) => [c, this.#subscriptions.get(c)]));
    for (const channel of channels) this.#subscriptions.set(channel, entry);
    try {
      await this.#sendSubscribe(channels, entry, false);
    } catch (error) {
      for (const [channel, before] of previous) {
        if (before) this.#subscriptions.set(channel, before);
        else this.#subscriptions.delete(channel);
      }
      throw ParleyError.from(error);
    }
  }

  /**
   * Unsubscribes a channel (PUB-6); rejects with 400 `channel[x] is not subscribed` if it was not. Messages published
   * while it was subscribed and still being redelivered once the link is back reach `onMessage` first (PUB-8).
   */
  async unsubscribe(options: { channel: Channel }): Promise<void> {
    this.#ready();
    const channel = validateChannel(options?.channel);
    const entry = this.#subscriptions.get(channel);
    if (!entry) throw new ParleyError(CODES.BAD_REQUEST, channelNotSubscribed(channel));
    // Only while the link is up: offline, the unsubscribe waits for the link like any request, and may time out.
    if (isOnline(this.#connection.status)) await this.#hold.settled(channel);
    await this.#connection.requests.send({
      event: CLIENT_EVENTS.unsubscribe,
      params: { channel, presence: entry.presence ? { enable: true } : undefined },
      permission: 'read',
    });
    if (this.#subscriptions.get(channel) === entry) this.#subscriptions.delete(channel);
  }

  /**
   * Watches a channel's presence (PUB-13): `onPresence` gets every join, leave, timeout and back, with the amount
   * and up to `membersLimit` members (default 10, at most 300), newest first. After a lost link the members are read
   * again (PUB-19), so the first event after it lists them as they are.
   */
  async subscribePresence(options: SubscribePresenceOptions): Promise<void> {
    this.#ready();
    const channel = validateChannel(options?.channel);
    const membersLimit = validateMembersLimit(options.membersLimit);
    if (typeof options.onPresence !== 'function') throw ParleyError.badRequest('onPresenceRequired');
    if (!this.#presence.has(channel) && this.#presence.size >= PUBSUB_LIMITS.sessionWatchesMax) {
      throw ParleyError.badRequest('sessionWatchesTooMany');
    }
    const watch = new ChannelPresence({
      channel,
      membersLimit,
      onPresence: options.onPresence,
      accessToken: options.accessToken,
    });
    const previous = this.#presence.get(channel);
    this.#presence.set(channel, watch);
    try {
      await this.#watch(watch);
    } catch (error) {
      if (previous) this.#presence.set(channel, previous);
      else this.#presence.delete(channel);
      throw ParleyError.from(error);
    }
  }

  /** Stops watching a channel's presence; rejects with 400 if it was not watched. */
  async unsubscribePresence(options: { channel: Channel }): Promise<void> {
    this.#ready();
    const channel = validateChannel(options?.channel);
    const watch = this.#presence.get(channel);
    if (!watch) throw new ParleyError(CODES.BAD_REQUEST, channelNotSubscribed(channel));
    await this.#connection.requests.send({
      event: CLIENT_EVENTS.presenceUnsubscribe,
      params: { channel },
      permission: 'read',
    });
    if (this.#presence.get(channel) === watch) this.#presence.delete(channel);
  }

  /**
   * The channel's presence members now (PUB-14): the amount and up to `limit` members (default 10, max 300). A
   * private channel needs `accessToken` granting read, unless this client subscribes to or watches it (PUB-15).
   */
  async hereNow(options: ChannelReadOptions & { limit?: number }): Promise<HereNowResult> {
    this.#ready();
    const channel = validateChannel(options?.channel);
    const limit = validateMembersLimit(options.limit);
    return this.#hereNow(channel, limit, options.accessToken);
  }

  /**
   * The newest `limit` messages of a channel, oldest first (PUB-11); the server keeps a bounded history. A private
   * channel needs `accessToken` granting read, unless this client subscribes to or watches it (PUB-15).
   */
  async history(options: ChannelReadOptions & { limit?: number }): Promise<HistoryResult> {
    this.#ready();
    const channel = validateChannel(options?.channel);
    const limit = validateHistoryLimit(options.limit);
    const ack = await this.#connection.requests.send({
      event: CLIENT_EVENTS.historyMessages,
      params: { channel, limit, accessToken: options.accessToken },
      kind: 'query',
      permission: 'read',
    });
    const list = (ack.content as { messages?: unknown } | null | undefined)?.messages;
    const messages: HistoryMessage[] = Array.isArray(list)
      ? list.map((m: { time?: unknown; content?: unknown }) => ({ time: Number(m.time), content: String(m.content) }))
      : [];
    return { messages };
  }

  /** The channels this client is subscribed to. */
  get channels(): string[] {
    return [...this.#subscriptions.keys()];
  }

  async #sendSubscribe(channels: string[], entry: Subscription, resubscribe: boolean): Promise<void> {
    // Messages pushed before the ack, and redeliveries after it, wait for its mark (PUB-8).
    const answered = this.#hold.subscribing(channels);
    const sent = this.#connection.requests.send({
      event: CLIENT_EVENTS.subscribe,
      params: {
        channels,
        accessToken: entry.accessToken,
        presence: entry.presence ? { enable: true } : undefined,
        resubscribe,
      },
      permission: 'read',
    });
    await sent.then(
      () => answered(true),
      (error: unknown) => {
        answered(false);
        throw error;
      },
    );
  }

  async #watch(watch: ChannelPresence): Promise<void> {
    // After an expired reconnect the channel's subscribe may not be through yet: its token stands in.
    const accessToken = watch.accessToken ?? this.#subscriptions.get(watch.channel)?.accessToken;
    await this.#connection.requests.send({
      event: CLIENT_EVENTS.presenceSubscribe,
      params: { channel: watch.channel, accessToken },
      permission: 'read',
    });
    // After the subscribe, so that no event falls between the snapshot and the first push.
    const now = await this.#hereNow(watch.channel, watch.membersLimit, accessToken);
    if (this.#presence.get(watch.channel) === watch) watch.reset(now.members, now.amount);
  }

  async #hereNow(channel: string, limit: number, accessToken: string | undefined): Promise<HereNowResult> {
    const ack = await this.#connection.requests.send({
      event: CLIENT_EVENTS.presenceHereNow,
      params: { channel, limit, accessToken },
      kind: 'query',
      permission: 'read',
    });
    const content = (ack.content ?? {}) as { members?: unknown; amount?: unknown };
    const members = Array.isArray(content.members)
      ? content.members.map((m: { id: unknown; data?: unknown }) => toMember(m))
      : [];
    return { channel, amount: Number(content.amount ?? members.length), members };
  }

  /** PUB-9: after an expired reconnect the server has forgotten this session; subscribe everything again. */
  #restore(): void {
    const groups = new Map<Subscription, string[]>();
    for (const [channel, entry] of this.#subscriptions) groups.set(entry, [...(groups.get(entry) ?? []), channel]);
    for (const [entry, channels] of groups) {
      for (let i = 0; i < channels.length; i += LIMITS.idArrayMax) {
        this.#sendSubscribe(channels.slice(i, i + LIMITS.idArrayMax), entry, true).catch(() => undefined);
      }
    }
    for (const watch of this.#presence.values()) this.#watch(watch).catch(() => undefined);
  }

  /**
   * PUB-19: after a reconnect to the same session the server still has the watches, but the joins and leaves of the
   * outage were not stored: each watched channel's members are read again, so that the next event lists them right.
   */
  #refreshPresence(): void {
    for (const watch of this.#presence.values()) {
      const accessToken = watch.accessToken ?? this.#subscriptions.get(watch.channel)?.accessToken;
      this.#hereNow(watch.channel, watch.membersLimit, accessToken).then(
        (now) => {
          if (this.#presence.get(watch.channel) === watch) watch.reset(now.members, now.amount);
        },
        () => undefined,
      );
    }
  }

  /**
   * PUB-7, PUB-8: acks qos-1 messages (duplicates too, so the server stops resending), drops duplicates, and hands
   * the rest over in their channel's order.
   */
  #onMessage(payload: unknown): void {
    const parsed = wirePubsubMessageSchema.safeParse(payload);
    if (!parsed.success) return;
    const wire = parsed.data;
    if (wire.a) this.#connection.notify(CLIENT_NOTICES.ack, { publishGuid: wire.i });
    if (!this.#seen.add(wire.i)) return;
    this.#hold.push(wire as WirePubsubMessage);
  }

  #onPresence(payload: unknown): void {
    const parsed = wireChannelPresenceEventSchema.safeParse(payload);
    if (!parsed.success) return;
    const event = parsed.data;
    this.#presence.get(event.channel)?.apply({
      channel: event.channel,
      action: event.action,
      member: toMember(event.member),
      time: event.time,
      amount: event.amount,
    });
  }

  #ready(): void {
    if (this.#connection.status === 'disconnected') throw ParleyError.of(CODES.NOT_CONNECTED, 'callConnectFirst');
  }

  #user(): string {
    const id = this.#connection.input?.id;
    if (id === undefined || id === '') throw ParleyError.badRequest('presenceNeedsUser');
    return String(id);
  }
}
