import { Avatar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { PostList } from '../../features/circle/PostList';
import { useTopics } from '../../features/circle/topics';
import { NavBar } from '../../ui/NavBar';
import '../../features/circle/circle.css';
import '../member/feedback.css';

/**
 * A topic (spec §2 topic/list, `?id=`): its picture, title, introduction and posts, newest first; "Post" opens the
 * form with the topic chosen. A topic removed, or that never was, says "topic does not exist or was deleted" (§8).
 */
export default function TopicPosts() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const topic = useTopics().data?.find((item) => item.id === id);
  return (
    <div className="page">
      <NavBar
        title={topic ? `#${topic.title}#` : t('circle.topic')}
        right={
          topic && (
            <button
              type="button"
              className="feedback-mine"
              onClick={() => open(`member/add-quanzi?topic=${encodeURIComponent(topic.id)}`)}
            >
              {t('circle.post')}
            </button>
          )
        }
      />
      {topic && (
        <div className="topic-head" data-testid="topic-head">
          <Avatar src={topic.img} style={{ '--size': '56px' }} />
          <div>
            <h2>#{topic.title}#</h2>
            <p>{topic.intro}</p>
            <p>{t('circle.posts', { count: topic.posts })}</p>
          </div>
        </div>
      )}
      <PostList key={id} topic={id} empty={t('circle.noneInTopic')} />
    </div>
  );
}
