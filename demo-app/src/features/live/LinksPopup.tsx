import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, List, Popup, Space } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { QueryView } from '../api/QueryView';
import { toast, toastError } from '../../ui/toast';
import { acceptLink, endLink, LIVE_QUERY, rejectLink, roomLinks, type LiveLink } from './api';
import type { LiveRoom } from './room';

/** The query key of a room's co-broadcast requests and guests, as its anchor sees them. */
export const linksKey = (room: string) => [LIVE_QUERY, 'links', room] as const;

/** The anchor's list of co-broadcast requests and guests of `room`, kept while the room's page is open. */
export function useRoomLinks(room: string) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  return useQuery({
    queryKey: linksKey(room),
    queryFn: () => roomLinks(room, { token: user?.token, locale: i18n.language }),
    enabled: user !== null,
    retry: false,
  });
}

/**
 * The anchor's sheet of co-broadcast (spec §4): the waiting requests, oldest first, each with Accept and Reject, then
 * the guests on stage, each with End. An accepted guest's window appears at once; the channel tells everyone else.
 */
export function LinksPopup({
  room,
  stage,
  visible,
  onClose,
}: {
  room: string;
  stage: LiveRoom;
  visible: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const links = useRoomLinks(room);

  const act = async (work: () => Promise<string>) => {
    try {
      toast(await work());
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: linksKey(room) });
  };
  const accept = (uid: string) =>
    act(async () => {
      stage.onStage(await acceptLink(room, uid, context));
      return t('live.linkAccepted');
    });
  const reject = (uid: string) =>
    act(async () => {
      await rejectLink(room, uid, context);
      return t('live.linkRejected');
    });
  const end = (uid: string) =>
    act(async () => {
      await endLink(room, uid, context);
      stage.linkGone(uid);
      return t('live.linkEndedByMe');
    });

  const row = (link: LiveLink) => (
    <List.Item
      key={link.uid}
      data-testid="live-link"
      prefix={<Avatar src={link.img} style={{ '--size': '32px', '--border-radius': '50%' }} />}
      extra={
        link.status === 'waiting' ? (
          <Space>
            <Button size="mini" color="primary" onClick={() => void accept(link.uid)}>
              {t('live.accept')}
            </Button>
            <Button size="mini" onClick={() => void reject(link.uid)}>
              {t('live.reject')}
            </Button>
          </Space>
        ) : (
          <Button size="mini" color="danger" fill="outline" onClick={() => void end(link.uid)}>
            {t('live.endLink')}
          </Button>
        )
      }
    >
      {link.username || t('im.user', { id: link.uid })}
    </List.Item>
  );

  return (
    <Popup visible={visible} onMaskClick={onClose} showCloseButton onClose={onClose} bodyClassName="live-sheet">
      <h2>{t('live.linksTitle')}</h2>
      <QueryView query={links}>
        {(list) => {
          const waiting = list.filter((link) => link.status === 'waiting');
          const onStage = list.filter((link) => link.status === 'accepted');
          if (list.length === 0) return <ErrorBlock status="empty" title={t('live.noLinks')} description="" />;
          return (
            <>
              {waiting.length > 0 && <List header={t('live.linksWaiting')}>{waiting.map(row)}</List>}
              {onStage.length > 0 && <List header={t('live.linksOnStage')}>{onStage.map(row)}</List>}
            </>
          );
        }}
      </QueryView>
    </Popup>
  );
}
