import { useQuery } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { ApiError } from '../api/request';
import { memberInfo } from './api';

/**
 * Keeps the signed-in user fresh from `member/info` (notification badge, messaging otp) at start and on each app
 * show; an expired session shows the "account expired" alert and clears the session (spec §4).
 */
export function useMemberSync(): void {
  const { user, refresh, signOut } = useSession();
  const { t, i18n } = useTranslation();
  const token = user?.token;
  const info = useQuery({
    queryKey: ['member/info', token],
    queryFn: () => memberInfo({ token, locale: i18n.language }),
    enabled: token !== undefined,
    retry: (count, error) => !(error instanceof ApiError && error.code !== 'network') && count < 2,
    refetchOnWindowFocus: true,
  });

  useEffect(() => {
    if (info.data) refresh(info.data.user, info.data.otp);
  }, [info.data, refresh]);

  const expired = info.error instanceof ApiError && info.error.code === 'token_invalid';
  useEffect(() => {
    if (!expired) return;
    signOut();
    void Dialog.alert({
      title: t('common.accountExpired'),
      content: t('common.accountExpiredBody'),
      confirmText: t('common.ok'),
    });
  }, [expired, signOut, t]);
}
