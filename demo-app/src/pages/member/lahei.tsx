import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import type { PublicProfile } from '../../features/member/api';
import { BLOCKS_QUERY, blockedPage, setBlocked, type BlockedMember } from '../../features/member/blocks';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';

/** A page of `member/lahei_list` holds this many; a shorter one is the last. */
const PAGE_SIZE = 20;

/**
 * Block list (spec §2 member/lahei): the members I blocked, newest first, twenty at a time, each with a button to
 * unblock. A member who has cancelled their account shows by id.
 */
export default function BlockList() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const query = useInfiniteQuery({
    queryKey: [BLOCKS_QUERY, user?.id],
    queryFn: ({ pageParam }) => blockedPage(pageParam, context),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: BlockedMember[]) => (last.length < PAGE_SIZE ? undefined : last.at(-1)?.id),
    enabled: user !== null,
  });
  if (!user) return null;
  const items = query.data?.pages.flat() ?? [];

  const unblock = async (member: BlockedMember) => {
    try {
      await setBlocked(member.id, false, context);
      await queryClient.invalidateQueries({ queryKey: [BLOCKS_QUERY] });
      queryClient.setQueryData<PublicProfile>(
        ['member/profile', member.id],
        (old) => old && { ...old, blocked: false },
      );
      toast(t('blocks.unblockedToast'));
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  return (
    <div className="page">
      <NavBar title={t('blocks.title')} />
      {query.isPending ? (
        <DelayedLoading />
      ) : query.isError && items.length === 0 ? (
        <ErrorBlock status="default" title={errorText(query.error, t)} description="">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </ErrorBlock>
      ) : items.length === 0 ? (
        <ErrorBlock status="empty" title={t('blocks.none')} description={t('blocks.noneHint')} />
      ) : (
        <List>
          {items.map((member) => (
            <List.Item
              key={member.id}
              prefix={<Avatar src={member.img} style={{ '--size': '40px', '--border-radius': '50%' }} />}
              extra={
                <Button size="small" onClick={() => void unblock(member)}>
                  {t('blocks.unblock')}
                </Button>
              }
              data-testid="blocked-member"
            >
              {member.username || t('im.user', { id: member.id })}
            </List.Item>
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
    </div>
  );
}
