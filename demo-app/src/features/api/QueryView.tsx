import type { UseQueryResult } from '@tanstack/react-query';
import { Button, ErrorBlock } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { errorText } from './errors';

/**
 * A page's data as every page shows it: loading (after the spec's delay), the error with a retry, else `children` of
 * the data.
 */
export function QueryView<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  if (query.isPending) return <DelayedLoading />;
  if (query.isError) {
    return (
      <ErrorBlock status="default" title={errorText(query.error, t)} description="">
        <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
      </ErrorBlock>
    );
  }
  return <>{children(query.data)}</>;
}
