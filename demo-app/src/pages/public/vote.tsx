import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { QueryView } from '../../features/api/QueryView';
import { VoteBlock } from '../../features/circle/PostList';
import { CIRCLE_QUERY, viewPost, type CirclePost } from '../../features/circle/posts';
import { NavBar } from '../../ui/NavBar';
import '../../features/content/articles.css';
import '../../features/circle/circle.css';

/**
 * A circle post's vote on a page of its own (spec §2 public/vote?id=): the post's title (none for a post written
 * before posts had titles), text and author (opening their home), then the vote, to cast while it runs (a visitor is sent to sign in) and its results after.
 */
export default function VotePage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const key = [CIRCLE_QUERY, 'view', id, user?.id];
  const post = useQuery({
    queryKey: key,
    queryFn: () => viewPost(id, { token: user?.token, locale: i18n.language }),
    enabled: id !== '',
    retry: false,
  });
  const voted = (updated: CirclePost) => {
    queryClient.setQueryData(key, updated);
    // The lists show the new count too.
    void queryClient.invalidateQueries({ queryKey: [CIRCLE_QUERY] });
  };
  return (
    <div className="page">
      <NavBar title={t('circle.vote')} />
      {id === '' ? (
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      ) : (
        <QueryView query={post}>
          {(shown) => (
            <List>
              <List.Item
                description={shown.author.username || t('im.user', { id: shown.author.id })}
                onClick={() => open(`user/home?id=${encodeURIComponent(shown.author.id)}`)}
              >
                {shown.title !== '' && (
                  <p className="post-title" data-testid="post-title">
                    {shown.title}
                  </p>
                )}
                <span className="article-comment">{shown.content}</span>
              </List.Item>
              <List.Item>
                {shown.vote ? (
                  <VoteBlock post={shown} onVoted={voted} />
                ) : (
                  <ErrorBlock status="empty" title={t('circle.noVote')} description="" />
                )}
              </List.Item>
            </List>
          )}
        </QueryView>
      )}
    </div>
  );
}
