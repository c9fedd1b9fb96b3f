import { useQuery } from '@tanstack/react-query';
import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { VideoPlayer } from '../../features/content/VideoPlayer';
import { videoSourcesOf } from '../../features/content/videos';
import { NavBar } from '../../ui/NavBar';

/**
 * Video preview (spec §2 public/openvideo?url=&title=): the video alone under the navigation bar, playing with its
 * controls, with the resolution switch (spec §2 "Video player resolutions") when the link is to a video uploaded
 * through the app that has them; a link that is not http(s) gives "link does not exist". The video plays from the
 * link at once, and goes on from it when the resolutions come.
 */
export default function OpenVideo() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const title = params.get('title') || t('pages.openVideo');
  const safe = /^https?:\/\//i.test(url);
  const sources = useQuery({
    queryKey: ['video-sources', url],
    queryFn: () => videoSourcesOf(url, { locale: i18n.language }),
    enabled: safe,
    retry: false,
    staleTime: 60_000,
  });
  return (
    <div className="page page-full">
      <NavBar title={title} />
      {safe ? (
        <VideoPlayer
          url={url}
          cover=""
          sources={sources.data}
          // The link goes on playing as given when its resolutions come: they only add the switch.
          start={sources.data?.find((source) => source.url === url)?.quality}
          className="open-video"
          testId="open-video"
          autoPlay
        />
      ) : (
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      )}
    </div>
  );
}
