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
import { relativeTime } from '../../features/im/time';
import { useNow } from '../../features/im/useNow';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/content/articles.css';
import '../member/feedback.css';

/** The box to comment in; a visitor is offered the login page instead. */
function Composer({ kind, subjectId, onSent }: { kind: ReactionKind; subjectId: string; onSent: () => Promise<void> }) {
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
      await addComment(kind, subjectId, text, { token: user.token, locale: i18n.language });
      setText('');
      await onSent();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="comment-composer">
      {/* The TextArea passes on its id but not an aria-label: a label names it for screen readers. */}
      <label htmlFor="comment-text" className="visually-hidden">
        {t('article.commentPlaceholder')}
      </label>
      <TextArea
        id="comment-text"
        placeholder={t('article.commentPlaceholder')}
        value={text}
        onChange={setText}
        autoSize={{ minRows: 1, maxRows: 4 }}
      />
      <Button color="primary" size="small" loading={sending} onClick={() => void send()}>
        {t('article.send')}
      </Button>
    </div>
  );
}

/** One comment: the writer (opening their home), when, the text, and delete where the member may. */
function CommentLine({
  kind,
  comment,
  now,
  onDeleted,
}: {
  kind: ReactionKind;
  comment: ArticleComment;
  now: number;
  onDeleted: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const name = comment.author.username || t('im.user', { id: comment.author.id });
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
        comment.deletable ? (
          <button type="button" className="feedback-mine" onClick={() => void remove()}>
            {t('article.delete')}
          </button>
        ) : undefined
      }
    >
      <span className="article-comment">{comment.content}</span>
    </List.Item>
  );
}

/**
 * The comments on an article (spec §2 article/ping, param `id`), or on a circle post (`type=quanzi`): the box to
 * comment in, then the comments, newest first, twenty at a time; a member deletes their own, and any on their own
 * article or post.
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
  return (
    <div className="page">
      <NavBar title={t('article.commentsTitle')} />
      <Composer kind={kind} subjectId={id} onSent={refresh} />
      <PagedList list={list} empty={<ErrorBlock status="empty" title={t('article.noComments')} description="" />}>
        {(items) => (
          <List>
            {items.map((comment) => (
              <CommentLine key={comment.id} kind={kind} comment={comment} now={now} onDeleted={refresh} />
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
