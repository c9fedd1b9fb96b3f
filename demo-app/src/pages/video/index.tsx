import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { ALL_CHANNELS, useChannelTabs } from '../../features/content/ChannelTabs';
import { VideoList } from '../../features/content/VideoList';
import { NavBar } from '../../ui/NavBar';
import { useTabTitle } from '../TabPage';
import '../member/feedback.css';
import { AdBanner } from '../../features/ads/AdBanner';

/**
 * Tab: pages/video/index (spec §2): videos newest first for visitors and members, pulled down to refresh, in the
 * viewer's channel tabs as on the front page (a channel's from `video/lists/in/{id}`, spec §7); "Live" opens the live
 * rooms (live/index, for members), "Publish" the video form (member/add-video) for a signed-in member.
 */
export default function VideoTab() {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const { user } = useSession();
  const title = useTabTitle('video');
  const { current, tabs } = useChannelTabs();
  return (
    <div className="page">
      <NavBar
        title={title}
        back={false}
        right={
          <span className="navbar-actions">
            <button type="button" className="feedback-mine" onClick={() => open('live/index')}>
              {t('live.title')}
            </button>
            {user && (
              <button type="button" className="feedback-mine" onClick={() => open('member/add-video')}>
                {t('video.publish')}
              </button>
            )}
          </span>
        }
      />
      <AdBanner position="video" />
      {tabs}
      <VideoList
        key={current}
        {...(current !== ALL_CHANNELS && { channel: current })}
        empty={current === ALL_CHANNELS ? t('video.none') : t('video.noneInChannel')}
      />
    </div>
  );
}
