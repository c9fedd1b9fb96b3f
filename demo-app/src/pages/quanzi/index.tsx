import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { PostList } from '../../features/circle/PostList';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';
import '../../features/content/articles.css';
import { AdBanner } from '../../features/ads/AdBanner';

/**
 * Tab: pages/quanzi/index, the circle (spec §1 "circle posts (images, or a video, or a vote)"): everyone's posts,
 * newest first, with their images or votes; "Topics" opens the topics (topic/index); "Post" opens the form
 * (member/add-quanzi), which asks a visitor to sign in first.
 */
export default function CirclePage() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const title = useTabTitle('circle');
  return (
    <div className="page">
      <NavBar
        title={title}
        back={false}
        right={
          <span className="front-actions">
            <button type="button" className="feedback-mine" onClick={() => open('topic/index')}>
              {t('circle.topics')}
            </button>
            <button type="button" className="feedback-mine" onClick={() => open('member/add-quanzi')}>
              {t('circle.post')}
            </button>
          </span>
        }
      />
      <AdBanner position="quanzi" />
      <PostList empty={t('circle.none')} />
    </div>
  );
}
