import { Button, Dialog, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { isRefusal } from '../api/request';
import { toast, toastError } from '../../ui/toast';
import { cancelLink, pushFields, requestLink } from './api';
import { PushField } from './AnchorPanel';
import type { LiveRoom, OwnLink } from './room';

/** Refusals after which the room's page is asked again: the member's link or the room moved on meanwhile. */
const STALE = new Set(['live_link_open', 'live_link_missing', 'live_state']);

/** Props of {@link CoBroadcastButton} and {@link CoBroadcastPanel}. */
interface CoBroadcastProps {
  roomId: string;
  room: LiveRoom;
  /** Asks `live/view` again. */
  refresh: () => void;
}

/** The viewer's calls, each telling a refusal in the app's words. */
function useLinkCalls({ roomId, room, refresh }: CoBroadcastProps) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const context = { token: user?.token, locale: i18n.language };
  const me = user?.id ?? '';

  const refused = (error: unknown) => {
    if (isRefusal(error) && error.code === 'live_removed') room.silenced();
    if (isRefusal(error) && STALE.has(error.code)) refresh();
    toastError(errorText(error, t));
  };

  return {
    ask: async () => {
      const sure = await Dialog.confirm({
        content: t('live.linkConfirm'),
        confirmText: t('live.linkAsk'),
        cancelText: t('common.cancel'),
      });
      if (!sure) return;
      try {
        room.requested(await requestLink(roomId, context));
      } catch (error) {
        refused(error);
      }
    },
    cancel: async () => {
      try {
        await cancelLink(roomId, context);
        room.linkGone(me);
      } catch (error) {
        refused(error);
      }
    },
    leave: async () => {
      const sure = await Dialog.confirm({
        content: t('live.leaveConfirm'),
        confirmText: t('live.leaveStage'),
        cancelText: t('common.cancel'),
      });
      if (!sure) return;
      try {
        await cancelLink(roomId, context);
        room.linkGone(me);
        toast(t('live.left'));
      } catch (error) {
        refused(error);
      }
    },
  };
}

/** "Co-broadcast" for a viewer who may ask the anchor to join them on stage (spec §4), after a confirmation. */
export function CoBroadcastButton(props: CoBroadcastProps) {
  const { t } = useTranslation();
  const { ask } = useLinkCalls(props);
  return (
    <Button size="small" color="primary" fill="outline" onClick={() => void ask()}>
      {t('live.coBroadcast')}
    </Button>
  );
}

/**
 * The viewer's co-broadcast under way: waiting for the anchor, with Cancel; or on stage, with where their streaming
 * software sends the stream (server and key apart, as for the anchor) and Leave the stage.
 */
export function CoBroadcastPanel({ link, ...props }: CoBroadcastProps & { link: OwnLink }) {
  const { t } = useTranslation();
  const { cancel, leave } = useLinkCalls(props);

  if (link.status === 'waiting') {
    return (
      <section className="live-link" role="status">
        <span className="live-link-text">{t('live.linkWaiting')}</span>
        <Button size="small" onClick={() => void cancel()}>
          {t('common.cancel')}
        </Button>
      </section>
    );
  }
  const push = link.push_url ? pushFields(link.push_url) : undefined;
  return (
    <section className="live-link-stage">
      <List header={t('live.onStage')}>
        {push ? (
          <>
            <PushField label={t('live.pushServer')} value={push.server} />
            {push.key !== '' && <PushField label={t('live.pushKey')} value={push.key} />}
          </>
        ) : (
          <List.Item>{t('live.pushLoading')}</List.Item>
        )}
        <List.Item>
          <p className="muted live-push-hint">{t('live.guestHint')}</p>
          <p className="muted live-push-hint">{t('live.keySecret')}</p>
        </List.Item>
      </List>
      <div className="live-link-leave">
        <Button block color="danger" fill="outline" size="small" onClick={() => void leave()}>
          {t('live.leaveStage')}
        </Button>
      </div>
    </section>
  );
}
