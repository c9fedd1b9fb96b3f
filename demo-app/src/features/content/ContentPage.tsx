import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useThrottled } from '../../ui/useThrottled';
import { Avatar, Button, Dialog, ErrorBlock, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useState } from 'react';
import { LOGIN_PATH, useClosePage, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { isRefusal } from '../../features/api/request';
import { QueryView } from '../../features/api/QueryView';
import {
  ARTICLES_QUERY,
  articleView,
  collectArticle,
  deleteArticle,
  like,
  type Article,
} from '../../features/content/articles';
import { ReportSheet } from '../../features/content/ReportSheet';
import { VideoPlayer } from '../../features/content/VideoPlayer';
import { relativeTime } from '../../features/im/time';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/content/articles.css';
import '../../pages/member/feedback.css';

/**
 * The article's likes and comments: the like button (a visitor is asked to sign in), the count of likes opening who
 * liked it (article/ping-zan), and the comments (article/ping).
 */
function ReactionBar({ article }: { article: Article }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const toggle = useThrottled(async () => {
    if (!user) return open(LOGIN_PATH);
    setBusy(true);
    try {
      const counts = await like('article', article.id, !article.liked, {
        token: user.token,
        locale: i18n.language,
      });
      queryClient.setQueryData<Article>([ARTICLES_QUERY, user.id, 'view', article.id], (old) =>
        old ? { ...old, ...counts } : old,
      );
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY, user.id, null] });
  });
  const collect = useThrottled(async () => {
    if (!user) return open(LOGIN_PATH);
    try {
      const collected = await collectArticle(article.id, !article.collected, {
        token: user.token,
        locale: i18n.language,
      });
      queryClient.setQueryData<Article>([ARTICLES_QUERY, user.id, 'view', article.id], (old) =>
        old ? { ...old, collected } : old,
      );
      toast(collected ? t('article.collectedToast') : t('article.uncollectedToast'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY, user.id, 'collection'] });
  });
  const target = encodeURIComponent(article.id);
  return (
    <div className="article-reactions">
      <Button
        size="small"
        color={article.liked ? 'primary' : 'default'}
        fill={article.liked ? 'solid' : 'outline'}
        aria-pressed={article.liked}
        loading={busy}
        onClick={() => void toggle()}
      >
        {article.liked ? t('article.liked') : t('article.like')}
      </Button>
      <Button
        size="small"
        color={article.collected ? 'warning' : 'default'}
        fill={article.collected ? 'solid' : 'outline'}
        aria-pressed={article.collected}
        onClick={() => void collect()}
      >
        {article.collected ? t('article.collected') : t('article.collect')}
      </Button>
      <button type="button" className="feedback-mine" onClick={() => open(`article/ping-zan?id=${target}`)}>
        {t('article.likes', { count: article.likes })}
      </button>
      <button type="button" className="feedback-mine" onClick={() => open(`article/ping?id=${target}`)}>
        {t('article.comments', { count: article.comments })}
      </button>
    </div>
  );
}

/** The article: title, author (opening their home), when, the text and the images; its author may delete it. */
function ArticleBody({ article }: { article: Article }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const name = article.author.username || t('im.user', { id: article.author.id });

  const remove = async () => {
    const ok = await Dialog.confirm({
      content: t('article.deleteConfirm'),
      confirmText: t('article.delete'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await deleteArticle(article.id, { token: user?.token, locale: i18n.language });
      toast(t('article.deleted'));
      await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY] });
      close();
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  return (
    <article className="article-page">
      <h1>{article.title}</h1>
      {article.channel && (
        <Tag color="primary" fill="outline" data-testid="article-channel">
          {article.channel.name}
        </Tag>
      )}
      <button
        type="button"
        className="article-author"
        onClick={() => open(`user/home?id=${encodeURIComponent(article.author.id)}`)}
      >
        <Avatar src={article.author.img} style={{ '--size': '32px', '--border-radius': '50%' }} />
        <span>{name}</span>
        <small>{relativeTime(article.created_at, Date.now(), t, i18n.language)}</small>
      </button>
      {article.video && (
        <VideoPlayer
          className="article-video"
          testId="video-player"
          url={article.video.url}
          cover={article.video.cover}
          sources={article.video.sources}
        />
      )}
      <p className="article-content">{article.content}</p>
      <div className="article-page-images">
        {article.imgs.map((url, index) => (
          <img key={url} src={url} alt={t('article.image', { n: index + 1 })} />
        ))}
      </div>
      <ReactionBar article={article} />
      {article.mine && (
        <Button block color="danger" fill="outline" onClick={() => void remove()}>
          {t('article.delete')}
        </Button>
      )}
    </article>
  );
}

/**
 * An article (spec §2 article/view, param `id`) or a video (video/view: the same with its player), for visitors and
 * members; **Report** in the bar reports another's. One that does not exist, was deleted, or
 * is a blocked member's says "content does not exist or was deleted by the author" (spec §8).
 */
export function ContentPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: [ARTICLES_QUERY, user?.id ?? null, 'view', id],
    queryFn: () => articleView(id, { token: user?.token, locale: i18n.language }),
    enabled: id !== '',
    retry: false,
  });
  const [reporting, setReporting] = useState(false);
  const article = query.data;
  // A member reports another's article; a visitor is asked to sign in first.
  const report =
    article && !article.mine ? (
      <button type="button" className="feedback-mine" onClick={() => (user ? setReporting(true) : open(LOGIN_PATH))}>
        {t('report.action')}
      </button>
    ) : undefined;
  return (
    <div className="page">
      <NavBar title="" right={report} />
      {article && (
        <ReportSheet kind="article" targetId={article.id} visible={reporting} onClose={() => setReporting(false)} />
      )}
      {query.isError && isRefusal(query.error) ? (
        <ErrorBlock status="empty" title={errorText(query.error, t)} description="" />
      ) : (
        <QueryView query={query}>{(article) => <ArticleBody article={article} />}</QueryView>
      )}
    </div>
  );
}
