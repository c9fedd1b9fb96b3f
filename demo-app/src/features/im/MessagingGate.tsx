import { Button, ErrorBlock } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessaging } from '../../app/messaging';
import { useAppConfig } from '../api/config';
import { DelayedLoading } from '../../ui/DelayedLoading';

/**
 * Shows `children` once the messaging client is there. Until then: loading while the config loads; if the config
 * call failed, that failure with a retry; if the config names no messaging app, that messaging is not available.
 */
export function MessagingGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { available } = useMessaging();
  const config = useAppConfig();
  if (available) return <>{children}</>;
  if (config.isError) {
    return (
      <ErrorBlock
        className="chat-state"
        status="disconnected"
        title={t('im.configFailed')}
        description={t('common.noNetwork')}
      >
        <Button color="primary" loading={config.isFetching} onClick={() => void config.refetch()}>
          {t('common.retry')}
        </Button>
      </ErrorBlock>
    );
  }
  if (config.data && !config.data.im.appkey) {
    return <ErrorBlock className="chat-state" status="default" title={t('im.unavailable')} description="" />;
  }
  return <DelayedLoading />;
}
