import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useThrottled } from '../../ui/useThrottled';
import { Avatar, Button, Dialog, ErrorBlock, List, ProgressBar } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { usePagedList } from '../api/paged';
import { PagedList } from '../api/PagedList';
import { useThumbnail } from '../api/thumbnail';
import { relativeTime } from '../im/time';
import { useNow } from '../im/useNow';
import { toast, toastError } from '../../ui/toast';
import { imageGridClass, like } from '../content/articles';
import { Hideable } from '../content/Hideable';
import { ReportSheet } from '../content/ReportSheet';
import { VideoPlayer } from '../content/VideoPlayer';
import { CIRCLE_QUERY, circlePage, deletePost, votePost, type CirclePost } from './posts';
import '../content/articles.css';
import './circle.css';

/**
 * A post's vote: while it runs and the member has not voted, its options to vote for (a visitor is sent to sign in);
 * after, each option's share with the member's own marked, the votes cast and when it ends or that it ended.
 */
export function VoteBlock({ post, onVoted }: { post: CirclePost; onVoted: (post: CirclePost) => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [sending, setSending] = useState(false);
  const vote = post.vote;
  if (!vote) return null;
  const results = vote.voted !== null || vote.ended;

  const cast = async (option: number) => {
    if (!user) return open(LOGIN_PATH);
    setSending(true);
    try {
      onVoted(await votePost(post.id, option, { token: user.token, locale: i18n.language }));
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  const ends = new Date(vote.ends_at).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="post-vote" data-testid="vote" onClick={(event) => event.stopPropagation()}>
      {vote.options.map((option, index) =>
        results ? (
          <div key={index} className="post-vote-result">
            <div className="post-vote-label">
              <span>
                {option.text}
                {vote.voted === index && <span className="post-vote-mine"> ✓ {t('circle.myVote')}</span>}
              </span>
              <span>{t('circle.votes', { count: option.count })}</span>
            </div>
            <ProgressBar percent={vote.total === 0 ? 0 : Math.round((option.count * 100) / vote.total)} />
          </div>
        ) : (
          <button
            key={index}
            type="button"
            className="post-vote-option"
            disabled={sending}
            onClick={() => void cast(index)}
          >
            {option.text}
          </button>
        ),
      )}
      <div className="post-vote-meta">
        {t('circle.votes', { count: vote.total })} ·{' '}
        {vote.ended ? t('circle.ended') : t('circle.endsAt', { date: ends })}
      </div>
    </div>
  );
}

/**
 * A post's likes and comments: the like button (a visitor is sent to sign in), the count of likes opening who liked it
 * and the count of comments opening them (article/ping-zan and article/ping with `type=quanzi`).
 */
function ReactionRow({ post, onChanged }: { post: CirclePost; onChanged: (post: CirclePost) => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [busy, setBusy] = useState(false);
  const toggle = useThrottled(async () => {
    if (!user) return open(LOGIN_PATH);
    setBusy(true);
    try {
      const counts = await like('quanzi', post.id, !post.liked, { token: user.token, locale: i18n.language });
      onChanged({ ...post, ...counts });
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setBusy(false);
    }
  });
  const target = `id=${encodeURIComponent(post.id)}&type=quanzi`;
  return (
    <div className="article-reactions post-reactions" onClick={(event) => event.stopPropagation()}>
      <Button
        size="mini"
        color={post.liked ? 'primary' : 'default'}
        fill={post.liked ? 'solid' : 'outline'}
        aria-pressed={post.liked}
        loading={busy}
        onClick={() => void toggle()}
      >
        {post.liked ? t('article.liked') : t('article.like')}
      </Button>
      <button type="button" className="feedback-mine" onClick={() => open(`article/ping-zan?${target}`)}>
        {t('article.likes', { count: post.likes })}
      </button>
      <button type="button" className="feedback-mine" onClick={() => open(`article/ping?${target}`)}>
        {t('article.comments', { count: post.comments })}
      </button>
    </div>
  );
}

/**
 * One post: its author (opening their home) and when, its title (none for a post written before posts had titles),
 * the text, the images, the video (its cover as the poster) or the vote, its likes and comments; its author may
 * delete it, and another member report it (a visitor is sent to sign in).
 */
function PostItem({ post, now, hide }: { post: CirclePost; now: number; hide?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const [reporting, setReporting] = useState(false);
  const thumb = useThumbnail();
  // A vote's answer, or a like, replaces the post in every circle list loaded (the circle, a topic, a home), so that
  // none shows the options again or the old count.
  const replace = (updated: CirclePost) =>
    queryClient.setQueriesData<InfiniteData<CirclePost[]>>({ queryKey: [CIRCLE_QUERY] }, (data) =>
      data === undefined
        ? data
        : { ...data, pages: data.pages.map((page) => page.map((item) => (item.id === updated.id ? updated : item))) },
    );
  const name = post.author.username || t('im.user', { id: post.author.id });

  const remove = async () => {
    if (!user) return;
    const sure = await Dialog.confirm({
      content: t('circle.deleteConfirm'),
      confirmText: t('circle.delete'),
      cancelText: t('common.cancel'),
    });
    if (!sure) return;
    try {
      await deletePost(post.id, { token: user.token, locale: i18n.language });
      toast(t('circle.deleted'));
      await queryClient.invalidateQueries({ queryKey: [CIRCLE_QUERY] });
    } catch (error) {
      toastError(errorText(error, t));
    }
  };

  return (
    <List.Item data-testid="post">
      <div className="post">
        <button
          type="button"
          className="post-author"
          onClick={() => open(`user/home?id=${encodeURIComponent(post.author.id)}`)}
        >
          <Avatar src={thumb(post.author.img, 32)} style={{ '--size': '32px', '--border-radius': '50%' }} />
          <span>{name}</span>
          <small>{relativeTime(post.created_at, now, t, i18n.language)}</small>
        </button>
        {post.title !== '' && (
          <p className="post-title" data-testid="post-title">
            {post.title}
          </p>
        )}
        <p className="post-content">{post.content}</p>
        {post.topic && (
          <button
            type="button"
            className="feedback-mine post-topic"
            onClick={() => open(`topic/list?id=${encodeURIComponent(post.topic?.id ?? '')}`)}
          >
            #{post.topic.title}#
          </button>
        )}
        {post.imgs.length > 0 && (
          <div className={imageGridClass(post.imgs.length)}>
            {post.imgs.map((url, index) => (
              <img
                key={url}
                src={thumb(url, post.imgs.length === 1 ? 240 : 120)}
                alt={t('circle.image', { n: index + 1 })}
                loading="lazy"
              />
            ))}
          </div>
        )}
        {post.video && (
          <VideoPlayer
            className="article-video"
            testId="post-video"
            preload="none"
            url={post.video.url}
            cover={post.video.cover}
            sources={post.video.sources}
          />
        )}
        <VoteBlock post={post} onVoted={replace} />
        <ReactionRow post={post} onChanged={replace} />
        {post.mine ? (
          <button type="button" className="feedback-mine post-delete" onClick={() => void remove()}>
            {t('circle.delete')}
          </button>
        ) : (
          <button
            type="button"
            className="feedback-mine post-delete"
            onClick={() => (user ? setReporting(true) : open(LOGIN_PATH))}
          >
            {t('report.action')}
          </button>
        )}
        {hide}
        {reporting && <ReportSheet kind="quanzi" targetId={post.id} visible onClose={() => setReporting(false)} />}
      </div>
    </List.Item>
  );
}

/**
 * The circle's posts, newest first, twenty at a time: everyone's, one member's (`uid`), one topic's (`topic`), or
 * those holding `keyword`. Visitors read everything; a member sees nothing of members one of the two has blocked.
 */
export function PostList({
  uid,
  topic,
  keyword,
  empty,
}: {
  uid?: string;
  topic?: string;
  keyword?: string;
  empty: ReactNode;
}) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const now = useNow();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [CIRCLE_QUERY, user?.id ?? null, uid ?? null, topic ?? null, keyword ?? null],
    (before) =>
      circlePage(
        {
          ...(uid !== undefined && { uid }),
          ...(topic !== undefined && { topic }),
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
          {items.map((post) => (
            // In the circle and a topic, not on a member's page: another's post may be hidden.
            <Hideable key={post.id} name="quanzi" id={post.id} enabled={uid === undefined && !post.mine}>
              {(hide) => <PostItem post={post} now={now} hide={hide} />}
            </Hideable>
          ))}
        </List>
      )}
    </PagedList>
  );
}
