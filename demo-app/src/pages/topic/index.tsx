import { Avatar, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { QueryView } from '../../features/api/QueryView';
import { useTopics } from '../../features/circle/topics';
import { NavBar } from '../../ui/NavBar';

/** Topics (spec §2 topic/index): the circle's topics, the most posts first, each opening its posts (topic/list). */
export default function Topics() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const query = useTopics();
  return (
    <div className="page">
      <NavBar title={t('circle.topics')} />
      <QueryView query={query}>
        {(topics) =>
          topics.length === 0 ? (
            <ErrorBlock status="empty" title={t('circle.noTopics')} description="" />
          ) : (
            <List>
              {topics.map((topic) => (
                <List.Item
                  key={topic.id}
                  data-testid="topic"
                  prefix={<Avatar src={topic.img} style={{ '--size': '40px' }} />}
                  description={topic.intro}
                  extra={t('circle.posts', { count: topic.posts })}
                  onClick={() => open(`topic/list?id=${encodeURIComponent(topic.id)}`)}
                >
                  #{topic.title}#
                </List.Item>
              ))}
            </List>
          )
        }
      </QueryView>
    </div>
  );
}
