import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, ErrorBlock, List, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { NOTICE_SETTINGS_QUERY, noticeSettings, type NoticeSettings } from '../../features/member/notices';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';

/** The notifications a member may switch off, in the order the page shows them. */
const SETTABLE = ['follow', 'comment', 'like'] as const satisfies ReadonlyArray<keyof NoticeSettings>;

/**
 * Notification settings (spec §2 member/sz-notify): whether new followers, comments on the member's content and likes
 * of it notify the member. System notifications (the review of their certification) always do.
 */
export default function NotificationSettings() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<keyof NoticeSettings | undefined>(undefined);
  const context = { token: user?.token, locale: i18n.language };
  const query = useQuery({
    queryKey: [NOTICE_SETTINGS_QUERY, user?.id],
    queryFn: () => noticeSettings({}, context),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;

  const change = async (kind: keyof NoticeSettings, on: boolean) => {
    setSaving(kind);
    try {
      const now = await noticeSettings({ [kind]: on }, context);
      queryClient.setQueryData<NoticeSettings>([NOTICE_SETTINGS_QUERY, user.id], now);
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('notify.settingsTitle')} />
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : (
        <List>
          {SETTABLE.map((kind) => (
            <List.Item
              key={kind}
              description={t(`notify.${kind}Hint`)}
              extra={
                <Switch
                  aria-label={t(`notify.${kind}`)}
                  checked={query.data[kind]}
                  loading={saving === kind}
                  disabled={saving !== undefined && saving !== kind}
                  onChange={(on) => void change(kind, on)}
                />
              }
            >
              {t(`notify.${kind}`)}
            </List.Item>
          ))}
          <List.Item
            description={t('notify.systemHint')}
            extra={<Switch aria-label={t('notify.system')} checked disabled />}
          >
            {t('notify.system')}
          </List.Item>
        </List>
      )}
    </div>
  );
}
