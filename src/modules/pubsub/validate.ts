import { LIMITS, PUBSUB_LIMITS, type WireNotification } from '../../protocol/index.js';
import { ParleyError } from '../../core/errors.js';
import type { PublishOptions, SubscribeOptions } from './types.js';

/** Argument checks of `client.pubsub`, with the spec's messages (product spec §5, reference §1). */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function channelString(channel: unknown): string | undefined {
  if (typeof channel === 'number') return Number.isFinite(channel) ? String(channel) : undefined;
  if (typeof channel !== 'string' || channel.trim() === '') return undefined;
  return channel.trim();
}

/** PUB-2: one channel, a non-empty string or a number; returns it as a string. */
export function validateChannel(channel: unknown): string {
  const name = channelString(channel);
  if (name === undefined) throw ParleyError.badRequest('channelRequired');
  if (name.length > PUBSUB_LIMITS.channelMaxLength) throw ParleyError.badRequest('channelTooLong');
  return name;
}

/** PUB-2: a channel list: non-empty, at most 300, no empty items, no duplicates. */
export function validateChannels(channels: unknown): string[] {
  if (!Array.isArray(channels) || channels.length === 0) throw ParleyError.badRequest('channelsEmpty');
  if (channels.length > LIMITS.idArrayMax) throw ParleyError.badRequest('channelsTooLong');
  const names = channels.map((c: unknown) => channelString(c));
  if (names.some((n) => n === undefined)) throw ParleyError.badRequest('channelsBlankItem');
  const list = names as string[];
  if (list.some((n) => n.length > PUBSUB_LIMITS.channelMaxLength)) throw ParleyError.badRequest('channelTooLong');
  if (new Set(list).size !== list.length) throw ParleyError.badRequest('channelsDuplicate');
  return list;
}

/** PUB-3: a publish's message and qos. */
export function validatePublish(options: PublishOptions): {
  channel: string;
  message: string;
  qos: 0 | 1 | undefined;
  notification: WireNotification | undefined;
} {
  if (!isPlainObject(options)) throw ParleyError.badRequest('channelRequired');
  const channel = validateChannel(options.channel);
  const { message, qos } = options;
  if (typeof message !== 'string' || message.length === 0) throw ParleyError.badRequest('publishMessageRequired');
  if (message.length > LIMITS.publishMessageMaxLength) throw ParleyError.badRequest('publishMessageTooLong');
  if (qos !== undefined && qos !== null && qos !== 0 && qos !== 1) throw ParleyError.badRequest('qosInvalid');
  return { channel, message, qos: qos ?? undefined, notification: validateNotification(options.notification) };
}

/** PUB-4: a notification: title at most 32 characters, body at most 50, badge an integer of 0 or more. */
export function validateNotification(notification: unknown): WireNotification | undefined {
  if (notification === undefined || notification === null) return undefined;
  if (!isPlainObject(notification)) throw ParleyError.badRequest('notificationNotObject');
  const { title, body, badge } = notification;
  if (title !== undefined && (typeof title !== 'string' || title.length > LIMITS.notificationTitleMaxLength)) {
    throw ParleyError.badRequest('notificationTitleTooLong');
  }
  if (body !== undefined && (typeof body !== 'string' || body.length > LIMITS.notificationBodyMaxLength)) {
    throw ParleyError.badRequest('notificationBodyTooLong');
  }
  if (badge !== undefined && !(Number.isInteger(badge) && (badge as number) >= 0)) {
    throw ParleyError.badRequest('badgeInvalid');
  }
  return { ...notification };
}

/** PUB-5: a subscribe: `channel` or `channels`, not both; presence `{enable: boolean}`; an `onMessage` function. */
export function validateSubscribe(options: SubscribeOptions): { channels: string[]; presence: boolean } {
  if (!isPlainObject(options)) throw ParleyError.badRequest('channelRequired');
  const hasOne = options.channel !== undefined && options.channel !== null;
  const hasMany = options.channels !== undefined && options.channels !== null;
  if (hasOne && hasMany) throw ParleyError.badRequest('channelOrChannels');
  if (!hasOne && !hasMany) throw ParleyError.badRequest('channelRequired');
  const channels = hasOne ? [validateChannel(options.channel)] : validateChannels(options.channels);
  const presence: unknown = options.presence;
  if (presence !== undefined && presence !== null) {
    if (!isPlainObject(presence) || typeof presence.enable !== 'boolean') {
      throw ParleyError.badRequest('presenceEnableNotBoolean');
    }
  }
  if (typeof options.onMessage !== 'function') throw ParleyError.badRequest('onMessageRequired');
  return { channels, presence: (presence as { enable?: boolean } | undefined)?.enable === true };
}

/** PUB-14: a members limit: an integer from 1 to 300, 10 when absent. */
export function validateMembersLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return LIMITS.presenceMembersDefault;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > LIMITS.presenceMembersMax) {
    throw ParleyError.badRequest('membersLimitInvalid');
  }
  return limit as number;
}

/** PUB-11: a history page size: an integer of 1 or more, 10 when absent (the server caps it). */
export function validateHistoryLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return PUBSUB_LIMITS.historyDefaultLimit;
  if (!Number.isInteger(limit) || (limit as number) < 1) throw ParleyError.badRequest('historyLimitInvalid');
  return limit as number;
}
