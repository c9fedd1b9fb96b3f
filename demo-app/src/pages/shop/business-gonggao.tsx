import { Badge, ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { ANNOUNCEMENTS_QUERY, announcementPage, type AnnouncementItem } from '../../features/shop/announcements';
import { NavBar } from '../../ui/NavBar';
import '../../features/shop/announcements.css';

/** One announcement of the list: a dot while unread, the pinned tag, its title, summary and date. */
function AnnouncementLine({ item }: { item: AnnouncementItem }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  return (
    <List.Item
      data-testid="announcement"
      onClick={() => open(`shop/business-gonggao-view?id=${encodeURIComponent(item.id)}`)}
    >
      <div className="announcement-line">
        <div className="announcement-title">
          {!item.read && (
            <span role="img" aria-label={t('announcement.unread')}>
              <Badge content={Badge.dot} />
            </span>
          )}
          {item.pinned && <Tag color="danger">{t('announcement.pinned')}</Tag>}
          <span className="announcement-title-text">{item.title}</span>
        </div>
        <div className="announcement-summary">{item.summary}</div>
        <div className="announcement-date">{new Date(item.created_at).toLocaleDateString(i18n.language)}</div>
      </div>
    </List.Item>
  );
}

/**
 * Announcements (spec §2 shop/business-gonggao): the operator's announcements to sellers from `shop/gonggao_list`,
 * pinned first, then the newest, twenty at a time, those not read yet marked with a dot.
 */
export default function AnnouncementsPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const list = usePagedList(
    [ANNOUNCEMENTS_QUERY, user?.id],
    (before) => announcementPage(before, { token: user?.token, locale: i18n.language }),
    user !== null,
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('announcement.title')} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('announcement.none')} description="" />}>
        {(items) => (
          <List>
            {items.map((item) => (
              <AnnouncementLine key={item.id} item={item} />
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
