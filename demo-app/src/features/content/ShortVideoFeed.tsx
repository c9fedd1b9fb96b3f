import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useThrottled } from '../../ui/useThrottled';
import { Avatar, Button, ErrorBlock } from 'antd-mobile';
import {
  HeartFill,
  LeftOutline,
  MessageFill,
  PlayOutline,
  SoundMuteOutline,
  SoundOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH, useClosePage, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { toastError } from '../../ui/toast';
import { errorText } from '../api/errors';
import { usePagedList } from '../api/paged';
import { ARTICLES_QUERY, articleView, like, type ArticleCard, type ArticleCounts, type ArticleVideo } from './articles';
import { videoPage } from './videos';
import { defaultSource } from './VideoPlayer';
import './short-video.css';

/** One video of the feed: what its slide shows. */
type ShortVideo = Pick<ArticleCard, 'id' | 'title' | 'author' | keyof ArticleCounts> & { video: ArticleVideo };

/** How many slides on each side of the one playing keep their player, so that the next starts at once. */
const PRELOAD = 1;
/** The next page is asked for when the one playing is this close to the last loaded. */
const FETCH_AHEAD = 3;

/**
 * One full-screen slide: the player (the cover while far from the one playing), the author opening their home, the
 * title, and the buttons: like (a visitor is sent to sign in), the comments, the video's page, and the sound.
 */
function Slide({
  video,
  active,
  near,
  muted,
  onMute,
  onLiked,
}: {
  video: ShortVideo;
  active: boolean;
  near: boolean;
  muted: boolean;
  onMute: () => void;
  onLiked: (id: string, counts: ArticleCounts) => void;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const player = useRef<HTMLVideoElement>(null);
  const [paused, setPaused] = useState(false);
  const [busy, setBusy] = useState(false);

  // The slide in view plays from where it was; the others stop, so that one sound plays at a time.
  useEffect(() => {
    const element = player.current;
    if (!element) return;
    if (active) {
      setPaused(false);
      // A browser may refuse to play (no gesture yet, sound on): the slide then shows it is paused.
      Promise.resolve(element.play()).catch(() => setPaused(true));
    } else {
      element.pause();
    }
  }, [active, near]);

  const togglePlay = () => {
    const element = player.current;
    if (!element) return;
    if (element.paused) {
      setPaused(false);
      Promise.resolve(element.play()).catch(() => setPaused(true));
    } else {
      element.pause();
      setPaused(true);
    }
  };

  const toggleLike = useThrottled(async () => {
    if (!user) return open(LOGIN_PATH);
    setBusy(true);
    try {
      onLiked(video.id, await like('article', video.id, !video.liked, { token: user.token, locale: i18n.language }));
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
  });

  const target = encodeURIComponent(video.id);
  const name = video.author.username || t('im.user', { id: video.author.id });
  return (
    <section className="svideo-slide" data-testid="svideo" aria-label={video.title} aria-current={active}>
      {near ? (
        <video
          ref={player}
          className="svideo-player"
          data-testid="svideo-player"
          src={defaultSource(video.video.sources ?? [])?.url ?? video.video.url}
          poster={video.video.cover}
          loop
          playsInline
          muted={muted}
          preload={active ? 'auto' : 'metadata'}
          onClick={togglePlay}
        />
      ) : (
        <img className="svideo-player" src={video.video.cover} alt="" loading="lazy" />
      )}
      {active && paused && (
        <button type="button" className="svideo-paused" aria-label={t('video.play')} onClick={togglePlay}>
          <PlayOutline aria-hidden />
        </button>
      )}
      <div className="svideo-info">
        <button
          type="button"
          className="svideo-author"
          onClick={() => open(`user/home?id=${encodeURIComponent(video.author.id)}`)}
        >
          <Avatar src={video.author.img} style={{ '--size': '32px', '--border-radius': '50%' }} />
          <span>@{name}</span>
        </button>
        <p className="svideo-title">{video.title}</p>
      </div>
      <div className="svideo-actions">
        <button
          type="button"
          aria-label={video.liked ? t('article.liked') : t('article.like')}
          aria-pressed={video.liked}
          className={video.liked ? 'svideo-liked' : undefined}
          disabled={busy}
          onClick={() => void toggleLike()}
        >
          <HeartFill aria-hidden />
          <small data-testid="svideo-likes">{video.likes}</small>
        </button>
        <button type="button" aria-label={t('svideo.comments')} onClick={() => open(`article/ping?id=${target}`)}>
          <MessageFill aria-hidden />
          <small data-testid="svideo-comments">{video.comments}</small>
        </button>
        <button type="button" aria-label={t('svideo.details')} onClick={() => open(`video/view?id=${target}`)}>
          <UnorderedListOutline aria-hidden />
        </button>
        <button type="button" aria-label={muted ? t('svideo.soundOn') : t('svideo.soundOff')} onClick={onMute}>
          {muted ? <SoundMuteOutline aria-hidden /> : <SoundOutline aria-hidden />}
        </button>
      </div>
    </section>
  );
}

/**
 * Videos full screen, one at a time, swiped up for the next (spec §2 svideo/index, param `id`): the video `id`
 * first, then the ones published before it, newest first, loaded a page ahead; without `id`, the newest. The one in
 * view plays, looping, its neighbours' players loaded and paused; the others show their covers. Sound starts off, as
 * browsers allow only a muted video to start by itself; the button turns it on for every slide. The arrow keys, Page
 * Up and Page Down move between slides too.
 */
export function ShortVideoFeed({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const feed = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [muted, setMuted] = useState(true);
  const [liked, setLiked] = useState<Record<string, ArticleCounts>>({});
  const context = { token: user?.token, locale: i18n.language };
  const first = useQuery({
    queryKey: [ARTICLES_QUERY, user?.id ?? null, 'view', id],
    queryFn: () => articleView(id, context),
    enabled: id !== '',
    retry: false,
  });
  const rest = usePagedList(
    [ARTICLES_QUERY, user?.id ?? null, 'videos', 'before', id],
    (before) => videoPage({ before: before ?? (id === '' ? undefined : id) }, context),
    true,
  );
  const opened = first.data?.video ? [{ ...first.data, video: first.data.video }] : [];
  const videos: ShortVideo[] = [...opened, ...rest.items.filter((item) => item.id !== id)].map((video) => ({
    ...video,
    ...liked[video.id],
  }));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = rest.query;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && active >= videos.length - FETCH_AHEAD) void fetchNextPage();
  }, [active, videos.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onScroll = () => {
    const element = feed.current;
    if (!element || element.clientHeight === 0) return;
    setActive(Math.round(element.scrollTop / element.clientHeight));
  };

  const go = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(index, videos.length - 1));
      setActive(next);
      feed.current?.children[next]?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    },
    [videos.length],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowDown: 1, PageDown: 1, ArrowUp: -1, PageUp: -1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    go(active + step);
  };

  const onLiked = (videoId: string, counts: ArticleCounts) => {
    setLiked((old) => ({ ...old, [videoId]: counts }));
    // The lists and pages that count likes read them again when next shown; this feed keeps its own.
    void queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY], refetchType: 'none' });
  };

  const loading = (id !== '' && first.isPending) || rest.query.isPending;
  // Nothing to show because the list could not be read: its error and a retry, not "no videos".
  const failed = rest.query.isError;
  return (
    <div className="svideo-page">
      <button type="button" className="svideo-back" aria-label={t('common.back')} onClick={close}>
        <LeftOutline aria-hidden />
      </button>
      {loading ? (
        <DelayedLoading />
      ) : videos.length === 0 ? (
        <ErrorBlock
          className="svideo-empty"
          status="empty"
          title={failed ? errorText(rest.query.error, t) : t('video.none')}
          description=""
        >
          {failed && <Button onClick={() => void rest.query.refetch()}>{t('common.retry')}</Button>}
        </ErrorBlock>
      ) : (
        <div
          ref={feed}
          className="svideo-feed"
          role="feed"
          aria-label={t('svideo.title')}
          aria-busy={isFetchingNextPage}
          tabIndex={0}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
        >
          {videos.map((video, index) => (
            <Slide
              key={video.id}
              video={video}
              active={index === active}
              near={Math.abs(index - active) <= PRELOAD}
              muted={muted}
              onMute={() => setMuted((old) => !old)}
              onLiked={onLiked}
            />
          ))}
        </div>
      )}
    </div>
  );
}
