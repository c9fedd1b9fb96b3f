import { Avatar, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { CIRCLE_QUERY } from '../../features/circle/posts';
import { ARTICLES_QUERY, likerPage, reactionKindOf } from '../../features/content/articles';
import { NavBar } from '../../ui/NavBar';

/**
 * Who liked an article (spec §2 article/ping-zan, param `id`), or a circle post (`type=quanzi`), newest first, each
 * opening their home.
 */
export default function Likes() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const kind = reactionKindOf(params.get('type'));
  const list = usePagedList(
    [kind === 'quanzi' ? CIRCLE_QUERY : ARTICLES_QUERY, user?.id ?? null, 'likes', id],
    (before) => likerPage(kind, id, before, { token: user?.token, locale: i18n.language }),
    id !== '',
  );
  return (
    <div className="page">
      <NavBar title={t('article.likesTitle')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('article.noLikes')} description="" />}>
        {(items) => (
          <List>
            {items.map((member) => (
              <List.Item
                key={member.id}
                data-testid="liker"
                prefix={<Avatar src={member.img} style={{ '--size': '40px', '--border-radius': '50%' }} />}
                onClick={() => open(`user/home?id=${encodeURIComponent(member.id)}`)}
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
