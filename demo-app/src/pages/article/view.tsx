import { ContentPage } from '../../features/content/ContentPage';

/** Sub-package page article/view (spec §2, param `id`): an article, its likes, collecting and comments. */
export default function ArticlePage() {
  return <ContentPage />;
}
