import { Avatar, ErrorBlock, List } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../api/paged';
import { PagedList } from '../api/PagedList';
import { useThumbnail } from '../api/thumbnail';
import { relativeTime } from '../im/time';
import { useNow } from '../im/useNow';
import { ARTICLES_QUERY, articlePage, collectionPage, imageGridClass, type ArticleCard } from './articles';
import { Hideable } from './Hideable';
import { VideoLine } from './VideoList';
import './articles.css';

/** One article in a feed: title, summary, up to three images, the author and when; it opens the article. */
function ArticleLine({ article, now, hide }: { article: ArticleCard; now: number; hide?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const thumb = useThumbnail();
  const name = article.author.username || t('im.user', { id: article.author.id });
  const width = article.imgs.length === 1 ? 240 : 120;
  return (
    <List.Item
      data-testid="article"
      onClick={() => open(`article/view?id=${encodeURIComponent(article.id)}`)}
      description={
        <div className="article-card">
          <p className="article-summary">{article.summary}</p>
          {article.imgs.length > 0 && (
            <div className={imageGridClass(article.imgs.length)}>
              {article.imgs.map((url) => (
                <img key={url} src={thumb(url, width)} alt="" loading="lazy" />
              ))}
            </div>
          )}
          <div className="article-meta">
            <Avatar src={thumb(article.author.img, 20)} style={{ '--size': '20px', '--border-radius': '50%' }} />
            <span>{name}</span>
            <span>{relativeTime(article.created_at, now, t, i18n.language)}</span>
            <span className="article-counts">
              {t('article.likes', { count: article.likes })} · {t('article.comments', { count: article.comments })}
            </span>
            {hide}
          </div>
        </div>
      }
    >
      <span className="article-title">{article.title}</span>
    </List.Item>
  );
}

/**
 * A feed of articles, newest first, twenty at a time: everyone's, one member's (`uid`), one channel's (`channel`),
 * those holding `keyword`, or the signed-in member's collection (`collection`, the latest collected first), where a
 * collected video shows as in the video tab and opens the video page. Visitors see everything; a member sees nothing
 * of members one of the two has blocked, nor what they hid from the feeds ("Not interested" on another's article).
 */
export function ArticleList({
  uid,
  channel,
  keyword,
  collection = false,
  empty,
}: {
  uid?: string;
  channel?: string;
  keyword?: string;
  collection?: boolean;
  empty: ReactNode;
}) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const now = useNow();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [ARTICLES_QUERY, user?.id ?? null, collection ? 'collection' : (uid ?? null), channel ?? null, keyword ?? null],
    (before) =>
      collection
        ? collectionPage(before, context)
        : articlePage(
            {
              ...(uid !== undefined && { uid }),
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
          {items.map((article) =>
            article.video ? (
              <VideoLine key={article.id} video={{ ...article, video: article.video }} />
            ) : (
              // In a feed, not on a member's page or the collection: another's article may be hidden.
              <Hideable
                key={article.id}
                name="article"
                id={article.id}
                enabled={uid === undefined && !collection && article.author.id !== user?.id}
              >
                {(hide) => <ArticleLine article={article} now={now} hide={hide} />}
              </Hideable>
            ),
          )}
        </List>
      )}
    </PagedList>
  );
}
