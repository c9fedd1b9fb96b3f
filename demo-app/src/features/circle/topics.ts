import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { TOPICS_QUERY, topicList } from './posts';

/** Every topic of the circle, the most posts first (topic/index). */
export function useTopics() {
  const { i18n } = useTranslation();
  const { user } = useSession();
  return useQuery({
    queryKey: [TOPICS_QUERY],
    queryFn: () => topicList({ token: user?.token, locale: i18n.language }),
    enabled: true,
  });
}
