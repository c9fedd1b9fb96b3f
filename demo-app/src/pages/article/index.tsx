import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { ArticleList } from '../../features/content/ArticleList';
import { useChannels } from '../../features/content/channels';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';
import { AdBanner } from '../../features/ads/AdBanner';

/** The front page's first tab: every article, whatever its channel. */
const ALL = '';

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
  const { query } = useChannels();
  const [active, setActive] = useState(ALL);
  const mine = query.data?.mine ?? [];
  const any = mine.length + (query.data?.more.length ?? 0) > 0;
  // A channel the viewer removed (or the operator did) leaves its tab: show every article then.
  const current = mine.some((channel) => channel.id === active) ? active : ALL;
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
      {any && (
        <div className="front-channels">
          <Tabs activeKey={current} onChange={setActive} stretch={false} className="front-tabs">
            <Tabs.Tab key={ALL} title={t('article.recommended')} />
            {mine.map((channel) => (
              <Tabs.Tab key={channel.id} title={channel.name} />
            ))}
          </Tabs>
          <button type="button" className="feedback-mine front-channels-edit" onClick={() => open('article/typeid')}>
            {t('article.channels')}
          </button>
        </div>
      )}
      <ArticleList
        key={current}
        {...(current !== ALL && { channel: current })}
        empty={current === ALL ? t('article.none') : t('article.noneInChannel')}
      />
    </div>
  );
}
