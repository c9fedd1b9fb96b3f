import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';

/**
 * How many members someone follows and how many follow them, each opening that list (member/guanzhu; `owner` is
 * whose, the signed-in member's own when undefined), and the likes their articles, videos and posts received (spec §3
 * profile "fans, likes"), which open nothing.
 */
export function FollowCounts({
  owner,
  follows,
  fans,
  likes,
}: {
  owner?: string;
  follows: number;
  fans: number;
  likes: number;
}) {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const path = (tab: 'follows' | 'fans') => {
    const query = new URLSearchParams();
    if (owner !== undefined) query.set('id', owner);
    if (tab === 'fans') query.set('tab', 'fans');
    const search = query.toString();
    return search === '' ? 'member/guanzhu' : `member/guanzhu?${search}`;
  };
  const stat = (tab: 'follows' | 'fans', count: number, label: string) => (
    <button type="button" className="follow-count" onClick={() => open(path(tab))} data-testid={`count-${tab}`}>
      <strong>{count}</strong>
      <span>{label}</span>
    </button>
  );
  return (
    <div className="follow-counts">
      {stat('follows', follows, t('follows.followsCount'))}
      {stat('fans', fans, t('follows.fansCount'))}
      <div className="follow-count" data-testid="count-likes">
        <strong>{likes}</strong>
        <span>{t('follows.likesCount')}</span>
      </div>
    </div>
  );
}
