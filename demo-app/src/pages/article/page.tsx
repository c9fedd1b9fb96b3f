import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ArticleList } from '../../features/content/ArticleList';
import { useChannels } from '../../features/content/channels';
import { NavBar } from '../../ui/NavBar';

/**
 * A channel's articles on a page of their own (spec §2 article/page?typeid=&title=), newest first, under the channel's
 * name (else `title`); without a channel, every article. A link to a channel the front page does not offer still
 * lists it; one that does not exist says so.
 */
export default function ChannelPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const typeid = params.get('typeid') || undefined;
  const { data } = useChannels().query;
  const known = [...(data?.mine ?? []), ...(data?.more ?? [])].find((channel) => channel.id === typeid);
  const title = known?.name || params.get('title') || t('article.recommended');
  return (
    <div className="page">
      <NavBar title={title} />
      <ArticleList
        {...(typeid !== undefined && { channel: typeid })}
        empty={typeid ? t('article.noneInChannel') : t('article.none')}
      />
    </div>
  );
}
