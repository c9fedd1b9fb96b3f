import { Avatar, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useThumbnail } from '../api/thumbnail';
import type { RoomSummary } from './api';

/** A room in the list: its cover with Live or Not started, the title, the anchor and how many watch; opens the room. */
export function RoomCard({ room }: { room: RoomSummary }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const thumb = useThumbnail();
  const live = room.status === 1;
  return (
    <button
      type="button"
      className="live-card"
      data-testid="live-room"
      onClick={() => open(`live/view?id=${encodeURIComponent(room.id)}`)}
    >
      <span className="live-card-cover">
        <img src={thumb(room.cover, 180)} alt="" loading="lazy" />
        <Tag className="live-card-badge" color={live ? 'danger' : 'default'}>
          {live ? t('live.badgeLive') : t('live.badgeNotStarted')}
        </Tag>
        <span className="live-card-viewers">{t('live.viewers', { count: room.viewers })}</span>
      </span>
      <span className="live-card-title">{room.title}</span>
      <span className="live-card-anchor">
        <Avatar src={thumb(room.anchor.img, 20)} style={{ '--size': '20px', '--border-radius': '50%' }} />
        <span>{room.anchor.username || t('im.user', { id: room.anchor.id })}</span>
      </span>
    </button>
  );
}
