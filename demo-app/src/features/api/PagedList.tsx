import { Button, ErrorBlock } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { errorText } from './errors';
import type { usePagedList } from './paged';

/**
 * A list read a page at a time ({@link usePagedList}'s), as every such page shows it: loading, an error with a retry
 * before anything came, `empty` when there is nothing, else `children` of the items; then, while there is more, the
 * button for the next page, with the error of a next page that failed.
 */
export function PagedList<T extends { id: string }>({
  list: { query, items },
  empty,
  children,
}: {
  list: ReturnType<typeof usePagedList<T>>;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError && items.length === 0 ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : items.length === 0 ? (
        empty
      ) : (
        children(items)
      )}
      {query.hasNextPage && (
        <div className="page-actions">
          {query.isFetchNextPageError && <p className="paged-more-error">{errorText(query.error, t)}</p>}
          <Button block loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('feedback.more')}
          </Button>
        </div>
      )}
    </>
  );
}
