import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NavBar } from '../../ui/NavBar';

/**
 * Video preview (spec §2 public/openvideo?url=&title=): the video alone under the navigation bar, playing with its
 * controls; a link that is not http(s) gives "link does not exist".
 */
export default function OpenVideo() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const title = params.get('title') || t('pages.openVideo');
  const safe = /^https?:\/\//i.test(url);
  return (
    <div className="page page-full">
      <NavBar title={title} />
      {safe ? (
        <video className="open-video" data-testid="open-video" src={url} controls autoPlay playsInline />
      ) : (
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      )}
    </div>
  );
}
