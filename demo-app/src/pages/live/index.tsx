import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, ErrorBlock, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { LIVE_LIMITS, LIVE_QUERY, roomPage, type RoomSummary } from '../../features/live/api';
import { RoomCard } from '../../features/live/RoomCard';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import '../member/feedback.css';
import '../../features/live/live.css';

/** Rooms of all pages, each once: a room that started meanwhile moves up and may come again on a later page. */
function distinct(pages: readonly RoomSummary[][]): RoomSummary[] {
  const seen = new Set<string>();
  return pages.flat().filter((room) => !seen.has(room.id) && seen.add(room.id));
}

/**
 * Live rooms (spec §2 live/index): those live now, newest start first, then those not started, twenty a page as the
 * member scrolls; pulled down to refresh. "Go live" opens the anchor's page (live/a1).
 */
export default function LiveRooms() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const query = useInfiniteQuery({
    queryKey: [LIVE_QUERY, 'list', user?.id],
    queryFn: ({ pageParam }) => roomPage(pageParam, context),
    initialPageParam: 1,
    getNextPageParam: (last: RoomSummary[], pages) =>
      last.length < LIVE_LIMITS.pageSize ? undefined : pages.length + 1,
    enabled: user !== null,
    retry: false,
  });
  const rooms = distinct(query.data?.pages ?? []);

  const more = async () => {
    const next = await query.fetchNextPage();
    // InfiniteScroll shows its retry when the load throws.
    if (next.isFetchNextPageError) throw next.error;
  };

  let body;
  if (query.isPending) {
    body = <DelayedLoading />;
  } else if (query.isError && rooms.length === 0) {
    body = (
      <ErrorBlock status="default" title={errorText(query.error, t)} description="">
        <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
      </ErrorBlock>
    );
  } else if (rooms.length === 0) {
    body = <ErrorBlock status="empty" title={t('live.none')} description="" />;
  } else {
    body = (
      <>
        <div className="live-grid">
          {rooms.map((room) => (
            <RoomCard key={room.id} room={room} />
          ))}
        </div>
        <InfiniteScroll loadMore={more} hasMore={query.hasNextPage} />
      </>
    );
  }

  if (!user) return null;
  return (
    <div className="page">
      <NavBar
        title={t('live.title')}
        right={
          <button type="button" className="feedback-mine" onClick={() => open('live/a1')}>
            {t('live.goLive')}
          </button>
        }
      />
      <PullToRefresh onRefresh={async () => void (await query.refetch())}>{body}</PullToRefresh>
    </div>
  );
}
