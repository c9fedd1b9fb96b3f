import { ContentPage } from '../../features/content/ContentPage';

/**
 * Sub-package page video/view (spec §2, param `id`): a video with its player (the cover as its poster), title,
 * author, date, description, likes, collecting and comments, as an article's page shows them.
 */
export default function VideoPage() {
  return <ContentPage />;
}
