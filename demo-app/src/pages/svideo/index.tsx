import { useSearchParams } from 'react-router';
import { ShortVideoFeed } from '../../features/content/ShortVideoFeed';

/**
 * Sub-package page svideo/index (spec §2, param `id`): the short videos, full screen and swiped, from video `id`;
 * opened from a video's cover in the video tab.
 */
export default function ShortVideos() {
  const [params] = useSearchParams();
  return <ShortVideoFeed id={params.get('id') ?? ''} />;
}
