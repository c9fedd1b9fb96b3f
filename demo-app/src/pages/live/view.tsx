import { useQuery } from '@tanstack/react-query';
import { Button, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { roomKey, roomView } from '../../features/live/api';
import { LiveRoomView } from '../../features/live/LiveRoomView';
import { DelayedLoading } from '../../ui/DelayedLoading';
import { NavBar } from '../../ui/NavBar';
import '../member/feedback.css';
import '../../features/live/live.css';

/**
 * A live room (spec §2 live/view?id=): the stream, chat and goods, kept live by the room's channel; the anchor's tools
 * besides. A member the anchor removed is refused the room ("you were removed from or muted in the live room").
 */
export default function LiveView() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useQuery({
    queryKey: roomKey(id, user?.id),
    queryFn: () => roomView(id, { token: user?.token, locale: i18n.language }),
    enabled: user !== null && id !== '',
    retry: false,
  });

  if (!user) return null;
  if (query.data) {
    return (
      <div className="page live-page">
        <LiveRoomView key={query.data.id} detail={query.data} />
      </div>
    );
  }
  let body;
  if (id === '') body = <ErrorBlock status="empty" title={t('errors.live_missing')} description="" />;
  else if (query.isError) {
    body = (
      <ErrorBlock status="default" title={errorText(query.error, t)} description="">
        <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
      </ErrorBlock>
    );
  } else body = <DelayedLoading />;
  return (
    <div className="page">
      <NavBar title={t('live.title')} />
      {body}
    </div>
  );
}
