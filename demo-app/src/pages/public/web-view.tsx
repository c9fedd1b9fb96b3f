import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NavBar } from '../../ui/NavBar';

/** Web view: shows an http(s) page in a frame under the navigation bar (spec §2 public/web-view?url=&title=). */
export default function WebView() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const url = params.get('url') ?? '';
  const title = params.get('title') || t('pages.webView');
  // Only http(s): a javascript: or data: URL in a frame would run in a context the user did not choose.
  const safe = /^https?:\/\//i.test(url);
  return (
    <div className="page page-full">
      <NavBar title={title} />
      {safe ? (
        <iframe
          className="web-view"
          src={url}
          title={title}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        />
      ) : (
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      )}
    </div>
  );
}
