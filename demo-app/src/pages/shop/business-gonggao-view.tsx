import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Tag } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { SHOP_QUERY } from '../../features/shop/api';
import {
  ANNOUNCEMENTS_QUERY,
  paragraphsOf,
  readAnnouncement,
  type Announcement,
} from '../../features/shop/announcements';
import { NavBar } from '../../ui/NavBar';
import '../../features/shop/announcements.css';

/** The announcement's title, dates and content, a paragraph a line, all as text (never as markup). */
function AnnouncementBody({ announcement }: { announcement: Announcement }) {
  const { t, i18n } = useTranslation();
  const date = (ms: number) => new Date(ms).toLocaleDateString(i18n.language);
  return (
    <article className="announcement-page">
      <h1>{announcement.title}</h1>
      <div className="announcement-date">
        {announcement.pinned && <Tag color="danger">{t('announcement.pinned')}</Tag>} {date(announcement.created_at)}
        {date(announcement.updated_at) !== date(announcement.created_at) &&
          ` · ${t('announcement.updated', { date: date(announcement.updated_at) })}`}
      </div>
      {paragraphsOf(announcement.content).map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </article>
  );
}

/**
 * An announcement (spec §2 shop/business-gonggao-view, param id): read with `shop/gonggao_view`, which marks it read;
 * then the list's dots and My shop's unread count read again.
 */
export default function AnnouncementPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [ANNOUNCEMENTS_QUERY, user?.id, 'view', id],
    queryFn: () => readAnnouncement(id, { token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  const read = query.isSuccess;
  useEffect(() => {
    if (!read) return;
    void queryClient.invalidateQueries({ queryKey: [ANNOUNCEMENTS_QUERY, user?.id], exact: true });
    void queryClient.invalidateQueries({ queryKey: [SHOP_QUERY] });
  }, [read, queryClient, user?.id]);
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('announcement.viewTitle')} />
      <QueryView query={query}>{(announcement) => <AnnouncementBody announcement={announcement} />}</QueryView>
    </div>
  );
}
