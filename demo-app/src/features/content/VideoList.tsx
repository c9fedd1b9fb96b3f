import { Avatar, ErrorBlock, List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../api/paged';
import { PagedList } from '../api/PagedList';
import { useThumbnail } from '../api/thumbnail';
import { ARTICLES_QUERY } from './articles';
import { videoPage, type VideoCard } from './videos';
import './articles.css';
import { Hideable } from './Hideable';

/**
 * One video in the video tab: its cover with a play mark, opening the short-video feed at it (svideo/index); title,
 * author and counts, opening the video's page.
 */
export function VideoLine({ video, hide }: { video: VideoCard; hide?: ReactNode }) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const thumb = useThumbnail();
  const name = video.author.username || t('im.user', { id: video.author.id });
  return (
    <List.Item
      data-testid="video"
      onClick={() => open(`video/view?id=${encodeURIComponent(video.id)}`)}
      description={
        <div className="article-card">
          <button
            type="button"
            className="video-cover"
            aria-label={t('video.play')}
            onClick={(event) => {
              // The cover plays the video full screen among the others; the rest of the line opens its page.
              event.stopPropagation();
              open(`svideo/index?id=${encodeURIComponent(video.id)}`);
            }}
          >
            <img src={thumb(video.video.cover, 120)} alt="" loading="lazy" />
            <span className="video-play" aria-hidden>
              ▶
            </span>
          </button>
          <div className="article-meta">
            <Avatar src={thumb(video.author.img, 20)} style={{ '--size': '20px', '--border-radius': '50%' }} />
            <span>{name}</span>
            <span className="article-counts">
              {t('article.likes', { count: video.likes })} · {t('article.comments', { count: video.comments })}
            </span>
            {hide}
          </div>
        </div>
      }
    >
      <span className="article-title">{video.title}</span>
    </List.Item>
  );
}

/**
 * Videos newest first, twenty at a time, pulled down to refresh: everyone's, one channel's (`channel`), or those
 * holding `keyword`; a member sees nothing across a block, nor what they hid ("Not interested" on another's video).
 */
export function VideoList({ channel, keyword, empty }: { channel?: string; keyword?: string; empty: ReactNode }) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [ARTICLES_QUERY, user?.id ?? null, 'videos', channel ?? null, keyword ?? null],
    (before) =>
      videoPage(
        {
          ...(channel !== undefined && { typeid: channel }),
          ...(keyword !== undefined && { keyword }),
          before,
        },
        context,
      ),
    true,
  );
  return (
    <PagedList list={list} empty={<ErrorBlock status="empty" title={empty} description="" />}>
      {(items) => (
        <List>
          {items.map((video) => (
            <Hideable key={video.id} name="video" id={video.id} enabled={video.author.id !== user?.id}>
              {(hide) => <VideoLine video={video} hide={hide} />}
            </Hideable>
          ))}
        </List>
      )}
    </PagedList>
  );
}
