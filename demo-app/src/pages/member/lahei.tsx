import { Avatar, Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { BLOCKS_QUERY, blockedPage } from '../../features/member/blocks';
import { useBlock } from '../../features/member/relations';
import { NavBar } from '../../ui/NavBar';

/**
 * Block list (spec §2 member/lahei): the members I blocked, newest first, twenty at a time, each with a button to
 * unblock. A member who has cancelled their account shows by id.
 */
export default function BlockList() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList([BLOCKS_QUERY, user?.id], (before) => blockedPage(before, context), user !== null);
  const changeBlock = useBlock();
  if (!user) return null;

  return (
    <div className="page">
      <NavBar title={t('blocks.title')} />
      <PagedList
        list={list}
        empty={<ErrorBlock status="empty" title={t('blocks.none')} description={t('blocks.noneHint')} />}
      >
        {(items) => (
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
      </PagedList>
    </div>
  );
}
