import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { ArticleList } from '../../features/content/ArticleList';
import { ALL_CHANNELS, useChannelTabs } from '../../features/content/ChannelTabs';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';
import { AdBanner } from '../../features/ads/AdBanner';

/**
 * Tab: pages/article/index, the front page (spec §2): the article feed, newest first, for visitors and members, in
 * tabs: "Recommended" (every article) and the viewer's channels in their order, with "Channels" to choose them
 * (article/typeid). "Search" opens the search (search/index); "Write" opens the article form (member/add-article),
 * which asks a visitor to sign in first.
 */
export default function FrontPage() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const title = useTabTitle('front');
  const { current, tabs } = useChannelTabs();
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
      <AdBanner position="article" />
      {tabs}
      <ArticleList
        key={current}
        {...(current !== ALL_CHANNELS && { channel: current })}
        empty={current === ALL_CHANNELS ? t('article.none') : t('article.noneInChannel')}
      />
    </div>
  );
}
