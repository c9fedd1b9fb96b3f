import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { AnchorPanel } from '../../features/live/AnchorPanel';
import { LIVE_QUERY, myLive, type MyLive, type RoomSummary } from '../../features/live/api';
import { NewRoomForm } from '../../features/live/NewRoomForm';
import { NavBar } from '../../ui/NavBar';
import '../member/feedback.css';
import '../../features/shop/products.css';
import '../../features/live/live.css';

/** The anchor's ended rooms, newest first, each opening its page. */
function EndedRooms({ rooms }: { rooms: RoomSummary[] }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  if (rooms.length === 0) return null;
  return (
    <List header={t('live.endedRooms')}>
      {rooms.map((room) => (
        <List.Item
          key={room.id}
          data-testid="live-ended"
          prefix={<img className="product-thumb" src={room.cover} alt="" />}
          description={new Date(room.started_at ?? room.created_at).toLocaleString(i18n.language)}
          onClick={() => open(`live/view?id=${encodeURIComponent(room.id)}`)}
        >
          {room.title}
        </List.Item>
      ))}
    </List>
  );
}

/** What the anchor's page shows for where they stand. */
function MyLiveState({ live }: { live: MyLive }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const changed = () => queryClient.invalidateQueries({ queryKey: [LIVE_QUERY] });
  // Without live streaming on the server, a room opened before can still be ended.
  return (
    <>
      {!live.enabled && (
        <ErrorBlock status="default" title={t('errors.live_unavailable')} description={t('live.unavailableHint')} />
      )}
      {live.room ? (
        <AnchorPanel room={live.room} onChanged={changed} />
      ) : (
        live.enabled && <NewRoomForm onCreated={changed} />
      )}
      <EndedRooms rooms={live.ended} />
    </>
  );
}

/**
 * The anchor's page (spec §2 live/a1): their open room with where to send the stream, Start and End, the goods and a
 * way into the room; else the form for a new room (a certified member only: the server says so, and the page offers
 * certification). On a server without live streaming, it says so.
 */
export default function MyLivePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const query = useQuery({
    queryKey: [LIVE_QUERY, 'mine', user?.id],
    queryFn: () => myLive({ token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('live.myLive')} />
      <QueryView query={query}>{(live) => <MyLiveState live={live} />}</QueryView>
    </div>
  );
}
