import { Avatar, Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { BLOCKS_QUERY, blockedPage } from '../../features/member/blocks';
import { useBlock } from '../../features/member/relations';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';

/**
 * Block list (spec §2 member/lahei): the members I blocked, newest first, twenty at a time, each with a button to
 * unblock. A member who has cancelled their account shows by id.
 */
export default function BlockList() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const { query, items } = usePagedList(
    [BLOCKS_QUERY, user?.id],
    (before) => blockedPage(before, context),
    user !== null,
  );
  const changeBlock = useBlock();
  if (!user) return null;

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
                <Button size="small" onClick={() => void changeBlock(member.id, false)}>
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
