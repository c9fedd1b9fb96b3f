import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { apiPost, type CallContext } from '../api/request';

/** A channel articles are filed under. */
export interface Channel {
  id: string;
  name: string;
}

/** The front page's channels in the viewer's order (`mine`), and the others to add from (`more`). */
export interface ChannelChoice {
  mine: Channel[];
  more: Channel[];
}

/** The query key of the viewer's channels. */
export const CHANNELS_QUERY = 'channels';

/** Where a visitor's choice of channels is kept on this device: their ids, in order. */
export const VISITOR_CHANNELS_KEY = 'channels';

/** The viewer's channels as the server has them: a member's choice, or the default ones. */
export async function channelChoice(context: CallContext): Promise<ChannelChoice> {
  return (await apiPost<{ ret: ChannelChoice }>('article/typeid', {}, context)).ret;
}

/** Replaces the member's channels with `ids`, in that order (at least one). */
export async function chooseChannels(ids: readonly string[], context: CallContext): Promise<ChannelChoice> {
  return (await apiPost<{ ret: ChannelChoice }>('member/typeid_set', { ids }, context)).ret;
}

/** The channel ids a visitor chose on this device, in order; none when nothing (or nothing readable) is stored. */
export function visitorChannelIds(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(VISITOR_CHANNELS_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The choice `ids` makes of every channel of `choice`: those of them that still exist, in that order, and the others
 * in the server's order. Without any, `choice` as it is (the default ones).
 */
export function applyChoice(choice: ChannelChoice, ids: readonly string[]): ChannelChoice {
  const all = [...choice.mine, ...choice.more];
  const byId = new Map(all.map((channel) => [channel.id, channel]));
  const mine = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  if (mine.length === 0) return choice;
  const chosen = new Set(mine.map((channel) => channel.id));
  return { mine, more: all.filter((channel) => !chosen.has(channel.id)) };
}

/**
 * The viewer's channels and how to change them: a member's are kept by the server, a visitor's on this device. `save`
 * takes the ids of the front page's channels in order (at least one; the caller says so to the user) and rejects
 * when the server refuses.
 */
export function useChannels() {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const queryKey = [CHANNELS_QUERY, user?.id ?? null];
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      const choice = await channelChoice(context);
      return user ? choice : applyChoice(choice, visitorChannelIds());
    },
    enabled: true,
  });
  const save = async (ids: readonly string[]) => {
    if (user) {
      queryClient.setQueryData(queryKey, await chooseChannels(ids, context));
      return;
    }
    localStorage.setItem(VISITOR_CHANNELS_KEY, JSON.stringify(ids));
    const current = query.data;
    if (current) queryClient.setQueryData(queryKey, applyChoice(current, ids));
  };
  return { query, save };
}
