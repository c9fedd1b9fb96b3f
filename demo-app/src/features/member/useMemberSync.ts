import { useQuery } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { isRefusal } from '../api/request';
import { memberInfo } from './api';

/**
 * Keeps the signed-in user fresh from `member/info` (notification badge, messaging otp) at start and on each app
 * show. Any `err` answer means the session is over (spec §4, §7): the "account expired" alert shows and the session
 * is cleared. A call that fails on the way (no network, timeout) keeps the session.
 */
export function useMemberSync(): void {
  const { user, refresh, signOut } = useSession();
  const { t, i18n } = useTranslation();
  const token = user?.token;
  const info = useQuery({
    queryKey: ['member/info', token],
    queryFn: () => memberInfo({ token, locale: i18n.language }),
    enabled: token !== undefined,
    retry: (count, error) => !isRefusal(error) && count < 2,
    refetchOnWindowFocus: true,
  });

  useEffect(() => {
    if (info.data) refresh(info.data.user, info.data.otp);
  }, [info.data, refresh]);

  const expired = isRefusal(info.error);
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
