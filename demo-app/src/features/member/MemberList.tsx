import { Button, ErrorBlock, List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { errorText } from '../api/errors';
import type { usePagedList } from '../api/paged';
import type { FollowedMember } from './follows';
import { MemberLine } from './MemberLine';

/**
 * A paged list of members ({@link usePagedList}'s): loading, an error with a retry, `empty` when there is no one,
 * else a {@link MemberLine} each and a button for the next page.
 */
export function MemberList({
  list: { query, items },
  empty,
  ownFans = false,
}: {
  list: ReturnType<typeof usePagedList<FollowedMember>>;
  empty: ReactNode;
  ownFans?: boolean;
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
        <List>
          {items.map((member) => (
            <MemberLine key={member.id} member={member} ownFans={ownFans} />
          ))}
        </List>
      )}
      {query.hasNextPage && (
        <div className="page-actions">
          <Button block loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {t('feedback.more')}
          </Button>
        </div>
      )}
    </>
  );
}
