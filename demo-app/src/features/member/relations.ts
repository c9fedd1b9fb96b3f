import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { toast, toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import type { PublicProfile } from './api';
import { BLOCKS_QUERY, setBlocked } from './blocks';
import { FOLLOWS_QUERY, setFollowed } from './follows';

/** The query key of a member's profile (`member/profile`). */
const profileKey = (id: string) => ['member/profile', id];

/**
 * Following and unfollowing, as every page does it: unfollowing asks first; the change then reaches the member's
 * profile (its `followed` and fan count), the follow lists and the signed-in member's own counts (`member/info`).
 * Resolves with whether the member is followed now, or undefined when nothing changed (cancelled, or refused with
 * the refusal shown).
 */
export function useFollow(): (id: string, follow: boolean) => Promise<boolean | undefined> {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const token = user?.token;
  return useCallback(
    async (id, follow) => {
      if (!follow) {
        const sure = await Dialog.confirm({
          content: t('follows.unfollowConfirm'),
          confirmText: t('follows.unfollow'),
          cancelText: t('common.cancel'),
        });
        if (!sure) return undefined;
      }
      try {
        const now = await setFollowed(id, follow, { token, locale: i18n.language });
        queryClient.setQueryData<PublicProfile>(
          profileKey(id),
          (old) => old && { ...old, followed: now.followed, fans: now.fans },
        );
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: [FOLLOWS_QUERY] }),
          queryClient.invalidateQueries({ queryKey: ['member/info'] }),
        ]);
        toast(now.followed ? t('follows.followedToast') : t('follows.unfollowedToast'));
        return now.followed;
      } catch (error) {
        toastError(errorText(error, t));
        return undefined;
      }
    },
    [t, i18n.language, token, queryClient],
  );
}

/** A profile as a block (or unblock) leaves it: blocking also ends the signed-in member's follow of them. */
export function afterBlock(profile: PublicProfile, blocked: boolean): PublicProfile {
  if (!blocked || profile.followed !== true) return { ...profile, blocked };
  return { ...profile, blocked, followed: false, fans: Math.max(0, (profile.fans ?? 0) - 1) };
}

/**
 * Blocking and unblocking, as every page does it (spec §2 member/lahei): the change reaches the member's profile,
 * the block list and, since a block ends the follows between the two, the follow lists and the signed-in member's
 * own counts. Resolves with whether the member is blocked now, or undefined when refused (the refusal shown).
 */
export function useBlock(): (id: string, block: boolean) => Promise<boolean | undefined> {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const token = user?.token;
  return useCallback(
    async (id, block) => {
      try {
        const now = await setBlocked(id, block, { token, locale: i18n.language });
        // A block ends the follows between the two: the profile shows it at once, before its refetch answers.
        queryClient.setQueryData<PublicProfile>(profileKey(id), (old) => old && afterBlock(old, now));
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: profileKey(id) }),
          queryClient.invalidateQueries({ queryKey: [BLOCKS_QUERY] }),
          queryClient.invalidateQueries({ queryKey: [FOLLOWS_QUERY] }),
          queryClient.invalidateQueries({ queryKey: ['member/info'] }),
        ]);
        toast(now ? t('blocks.blockedToast') : t('blocks.unblockedToast'));
        return now;
      } catch (error) {
        toastError(errorText(error, t));
        return undefined;
      }
    },
    [t, i18n.language, token, queryClient],
  );
}
