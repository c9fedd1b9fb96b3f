import { Avatar, ErrorBlock, Grid, List, SearchBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { QueryView } from '../../features/api/QueryView';
import { useThumbnail } from '../../features/api/thumbnail';
import { useTopics } from '../../features/circle/topics';
import { NavBar } from '../../ui/NavBar';

/** Topics shown on the page, the most posts first; "All topics" opens the rest. */
const TOPICS_SHOWN = 6;

/**
 * Discover (spec §2 article/find): the search, the circle's topics with the most posts (each opening its posts), and
 * the ways in to what the tabs do not show: live rooms, short videos, topics, people to follow, the weather and the
 * epidemic.
 */
export default function Find() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const thumb = useThumbnail();
  const topics = useTopics();
  const entries = [
    { key: 'live', label: t('live.title'), path: 'live/index' },
    { key: 'svideo', label: t('svideo.title'), path: 'svideo/index' },
    { key: 'topics', label: t('discover.allTopics'), path: 'topic/index' },
    { key: 'friends', label: t('mine.findFriends'), path: 'user/user_list' },
    { key: 'weather', label: t('weather.title'), path: 'public/tianqi' },
    { key: 'epidemic', label: t('epidemic.title'), path: 'public/yiqing' },
  ];
  return (
    <div className="page">
      <NavBar title={t('discover.title')} />
      <div className="find-search" data-testid="find-search" onClickCapture={() => open('search/index')}>
        <SearchBar placeholder={t('search.placeholder')} onFocus={() => open('search/index')} />
      </div>
      <List header={t('circle.topics')}>
        <QueryView query={topics}>
          {(all) =>
            all.length === 0 ? (
              <ErrorBlock status="empty" title={t('circle.noTopics')} description="" />
            ) : (
              <Grid columns={2} gap={8} className="find-topics">
                {all.slice(0, TOPICS_SHOWN).map((topic) => (
                  <Grid.Item key={topic.id}>
                    <button
                      type="button"
                      className="find-topic"
                      data-testid="find-topic"
                      onClick={() => open(`topic/list?id=${encodeURIComponent(topic.id)}`)}
                    >
                      <Avatar src={thumb(topic.img, 32)} style={{ '--size': '32px' }} />
                      <span>
                        #{topic.title}#<small>{t('circle.posts', { count: topic.posts })}</small>
                      </span>
                    </button>
                  </Grid.Item>
                ))}
              </Grid>
            )
          }
        </QueryView>
      </List>
      <List header={t('discover.more')}>
        {entries.map((entry) => (
          <List.Item key={entry.key} data-testid="find-entry" onClick={() => open(entry.path)}>
            {entry.label}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
