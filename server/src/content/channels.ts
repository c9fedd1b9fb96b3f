import { randomBytes } from 'node:crypto';
import { badRequest, type CatalogEditResult } from './catalog.js';
import type { ChannelRecord, ChannelStore } from '../store/index.js';
import { isRowKey, type MemberFailure, type MemberResult } from '../members/service.js';

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/** Bounds of channels (docs/limits.md). */
export const CHANNEL_LIMITS = {
  /** A channel's name: 1 to this many characters (Unicode code points) after trimming. */
  nameMax: 12,
  /** Channels the operator sets up, at most; a member chooses among them. */
  max: 50,
  /** A channel's place in the operator's order: 0 to this. */
  positionMax: 10_000,
} as const;

/** The front page's channels as a member or visitor sees them (spec §2 article/typeid). */
export interface ChannelChoice {
  /** The channels of the front page, in the member's order: their choice, or the default ones. */
  mine: ChannelRecord[];
  /** The other channels, in the operator's order, to add from. */
  more: ChannelRecord[];
}

/** A result of the operator's change of channels. */
export type ChannelEditResult = CatalogEditResult<ChannelRecord>;
type ChannelEditFailure = Extract<ChannelEditResult, { ok: false }>;

/**
 * Article channels (spec §2 article/typeid, §5 "At least one channel must remain"): the operator sets them up and
 * orders them; each member chooses and orders the ones on their front page, at least one. No HTTP here.
 */
export interface ChannelService {
  /** Every channel, in the operator's order. */
  all(): Promise<ChannelRecord[]>;
  /** The channels of `memberId`'s front page and the others; a visitor (undefined) gets the default ones. */
  choiceOf(memberId: string | undefined): Promise<ChannelChoice>;
  /**
   * Replaces the member's channels with `ids`, in that order: a non-empty array (`channel_last`, "At least one
   * channel must remain") of channels that exist (`channel_missing`), without duplicates (`bad_params`).
   */
  choose(memberId: string, ids: unknown): Promise<MemberResult<ChannelChoice>>;
  /** The channel `id` names, for an article's channel: `channel_missing` when there is none. */
  byId(id: unknown): Promise<MemberResult<ChannelRecord>>;
  /** The operator adds a channel: `{name, position?, isDefault?}`. */
  add(fields: Record<string, unknown>): Promise<ChannelEditResult>;
  /** The operator changes channel `id`: any of `{name, position, isDefault}`. */
  update(id: string, fields: Record<string, unknown>): Promise<ChannelEditResult>;
  /** The operator removes channel `id`: its articles stay, in no channel. */
  remove(id: string): Promise<ChannelEditResult>;
}

const bad = badRequest;
const notFound: ChannelEditFailure = { ok: false, failure: 'not_found', message: 'channel does not exist.' };

/** The checked fields of the operator's change, or why they are refused. */
function fieldsOf(
  fields: Record<string, unknown>,
  required: boolean,
): { name?: string; position?: number; isDefault?: boolean } | ChannelEditFailure {
  const { name, position, isDefault } = fields;
  const out: { name?: string; position?: number; isDefault?: boolean } = {};
  if (name !== undefined || required) {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    const length = [...trimmed].length;
    if (length === 0 || length > CHANNEL_LIMITS.nameMax || /\p{Cc}/u.test(trimmed)) {
      return bad(`name must be 1 to ${CHANNEL_LIMITS.nameMax} characters.`);
    }
    out.name = trimmed;
  }
  if (position !== undefined) {
    if (!Number.isInteger(position) || (position as number) < 0 || (position as number) > CHANNEL_LIMITS.positionMax) {
      return bad(`position must be an integer from 0 to ${CHANNEL_LIMITS.positionMax}.`);
    }
    out.position = position as number;
  }
  if (isDefault !== undefined) {
    if (typeof isDefault !== 'boolean') return bad('isDefault must be boolean.');
    out.isDefault = isDefault;
  }
  return out;
}

/** Creates the channel service over the store. */
export function createChannelService(deps: { channels: ChannelStore; now: () => number }): ChannelService {
  const { channels } = deps;
  const found = async (id: string): Promise<ChannelEditResult> => {
    const channel = (await channels.all()).find((c) => c.id === id);
    return channel ? { ok: true, value: channel } : notFound;
  };
  const choiceFrom = (all: ChannelRecord[], chosen: readonly string[]): ChannelChoice => {
    const byId = new Map(all.map((channel) => [channel.id, channel]));
    const mine =
      chosen.length > 0 ? chosen.flatMap((id) => byId.get(id) ?? []) : all.filter((channel) => channel.isDefault);
    const shown = new Set(mine.map((channel) => channel.id));
    return { mine, more: all.filter((channel) => !shown.has(channel.id)) };
  };
  return {
    all: () => channels.all(),
    async choiceOf(memberId) {
      const [all, chosen] = await Promise.all([
        channels.all(),
        memberId === undefined ? [] : channels.chosen(memberId),
      ]);
      return choiceFrom(all, chosen);
    },
    async choose(memberId, ids) {
      if (!Array.isArray(ids) || ids.length > CHANNEL_LIMITS.max) return fail('bad_params');
      if (ids.length === 0) return fail('channel_last');
      const chosen: unknown[] = ids;
      if (!chosen.every((id): id is string => typeof id === 'string') || new Set(chosen).size !== chosen.length) {
        return fail('bad_params');
      }
      const all = await channels.all();
      const known = new Set(all.map((channel) => channel.id));
      if (!chosen.every((id) => known.has(id))) return fail('channel_missing');
      await channels.choose(memberId, chosen);
      return { ok: true, value: choiceFrom(all, chosen) };
    },
    async byId(id) {
      if (!isRowKey(id) || id === undefined) return fail('channel_missing');
      const channel = (await channels.all()).find((c) => c.id === id);
      return channel ? { ok: true, value: channel } : fail('channel_missing');
    },
    async add(fields) {
      const checked = fieldsOf(fields, true);
      if ('ok' in checked) return checked;
      const all = await channels.all();
      const record: ChannelRecord = {
        id: randomBytes(8).toString('hex'),
        name: checked.name as string,
        position: checked.position ?? Math.min(CHANNEL_LIMITS.positionMax, (all.at(-1)?.position ?? -1) + 1),
        isDefault: checked.isDefault ?? true,
        createdAt: deps.now(),
      };
      const outcome = await channels.add(record, CHANNEL_LIMITS.max);
      if (outcome === 'name_taken') return bad('a channel of that name exists.');
      if (outcome === 'limit') return bad(`at most ${CHANNEL_LIMITS.max} channels.`);
      return { ok: true, value: record };
    },
    async update(id, fields) {
      const checked = fieldsOf(fields, false);
      if ('ok' in checked) return checked;
      const outcome = await channels.update(id, checked);
      if (outcome === undefined) return notFound;
      if (outcome === 'name_taken') return bad('a channel of that name exists.');
      return found(id);
    },
    async remove(id) {
      const before = await found(id);
      if (!before.ok) return before;
      return (await channels.remove(id)) ? before : notFound;
    },
  };
}
