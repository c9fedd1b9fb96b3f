import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { ArticleList } from '../../features/content/ArticleList';
import { NavBar } from '../../ui/NavBar';

/** My collection (spec §2 member/record): the articles the member collected, the latest collected first. */
export default function Collection() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={t('article.collection')} />
      <ArticleList collection empty={t('article.noCollection')} />
    </div>
  );
}
