import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { ArticleList } from '../../features/content/ArticleList';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';

/**
 * Tab: pages/article/index, the front page (spec §2): the article feed, newest first, for visitors and members;
 * "Search" opens the search (search/index); "Write" opens the article form (member/add-article), which asks a visitor to sign in first.
 */
export default function FrontPage() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const title = useTabTitle('front');
  return (
    <div className="page">
      <NavBar
        title={title}
        back={false}
        right={
          <span className="front-actions">
            <button type="button" className="feedback-mine" onClick={() => open('search/index')}>
              {t('search.title')}
            </button>
            <button type="button" className="feedback-mine" onClick={() => open('member/add-article')}>
              {t('article.write')}
            </button>
          </span>
        }
      />
      <ArticleList empty={t('article.none')} />
    </div>
  );
}
