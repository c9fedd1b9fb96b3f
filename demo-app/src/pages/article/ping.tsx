import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dialog, ErrorBlock, List, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LOGIN_PATH, useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { CIRCLE_QUERY } from '../../features/circle/posts';
import {
  ARTICLES_QUERY,
  COMMENT_MAX,
  addComment,
  commentPage,
  deleteComment,
  reactionKindOf,
  type ArticleComment,
  type ReactionKind,
} from '../../features/content/articles';
import { ReportSheet } from '../../features/content/ReportSheet';
import { commentReportKind } from '../../features/content/reports';
import { relativeTime } from '../../features/im/time';
import { useNow } from '../../features/im/useNow';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/content/articles.css';
import '../member/feedback.css';

/**
 * The box to comment in, or to answer `replyTo` (shown above it, with a way back to a plain comment); a visitor is
 * offered the login page instead.
 */
function Composer({
  kind,
  subjectId,
  replyTo,
  onCancelReply,
  onSent,
}: {
  kind: ReactionKind;
  subjectId: string;
  replyTo: ArticleComment | undefined;
  onCancelReply: () => void;
  onSent: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  if (!user) {
    return (
      <div className="page-actions">
        <Button block onClick={() => open(LOGIN_PATH)}>
          {t('article.signInToComment')}
        </Button>
      </div>
    );
  }
  const send = async () => {
    const length = [...text.trim()].length;
    if (length === 0) return toastError(t('errors.comment_invalid'));
    if (length > COMMENT_MAX) return toastError(t('article.commentLong', { max: COMMENT_MAX }));
    setSending(true);
    try {
      await addComment(kind, subjectId, text, { token: user.token, locale: i18n.language }, replyTo?.id);
      setText('');
      onCancelReply();
      await onSent();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };
  const answered = replyTo && (replyTo.author.username || t('im.user', { id: replyTo.author.id }));
  const placeholder = answered ? t('article.replyPlaceholder', { name: answered }) : t('article.commentPlaceholder');
  return (
    <>
      {answered && (
        <div className="comment-replying" data-testid="replying">
          <span>{t('article.replyingTo', { name: answered })}</span>
          <button type="button" className="feedback-mine" onClick={onCancelReply}>
            {t('article.cancelReply')}
          </button>
        </div>
      )}
      <div className="comment-composer">
        {/* The TextArea passes on its id but not an aria-label: a label names it for screen readers. */}
        <label htmlFor="comment-text" className="visually-hidden">
          {placeholder}
        </label>
        <TextArea
          id="comment-text"
          placeholder={placeholder}
          value={text}
          onChange={setText}
          autoSize={{ minRows: 1, maxRows: 4 }}
        />
        <Button color="primary" size="small" loading={sending} onClick={() => void send()}>
          {t('article.send')}
        </Button>
      </div>
    </>
  );
}

/**
 * One comment: the writer (opening their home), when, whom it answers and the text; Reply for a signed-in member,
 * delete where the member may, and Report on another member's.
 */
function CommentLine({
  kind,
  comment,
  now,
  onReply,
  onDeleted,
}: {
  kind: ReactionKind;
  comment: ArticleComment;
  now: number;
  onReply: (comment: ArticleComment) => void;
  onDeleted: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const name = comment.author.username || t('im.user', { id: comment.author.id });
  const [reporting, setReporting] = useState(false);
  const remove = async () => {
    const ok = await Dialog.confirm({
      content: t('article.deleteCommentConfirm'),
      confirmText: t('article.delete'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await deleteComment(kind, comment.id, { token: user?.token, locale: i18n.language });
      toast(t('article.deleted'));
      await onDeleted();
    } catch (error) {
      toastError(errorText(error, t));
    }
  };
  return (
    <List.Item
      data-testid="comment"
      prefix={
        <button
          type="button"
          className="article-author"
          aria-label={name}
          onClick={() => open(`user/home?id=${encodeURIComponent(comment.author.id)}`)}
        >
          <Avatar src={comment.author.img} style={{ '--size': '32px', '--border-radius': '50%' }} />
        </button>
      }
      title={name}
      description={relativeTime(comment.created_at, now, t, i18n.language)}
      extra={
        user && (
          <span className="comment-actions">
            <button type="button" className="feedback-mine" onClick={() => onReply(comment)}>
              {t('article.reply')}
            </button>
            {comment.deletable && (
              <button type="button" className="feedback-mine" onClick={() => void remove()}>
                {t('article.delete')}
              </button>
            )}
            {comment.author.id !== user.id && (
              <button type="button" className="feedback-mine" onClick={() => setReporting(true)}>
                {t('report.action')}
              </button>
            )}
          </span>
        )
      }
    >
      {comment.reply_to && (
        <span className="comment-reply-to">
          {t('article.replyTo', {
            name: comment.reply_to.author.username || t('im.user', { id: comment.reply_to.author.id }),
          })}{' '}
        </span>
      )}
      <span className="article-comment">{comment.content}</span>
      {reporting && (
        <ReportSheet kind={commentReportKind(kind)} targetId={comment.id} visible onClose={() => setReporting(false)} />
      )}
    </List.Item>
  );
}

/**
 * The comments on an article (spec §2 article/ping, param `id`), or on a circle post (`type=quanzi`): the box to
 * comment in, then the comments, newest first, twenty at a time; a member answers one (Reply), deletes their own, and
 * any on their own article or post, and reports another's.
 */
export default function Comments() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const now = useNow();
  const id = params.get('id') ?? '';
  const kind = reactionKindOf(params.get('type'));
  // The comments live beside the lists that count them, so that both are loaded again together.
  const lists = kind === 'quanzi' ? CIRCLE_QUERY : ARTICLES_QUERY;
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList(
    [lists, user?.id ?? null, 'comments', id],
    (before) => commentPage(kind, id, before, context),
    id !== '',
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: [lists] });
  const [replyTo, setReplyTo] = useState<ArticleComment | undefined>();
  const reply = (comment: ArticleComment) => {
    setReplyTo(comment);
    document.getElementById('comment-text')?.focus();
  };
  return (
    <div className="page">
      <NavBar title={t('article.commentsTitle')} />
      <Composer
        kind={kind}
        subjectId={id}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(undefined)}
        onSent={refresh}
      />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('article.noComments')} description="" />}>
        {(items) => (
          <List>
            {items.map((comment) => (
              <CommentLine
                key={comment.id}
                kind={kind}
                comment={comment}
                now={now}
                onReply={reply}
                onDeleted={refresh}
              />
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
